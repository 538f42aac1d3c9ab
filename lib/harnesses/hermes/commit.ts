/**
 * A handoff's write into Hermes's `state.db`, under the write lock: checked again for what a running Hermes may
 * have changed since planning (the id, the title), the rows it replaces (--force) backed up and removed, then the
 * messages and the sessions row inserted. Run by register.ts on the calling thread, or by commit-thread.ts on a
 * worker fed the rows as they are made (lib/store/write-thread.ts): so it takes only plain data.
 */
import type { DatabaseSync } from "node:sqlite";
import { RefusedError } from "../../errors.ts";
import { refuse } from "../refuse.ts";
import { hasTable, immediateTransaction, insertRow, type Row } from "../../store/sqlite.ts";
import type { ReportEntry } from "../../report/report.ts";
import { reportEntry } from "../../report/entry.ts";
import type { Feedback } from "../../io/progress.ts";
import { deleteInBatches, inBatches } from "../../store/row-batches.ts";
import { type BackedUpRows, backupRows } from "../../store/row-backup.ts";
import { TITLE_MAX } from "./rows.ts";

/** What the write is, besides its rows. */
export interface CommitJob {
  id: string;
  database: string;
  /** The title planned, and whether it is the source's own (then numbered again if taken: lineageTitle). */
  title: string | undefined;
  lineage: boolean;
  force: boolean;
  backup: boolean;
  backupFolder: string;
}

/** How the write went: what was in the way, the backup of what it replaced, the messages inserted. */
export interface CommitOutcome {
  clash: Clash;
  backups: string[];
  messages: number;
}

/**
 * The write, in one `BEGIN IMMEDIATE` transaction: `insertMessages` inserts the messages (however they are
 * made) and returns how many; `sessionRow` is asked for the sessions row after them, since its counts come
 * from the messages. Foreign keys are checked at the commit, when the session a message names is in.
 */
export async function commitSession(
  db: DatabaseSync,
  job: CommitJob,
  insertMessages: () => Promise<number>,
  sessionRow: () => Row,
  feedback?: Feedback,
): Promise<CommitOutcome> {
  const { id, database, force } = job;
  const backups: string[] = [];
  return await immediateTransaction(db, async () => {
    db.exec("PRAGMA defer_foreign_keys = ON");
    // Checked again under the write lock: a running Hermes may have taken the id or title since planning
    // (the source's own title is then numbered again).
    const { title } = lineageTitle(db, id, job);
    const clash = findClash(db, id, title);
    const refusal = refusalOf(db, database, id, title, clash, force);
    if (refusal) throw new RefusedError(refusal);
    // The rows about to be replaced, copied under the write lock (lib/store/row-backup.ts); replacing needs
    // them even under --no-backup: undo restores them from the copy.
    if (job.backup || hasClash(clash)) {
      backups.push(await backupRows(database, job.backupFolder, replacedRows(id, clash), feedback));
    }
    if (clash.takenId) await removeSession(db, database, clash.takenId, feedback);
    if (clash.titleOwner) db.prepare("UPDATE sessions SET title = NULL WHERE id = ?").run(clash.titleOwner);
    // Hermes's full-text triggers make this the long part of a handoff: seconds for a long session.
    const messages = await insertMessages();
    insertRow(db, "sessions", { ...sessionRow(), ...(title ? { title } : {}) });
    return { clash, backups, messages };
  }, feedback);
}

/** What is in the way of the planned id and title: a session with that id, another holding the title. */
export interface Clash {
  /** The id is taken by this session (it is replaced under --force). */
  takenId?: string;
  /** The title is held by this other session (it gives the title up under --force). */
  titleOwner?: string;
  /** Why even --force cannot go ahead. */
  refusal?: string;
}

export function findClash(db: DatabaseSync, id: string, title: string | undefined): Clash {
  const clash: Clash = {};
  if (db.prepare("SELECT 1 FROM sessions WHERE id = ?").get(id)) {
    clash.takenId = id;
    // A compression child points at it: replacing it would orphan the rest of that conversation.
    const child = db.prepare("SELECT id FROM sessions WHERE parent_session_id = ? LIMIT 1").get(id) as
      | Row
      | undefined;
    if (child) {
      clash.refusal = `session ${id} continues in session ${child.id} (compression or branch), so --force ` +
        `cannot replace it; pass another --session-id`;
    }
    const compacting = compressionLease(db, id);
    if (compacting) {
      clash.refusal =
        `Hermes is compacting session ${id} (its compression lock holds until ${compacting}), ` +
        `so --force cannot replace it now; try again once it is done, or pass another --session-id`;
    }
  }
  const owner = title
    ? db.prepare("SELECT id FROM sessions WHERE title = ? AND id <> ?").get(title, id) as Row | undefined
    : undefined;
  if (owner) clash.titleOwner = String(owner.id);
  return clash;
}

