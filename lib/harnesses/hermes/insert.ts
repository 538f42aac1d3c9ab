/**
 * A planned handoff's rows into `state.db`. A short session is written on this thread, as it always was: its
 * rows are made as the thread is read and staged in a temp table (SQLite holds them, not we) before the write
 * lock is taken; then one transaction (commit.ts) moves them in a few large batches. A long one, whose rows
 * Hermes's full-text triggers take seconds to index, is written by a worker thread (commit-thread.ts, through
 * lib/store/batched-write.ts) that takes the lock and inserts each batch of rows while this thread makes the
 * next, so making them is hidden behind the indexing. Both end in the same rows.
 */
import { dirname } from "node:path";
import type { SessionStream } from "../../ir/stream.ts";
import type { CommitOptions, RenderOptions } from "../types.ts";
import type { Committed } from "../plan.ts";
import { RefusedError } from "../../errors.ts";
import { openForWrite, type Row, type RowRun, rowRuns, stageRows } from "../../store/sqlite.ts";
import { inBatches, moveStaged } from "../../store/row-batches.ts";
import { writeBatched } from "../../store/batched-write.ts";
import { type Feedback, startProgress } from "../../io/progress.ts";
import { type StoreColumns, storeColumns } from "./database.ts";
import { type ExportedMessage, storedForm, type StoredMessage } from "./rows.ts";
import { targetRows, type TargetSettings } from "./target.ts";
import type { HermesSource } from "./source.ts";
import { type CommitJob, type CommitOutcome, commitSession } from "./commit.ts";
import { gatewayRefusal } from "./gateway.ts";

/**
 * What commit needs beyond the preview: the database, and what the rows are made from. The rows themselves
 * are made only as the commit reads the thread, so a plan holds none of them.
 */
export interface Planned {
  id: string;
  database: string;
  title: string | undefined;
  /** The title is the source's own, not one asked for: when taken, it is numbered (see lineageTitle). */
  lineage: boolean;
  session: SessionStream;
  options: RenderOptions;
  settings: TargetSettings;
  source: HermesSource | undefined;
}

/** How many rows are staged between two progress updates. */
const PROGRESS_ROWS = 256;

/**
 * Rows a batch to the worker holds, and so the fewest a session has before one is started: as many as one
 * statement of moveStaged inserts at least (FTS5 indexes a statement's rows at once), and far more than a
 * thread's start (a few milliseconds) is worth.
 */
const BATCH_ROWS = 4096;

/** The worker's module, from the repository's root (lib/runtime.ts startModuleWorker). */
const COMMIT_THREAD = "lib/harnesses/hermes/commit-thread.ts";

export async function insertSession(
  planned: Planned,
  { backup, force, backupFolder, feedback }: CommitOptions,
): Promise<Committed> {
  const { id, database } = planned;
  // Looked at again: a gateway started since planning is the one writer now.
  const gateway = gatewayRefusal(dirname(database), planned.options.env ?? {});
  if (gateway) throw new RefusedError(gateway);
  const job: CommitJob = {
    id,
    database,
    title: planned.title,
    lineage: planned.lineage,
    force,
    backup,
    backupFolder,
  };
  const columns = columnsOf(database);
  const rows = targetRows(planned.session, planned.options, planned.settings, planned.source);
  const sessionRow = () => only(rows.session(), columns.sessions);
  const { clash, backups, messages } = await writeBatched<
    StoredMessage,
    CommitJob,
    RowRun[],
    Row,
    CommitOutcome
  >(
    storedRows(rows.messages, columns),
    {
      entry: COMMIT_THREAD,
      setup: job,
      batchRows: BATCH_ROWS,
      batchOf: rowRuns,
      last: sessionRow,
      here: (all) => commitHere(job, all, sessionRow, feedback),
    },
    { ...(planned.options.env ? { env: planned.options.env } : {}), ...(feedback ? { feedback } : {}) },
  );
  // What undo restores from the backup: the replaced session's rows, the title's previous holder.
  const saved = clash.takenId || clash.titleOwner ? { restoreFrom: backups[0]! } : {};
  return {
    written: [],
    // Messages first: undo deletes in this order, and messages reference their session.
    rows: [
      {
        database,
        table: "messages",
        key: { session_id: id },
        count: messages,
        ...(clash.takenId ? saved : {}),
      },
      { database, table: "sessions", key: { id: id }, ...(clash.takenId ? saved : {}) },
      ...(clash.titleOwner
        ? [{ database, table: "sessions", key: { id: clash.titleOwner }, count: 1, ...saved }]
        : []),
    ],
    backups,
    replaced: [],
  };
}

/** The columns this database's tables have (its schema generation's). */
function columnsOf(database: string): StoreColumns {
  // Opened as the write will open it: a store that cannot be (a full disk where its WAL index must grow) is
  // refused here with the same words, before a row is made.
  const db = openForWrite(database);
  try {
    return storeColumns(db, database);
  } finally {
    db.close();
  }
}

/** On this thread: the rows staged first, then written under the lock. */
async function commitHere(
  job: CommitJob,
  rows: AsyncIterable<StoredMessage>,
  sessionRow: () => Row,
  feedback: Feedback | undefined,
): Promise<CommitOutcome> {
  const db = openForWrite(job.database);
  try {
    const step = startProgress(feedback, `preparing rows for ${job.database}`, "rows");
    const staged = await stageRows(db, "messages", rows, (n) => {
      if (n % PROGRESS_ROWS === 0) step.advance(n);
    }).finally(() => step.finish());
    const move = () =>
      inBatches(`registering in ${job.database}`, staged.count, moveStaged(db, staged), feedback);
    return await commitSession(db, job, move, sessionRow, feedback);
  } finally {
    db.close();
  }
}

/** The rows in column form, for the columns this database has; one without `active` keeps the live ones. */
async function* storedRows(
  messages: AsyncIterable<ExportedMessage>,
  columns: StoreColumns,
): AsyncGenerator<StoredMessage> {
  const stored = storedForm(columns.messages);
  for await (const m of messages) {
    if (m.active === 1 || columns.messages.has("active")) yield stored(m);
  }
}

/** The row's values for the columns this database has (an older generation has fewer). */
function only(row: object, columns: Set<string>): Row {
  const kept: Row = {};
  for (const name in row) if (columns.has(name)) kept[name] = (row as Row)[name];
  return kept;
}
