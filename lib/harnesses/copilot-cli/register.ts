/**
 * Handoff into GitHub Copilot CLI: the session folder `<home>/session-state/<id>/` with its `events.jsonl`
 * (encode.ts) and `workspace.yaml` (workspace-file.ts), and the session's rows in the global index
 * `session-store.db` (session-index.ts) when the home has one. Then `copilot --resume=<id>` sends the model every
 * earlier part once, in order, and the session list shows it with its name and location (checked on 1.0.102:
 * docs/harnesses/copilot-cli.md, "Writing a session").
 *
 * Written directly, not through Copilot's own door, `copilot sessions import`: the import picks a random id of
 * its own (no --session-id, so nothing to refuse or undo by id), gives every tool call a new id, stamps every
 * event with the time of the import (the session then looks active now), keeps no reasoning and writes no
 * index rows (measured on the binary; the page above has the table).
 *
 * Planning only reads. Committing takes an online backup of the index, publishes the two files (only --force
 * replaces them, saved first), then inserts the rows in one immediate transaction; if that fails, the files
 * are taken back, so nothing is half-written. A long session's rows are inserted by a worker thread while the
 * events are written (index-thread.ts), its transaction committed once they are.
 */
import { existsSync, readdirSync, rmdirSync, unlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import type { SessionStream } from "../../ir/stream.ts";
import type { CommitOptions, HandoffPlan, PlannedFile, PlanPreview, RenderOptions } from "../types.ts";
import type { ReportEntry } from "../../report/report.ts";
import { reportEntry } from "../../report/entry.ts";
import { type Committed, handoffPlan, refusedPlan } from "../plan.ts";
import { publishPlannedFiles } from "../publish.ts";
import { refuse, targetStoreRefusal } from "../refuse.ts";
import { copyIntoPlace } from "../../io/publish.ts";
import { entryPresent, isLink } from "../../io/links.ts";
import { onlineBackup, openForWrite, openReadOnly } from "../../store/sqlite.ts";
import { BatchedSends, startWriteThread, wantsThread } from "../../store/write-thread.ts";
import { compactedHistory } from "../../ir/compacted.ts";
import { copilotSessionState } from "./home.ts";
import { checkCopilotSessionId } from "./ids.ts";
import { resumeCopilot } from "./resume.ts";
import { type EncodedSummary, type IndexedTurn, newSummary, sessionStart } from "./encode.ts";
import { commitIndexed, type IndexJob } from "./index-commit.ts";
import { spillRecords } from "../../ir/spill.ts";
import { renderCopilot } from "./render.ts";
import { workspaceName, workspaceText } from "./workspace-file.ts";
import {
  checkIndex,
  type IndexedCounts,
  indexedSession,
  type IndexedSessionRow,
  indexRows,
  insertIndexed,
  sessionIndexPath,
} from "./session-index.ts";

export function planCopilot(
  session: SessionStream,
  options: RenderOptions,
  home: string,
  force: boolean,
): HandoffPlan {
  const id = checkCopilotSessionId(options.id);
  const folder = join(copilotSessionState(home), id);
  const database = sessionIndexPath(home);
  const indexed = existsSync(database) || isLink(database);
  const notes: ReportEntry[] = [];
  const preview: PlanPreview = {
    harness: "copilot-cli",
    id,
    path: join(folder, "events.jsonl"),
    cwd: options.cwd,
    files: [join(folder, "events.jsonl"), join(folder, "workspace.yaml")],
    databases: indexed ? [database] : [],
    resumeCommand: resumeCopilot({
      id,
      cwd: options.cwd,
      home,
      env: options.env ?? {},
      ...(options.posture ? { posture: options.posture } : {}),
    }),
    notes,
    ...(indexed ? { rows: indexRows(database, id) } : {}),
  };
  if (!indexed) {
    notes.push(reportEntry(
      "copilot-no-session-store",
      "info",
      `${home} has no session-store.db yet: the session list and --resume read the session folder; ` +
        "Copilot indexes it for /chronicle and search once it makes its store (/chronicle reindex)",
    ));
  }
  let taken = false;
  if (indexed) {
    if (isLink(database)) return refusedPlan(preview, refuse.linked(database).message);
    try {
      taken = readIndex(database, (db) => indexedSession(db, id));
    } catch (error) {
      return refusedPlan(preview, targetStoreRefusal(database, error).message);
    }
  }
  const where = entryPresent(folder) ? folder : taken ? database : undefined;
  if (where && !force) return refusedPlan(preview, refuse.exists(id, where).message);
  if (where) {
    notes.push(reportEntry(
      "copilot-session-replaced",
      "warning",
      `--force: session ${id}'s events.jsonl, workspace.yaml and index rows are replaced (backed up first; ` +
        "session-bridge undo puts them back); other files of its folder stay",
      { examples: [id] },
    ));
  }
  const summary = newSummary(sessionStart(session, options.now));
  const fields = { id, cwd: options.cwd, summary, ...(options.title ? { title: options.title } : {}) };
  const files: PlannedFile[] = [
    { path: join(folder, "events.jsonl"), lines: () => renderCopilot(session, options, summary) },
    // After the events: made from what writing them gathered.
    { path: join(folder, "workspace.yaml"), lines: () => once(workspaceText(fields).replace(/\n$/, "")) },
  ];
  return handoffPlan(preview, async (commit) => {
    if (!indexed) return await publishPlannedFiles(id, files, commit);
    const row = (): IndexedSessionRow => ({
      id,
      cwd: options.cwd,
      name: workspaceName(fields),
      startTime: summary.startTime,
      updatedAt: summary.updatedAt,
    });
    const job = { id, database, force: commit.force };
    return await publishAndIndex(job, files, summary, row, {
      commit,
      long: isLong(session),
      env: options.env,
    });
  });
}

/**
 * Messages from which a handoff's index rows are written on a worker thread while its events are (as a long
 * handoff's rows into Hermes: lib/harnesses/hermes/insert.ts). Fewer are written after the events, on this
 * thread: a thread's start is not worth it for a few hundred turns.
 */
const LONG_MESSAGES = 4096;

/** Turns a batch to the worker holds. */
const TURN_BATCH = 1024;

/** The worker's module, from the repository's root (lib/runtime.ts startModuleWorker). */
const INDEX_THREAD = "lib/harnesses/copilot-cli/index-thread.ts";

/** A streamed session is long by definition; a held one by its messages, its compacted history's included. */
const isLong = (session: SessionStream): boolean =>
  !Array.isArray(session.messages) ||
  compactedHistory(session).length + session.messages.length >= LONG_MESSAGES;

function readIndex<T>(database: string, read: (db: DatabaseSync) => T): T {
  const db = openReadOnly(database);
  try {
    checkIndex(db, database);
    return read(db);
  } finally {
    db.close();
  }
}

/**
 * The files published, then the index rows inserted in one immediate transaction (index-commit.ts); if that
 * fails, the files are taken back, so nothing is half-written. The index's turns are gathered as the events
 * are written: into a spill file, inserted once the files are out; or, for a long session, sent in batches to a
 * worker thread (index-thread.ts) that holds the write lock and inserts them meanwhile.
 */
async function publishAndIndex(
  job: IndexJob,
  files: PlannedFile[],
  summary: EncodedSummary,
  row: () => IndexedSessionRow,
  { commit, long, env }: { commit: CommitOptions; long: boolean; env: NodeJS.ProcessEnv | undefined },
): Promise<Committed> {
  const { id, database } = job;
  const db = openForWrite(database);
  try {
    checkIndex(db, database);
    const replacing = commit.force && indexedSession(db, id);
    // Replaced rows live only in the database: its backup is taken even under --no-backup, undo restores them.
    const backup = commit.backup || replacing
      ? await onlineBackup(db, commit.backupFolder, "session-store.db", commit.feedback)
      : undefined;
    const folder = dirname(files[0]!.path);
    const madeFolder = !entryPresent(folder);
    const thread = wantsThread(env, long)
      ? await startWriteThread<IndexJob, IndexedTurn[], IndexedSessionRow, IndexedCounts>(INDEX_THREAD, job, {
        ...(env ? { env } : {}),
        ...(commit.feedback ? { feedback: commit.feedback } : {}),
      })
      : undefined;
    const sent = thread && new BatchedSends(thread, TURN_BATCH);
    const spilled = sent ? undefined : spillRecords<IndexedTurn>();
    summary.turns = sent ?? spilled;
    let published: Committed | undefined;
    let counts: IndexedCounts;
    try {
      published = await publishPlannedFiles(id, files, commit);
      counts = sent
        ? await sent.finish(row())
        : await commitIndexed(db, job, () =>
          insertIndexed(db, row(), spilled!.records(spilled!.count)), commit.feedback);
    } catch (error) {
      await thread?.abort();
      if (published) takeBack(published, folder, madeFolder);
      throw error;
    } finally {
      spilled?.close();
    }
    return {
      ...published,
      rows: indexRows(database, id).map((r) => ({
        ...r,
        count: counts[r.table as keyof IndexedCounts] ?? 0,
        ...(replacing && backup ? { restoreFrom: backup } : {}),
      })),
      backups: [...(backup ? [backup] : []), ...published.backups],
    };
  } finally {
    db.close();
  }
}

/** The files a handoff published, taken back after its rows failed: removed, or put back where replaced. */
function takeBack(published: Committed, folder: string, madeFolder: boolean): void {
  for (const path of published.written) unlinkSync(path);
  for (const r of published.replaced) copyIntoPlace(r.backup, r.path);
  if (madeFolder && !readdirSync(folder).length) rmdirSync(folder);
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}
