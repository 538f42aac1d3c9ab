/**
 * A handoff's write into OpenCode's `opencode.db`, under the write lock: checked again for a session a running
 * OpenCode may have made under the id since planning, the one --force replaces removed, the project row made
 * where OpenCode has not made it yet, then the messages and parts and the session row inserted. Run by
 * register.ts on the calling thread, or by commit-thread.ts on a worker fed the rows as they are made
 * (lib/store/batched-write.ts): so it takes only plain data.
 */
import type { DatabaseSync } from "node:sqlite";
import { RefusedError } from "../../errors.ts";
import { refuse } from "../refuse.ts";
import { immediateTransaction, insertRow, type Row, type RowRun } from "../../store/sqlite.ts";
import type { Feedback } from "../../io/progress.ts";

/** The project OpenCode files a directory outside any repository it knows under (worktree `/`). */
export const GLOBAL_PROJECT = { id: "global", worktree: "/" };

/** What the write is, besides its rows. */
export interface OpenCodeJob {
  id: string;
  database: string;
  force: boolean;
  /** The project the session's row references (see ensureProject). */
  projectId: string;
}

/** A batch of rows for the worker: its messages' and its parts', each table's in order. */
export interface TableRuns {
  message: RowRun[];
  part: RowRun[];
}

/** The messages and parts inserted. */
export interface Inserted {
  message: number;
  part: number;
}

/** How the write went: whether it replaced a session, and the rows it inserted. */
export interface CommitOutcome {
  replaced: boolean;
  inserted: Inserted;
}

/**
 * The write, in one `BEGIN IMMEDIATE` transaction: `insertRows` inserts the messages and parts (however they
 * are made); `sessionRow` is asked for the session's row after them, since its sums and last time come from
 * them. Foreign keys are checked at the commit, when the session a message names is in.
 */
export async function commitOpenCode(
  db: DatabaseSync,
  { id, database, force, projectId }: OpenCodeJob,
  insertRows: () => Promise<Inserted>,
  sessionRow: () => Row,
  feedback?: Feedback,
): Promise<CommitOutcome> {
  return await immediateTransaction(db, async () => {
    const refusal = clashRefusal(db, database, id, force);
    if (refusal) throw new RefusedError(refusal);
    const replaced = sessionExists(db, id);
    if (replaced) removeSession(db, id);
    ensureProject(db, projectId);
    db.exec("PRAGMA defer_foreign_keys = ON");
    const inserted = await insertRows();
    insertRow(db, "session", sessionRow());
    return { replaced, inserted };
  }, feedback);
}

export const sessionExists = (db: DatabaseSync, id: string): boolean =>
  !!db.prepare("SELECT 1 FROM session WHERE id = ?").get(id);

/** Why the id cannot be written, if it cannot: taken (without --force), or the parent of other sessions. */
export function clashRefusal(
  db: DatabaseSync,
  database: string,
  id: string,
  force: boolean,
): string | undefined {
  if (!sessionExists(db, id)) return undefined;
  if (!force) return refuse.exists(id, database).message;
  // A subagent's or a fork's session points at it: replacing it would orphan them.
  const child = db.prepare("SELECT id FROM session WHERE parent_id = ? LIMIT 1").get(id) as Row | undefined;
  return child
    ? `session ${id} has child session ${
      String(child.id)
    } (a subagent or a fork), so --force cannot replace ` +
      `it; pass another --session-id`
    : undefined;
}

/** The session --force replaces, with its messages, parts and OpenCode's log of it. */
function removeSession(db: DatabaseSync, id: string): void {
  db.prepare("DELETE FROM part WHERE session_id = ?").run(id);
  db.prepare("DELETE FROM message WHERE session_id = ?").run(id);
  db.prepare("DELETE FROM event WHERE aggregate_id = ?").run(id);
  db.prepare("DELETE FROM event_sequence WHERE aggregate_id = ?").run(id);
  db.prepare("DELETE FROM session WHERE id = ?").run(id);
}

/**
 * The `global` project row, when OpenCode has not made it yet (it makes it the first time it runs outside a
 * repository): the session's row references it. It is OpenCode's own, shared by every such session, so undo
 * leaves it (deleting a project deletes its sessions).
 */
function ensureProject(db: DatabaseSync, projectId: string): void {
  if (projectId !== GLOBAL_PROJECT.id) return;
  const now = Date.now();
  db.prepare(
    "INSERT OR IGNORE INTO project (id, worktree, time_created, time_updated, sandboxes) VALUES (?, ?, ?, ?, '[]')",
  ).run(GLOBAL_PROJECT.id, GLOBAL_PROJECT.worktree, now, now);
}