/**
 * When the lease Hermes's compaction holds on session `id` ends (ISO 8601), if one holds now: while it does,
 * Hermes rewrites the session's rows and may start its continuation (`try_acquire_compression_lock`, 0.19.0;
 * a lease not renewed by its expiry is taken over, as Hermes takes it over). Stores before the table have none.
 */
function compressionLease(db: DatabaseSync, id: string): string | undefined {
  if (!hasTable(db, "compression_locks")) return undefined;
  const lease = db.prepare("SELECT max(expires_at) AS until FROM compression_locks WHERE session_id = ?")
    .get(id) as { until: number | null };
  if (typeof lease.until !== "number" || lease.until * 1000 < Date.now()) return undefined;
  const until = new Date(lease.until * 1000);
  return Number.isNaN(until.getTime()) ? "a time no date can hold" : until.toISOString();
}

/** Why the session cannot be added as planned, if it cannot: its id or its title is already in use. */
export function refusalOf(
  db: DatabaseSync,
  database: string,
  id: string,
  title: string | undefined,
  clash: Clash,
  force: boolean,
): string | undefined {
  if (clash.refusal) return clash.refusal;
  if (force) return undefined;
  if (clash.takenId) {
    return refuse.exists(id, database).message;
  }
  if (clash.titleOwner) {
    return `title ${
      JSON.stringify(title)
    } is taken by session ${clash.titleOwner} in ${database} (Hermes titles are ` +
      `unique); pass --title ${
        JSON.stringify(nextTitle(db, title!))
      }, or --force to move the title to this session`;
  }
  return undefined;
}

/**
 * The title a session is stored with. One the user asked for is kept (a taken one is refused, as Hermes's own
 * `/title` refuses it); the source's own title, taken (the same session handed off again, a copy beside its
 * original), becomes its lineage's next, as Hermes titles a continued session (`get_next_title_in_lineage`).
 */
export function lineageTitle(
  db: DatabaseSync,
  id: string,
  { title, lineage }: { title: string | undefined; lineage: boolean },
): { title: string | undefined; note: ReportEntry[] } {
  // The session `id` replaces (under --force) gives its title up with its row.
  const holder = lineage && title
    ? db.prepare("SELECT id FROM sessions WHERE title = ? AND id <> ?").get(title, id) as Row | undefined
    : undefined;
  if (!holder) return { title, note: [] };
  const numbered = nextTitle(db, title!);
  return {
    title: numbered,
    note: [reportEntry(
      "title-numbered",
      "info",
      `title stored as ${JSON.stringify(numbered)}: session ${holder.id} holds ${
        JSON.stringify(title)
      } (Hermes numbers the titles of a lineage so)`,
      { examples: [String(holder.id)] },
    )],
  };
}

/** The next free title of a lineage, as Hermes numbers them (`title`, `title #2`, ...). */
function nextTitle(db: DatabaseSync, title: string): string {
  const base = /^(.*?) #(\d+)$/.exec(title)?.[1] ?? title;
  const escaped = base.replace(/[\\%_]/g, (c) => `\\${c}`);
  const taken = db.prepare("SELECT title FROM sessions WHERE title = ? OR title LIKE ? ESCAPE '\\'")
    .all(base, `${escaped} #%`) as { title: string }[];
  const highest = Math.max(1, ...taken.map((t) => Number(/ #(\d+)$/.exec(t.title)?.[1] ?? 1)));
  const suffix = ` #${highest + 1}`;
  return `${[...base].slice(0, TITLE_MAX - suffix.length).join("")}${suffix}`;
}

/** Deletes the session `id` replaces (under --force), its messages a batch at a time, saying how far it is. */
async function removeSession(
  db: DatabaseSync,
  database: string,
  id: string,
  feedback?: Feedback,
): Promise<void> {
  const rows = db.prepare("SELECT count(*) AS n FROM messages WHERE session_id = ?").get(id) as { n: number };
  const what = `removing the replaced session's rows from ${database}`;
  await inBatches(what, rows.n, deleteInBatches(db, "messages", `"session_id" = ?`, [id], rows.n), feedback);
  db.prepare("DELETE FROM sessions WHERE id = ?").run(id);
}

const hasClash = (clash: Clash): boolean => !!(clash.takenId || clash.titleOwner);

/** The rows a handoff of `id` replaces: a session of that id with its messages, the title's holder. */
function replacedRows(id: string, clash: Clash): BackedUpRows[] {
  return [
    { table: "messages", key: { session_id: id } },
    { table: "sessions", key: { id } },
    ...(clash.titleOwner ? [{ table: "sessions", key: { id: clash.titleOwner } }] : []),
  ];
}
