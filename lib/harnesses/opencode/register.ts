/**
 * Handoff into OpenCode: a `session` row and its `message` and `part` rows in the `opencode.db` of the data
 * folder, so `opencode session list` (run in the session's directory) shows it and `opencode --session <id>`
 * sends the model every earlier part, once, in order (both checked on 1.18.33: docs/harnesses/opencode.md,
 * "Writing a session"). These are the tables OpenCode reads a session from; its `event` log is a record of
 * what it projected into them, not read back, and it starts the log of a session written here at sequence 0
 * when it first continues it. That is also all its own `opencode import` writes (row by row, outside any
 * transaction, moving the session to the directory it is run in and stamping every part with the time of the
 * import), so the rows are written directly, as the import would, in one transaction with undo.
 *
 * Planning only reads the database, refusing a migration set session-bridge does not know (schema-version.ts),
 * a taken id (without --force) and a database locked past the wait; committing takes an online backup, stages
 * the rows, then in one `BEGIN IMMEDIATE` transaction inserts the session, its messages and their parts.
 */
import { existsSync } from "node:fs";
import type { DatabaseSync } from "node:sqlite";
import type { SessionHead, SessionStream } from "../../ir/stream.ts";
import type { ReportEntry } from "../../report/report.ts";
import { reportEntry } from "../../report/entry.ts";
import type { CommitOptions, HandoffPlan, PlanPreview, RenderOptions } from "../types.ts";
import { type Committed, handoffPlan, refusedPlan } from "../plan.ts";
import { refuse, targetStoreRefusal } from "../refuse.ts";
import { InputError } from "../../errors.ts";
import {
  onlineBackup,
  openForWrite,
  openReadOnly,
  type Row,
  rowRuns,
  type StagedRow,
  stageTables,
  tableColumns,
} from "../../store/sqlite.ts";
import { inBatches, moveStaged } from "../../store/row-batches.ts";
import { isLink } from "../../io/links.ts";
import { type Feedback, startProgress } from "../../io/progress.ts";
import { writeBatched } from "../../store/batched-write.ts";
import {
  clashRefusal,
  commitOpenCode,
  type CommitOutcome,
  GLOBAL_PROJECT,
  type Inserted,
  type OpenCodeJob,
  sessionExists,
  type TableRuns,
} from "./commit.ts";
import type { KeyedRows } from "../../store/rows.ts";
import { checkOpenCodeSessionId } from "./ids.ts";
import { knownSchema } from "./schema-version.ts";
import { openCodeDatabase, resumeOpenCode } from "./resume.ts";
import { type EncodedMessage, encodeOpenCode, type EncodeSettings, type ModelRef } from "./encode.ts";

/** The tables a session is rows of, with the columns the rows fill (1.18.33's). */
const TABLES = {
  session: [
    "id",
    "project_id",
    "workspace_id",
    "parent_id",
    "slug",
    "directory",
    "path",
    "title",
    "version",
    "share_url",
    "summary_additions",
    "summary_deletions",
    "summary_files",
    "summary_diffs",
    "metadata",
    "cost",
    "tokens_input",
    "tokens_output",
    "tokens_reasoning",
    "tokens_cache_read",
    "tokens_cache_write",
    "revert",
    "permission",
    "agent",
    "model",
    "time_created",
    "time_updated",
    "time_compacting",
    "time_archived",
  ],
  message: ["id", "session_id", "time_created", "time_updated", "data"],
  part: ["id", "message_id", "session_id", "time_created", "time_updated", "data"],
  project: ["id", "worktree", "time_created", "time_updated", "sandboxes"],
} as const;

/** What commit needs beyond the preview; the rows are made only as the commit reads the thread. */
interface Planned {
  id: string;
  database: string;
  session: SessionStream;
  options: RenderOptions;
  settings: EncodeSettings;
}

export function planOpenCode(
  session: SessionStream,
  options: RenderOptions,
  home: string,
  force: boolean,
): HandoffPlan {
  checkOpenCodeSessionId(options.id);
  const database = openCodeDatabase(home);
  const model = chooseModel(session, options);
  const plan: PlanPreview = {
    harness: "opencode",
    id: options.id,
    path: `${database}#${options.id}`,
    cwd: options.cwd,
    files: [],
    databases: [database],
    // The rows name the model: OpenCode continues on the model of the session's last prompt, so no flag.
    resumeCommand: resumeOpenCode({ id: options.id, cwd: options.cwd, home, env: options.env ?? {} }),
    notes: model.notes,
    rows: sessionRows(database, options.id),
  };
  if (!existsSync(database)) return refusedPlan(plan, refuse.noStore("OpenCode", home, "opencode").message);
  if (isLink(database)) return refusedPlan(plan, refuse.linked(database).message);
  let fitted: Fitted;
  try {
    fitted = fitToStore(database, options, force);
  } catch (error) {
    // Damaged, not OpenCode's, or of a schema these rows are not made for: the store refuses (exit 1).
    return refusedPlan(plan, targetStoreRefusal(database, error).message);
  }
  plan.notes!.push(...fitted.notes);
  if (fitted.refusal) return refusedPlan(plan, fitted.refusal);
  const planned: Planned = {
    id: options.id,
    database,
    session,
    options,
    settings: { ...fitted.project, version: fitted.version, model: model.ref },
  };
  return handoffPlan(plan, (commit) => insertSession(planned, commit));
}

/**
 * The rows a handoff changes, as the write-ahead intent and the undo ledger name them. Undo deletes (and, after
 * --force, restores) in this order: the session first, since deleting it deletes its messages and their parts
 * (OpenCode's foreign keys cascade), which a restore of them must come after. The session's events are
 * OpenCode's log of its own work on it: none at commit, so events found at undo show it was continued since.
 */
const sessionRows = (database: string, id: string): KeyedRows[] => [
  { database, table: "session", key: { id } },
  { database, table: "message", key: { session_id: id } },
  { database, table: "part", key: { session_id: id } },
  { database, table: "event_sequence", key: { aggregate_id: id } },
  { database, table: "event", key: { aggregate_id: id } },
];

interface Fitted {
  version: string;
  project: Pick<EncodeSettings, "projectId" | "worktree">;
  notes: ReportEntry[];
  refusal?: string;
}

/** The database checked read-only: its schema, its tables' columns, the project of the cwd, the id's clash. */
function fitToStore(database: string, options: RenderOptions, force: boolean): Fitted {
  const db = openReadOnly(database);
  try {
    const schema = knownSchema(db, database);
    checkColumns(db, database);
    const project = projectOf(db, options.cwd);
    const refusal = clashRefusal(db, database, options.id, force);
    const notes = force && sessionExists(db, options.id)
      ? [reportEntry(
        "opencode-session-replaced",
        "warning",
        `--force: session ${options.id}, its messages and parts are replaced (backed up first; ` +
          `session-bridge undo puts them back)`,
        { examples: [options.id] },
      )]
      : [];
    return { version: schema.version, project, notes, ...(refusal ? { refusal } : {}) };
  } finally {
    db.close();
  }
}

/** A known migration set has these columns; checked anyway, so a hand-altered database is refused clearly. */
function checkColumns(db: DatabaseSync, database: string): void {
  for (const [table, wanted] of Object.entries(TABLES)) {
    const have = new Set(tableColumns(db, table).map((c) => c.name));
    // Worded as every harness's writer refuses a database that is not its own (tests/refusal-policy.test.ts).
    if (!have.size) throw new InputError(`${database}: no table ${table} (not an OpenCode state database)`);
    const missing = wanted.find((c) => !have.has(c));
    if (missing) throw new InputError(`${database}: missing column ${table}.${missing}`);
  }
}

/**
 * The project OpenCode files `cwd` under: the one it recorded the directory for, else the repository it knows
 * holding it (the longest worktree that contains it), else `global`. A directory in a repository OpenCode has
 * not opened yet goes to `global`: OpenCode moves a `global` session of its directory into the repository's
 * project when it starts there (its project discovery, 1.18.33).
 */
function projectOf(db: DatabaseSync, cwd: string): Pick<EncodeSettings, "projectId" | "worktree"> {
  const known = db.prepare(
    "SELECT p.id AS id, p.worktree AS worktree FROM project_directory d JOIN project p ON p.id = d.project_id " +
      "WHERE d.directory = ? AND p.id <> ?",
  ).get(cwd, GLOBAL_PROJECT.id) as Row | undefined;
  if (known) return { projectId: String(known.id), worktree: String(known.worktree) };
  const holding =
    (db.prepare("SELECT id, worktree FROM project WHERE id <> ?").all(GLOBAL_PROJECT.id) as Row[])
      .filter((p) => typeof p.worktree === "string" && p.worktree !== "/" && within(cwd, p.worktree))
      .reduce<Row | undefined>(
        (best, p) => (String(p.worktree).length > String(best?.worktree ?? "").length ? p : best),
        undefined,
      );
  return holding
    ? { projectId: String(holding.id), worktree: String(holding.worktree) }
    : { projectId: GLOBAL_PROJECT.id, worktree: GLOBAL_PROJECT.worktree };
}

const within = (dir: string, root: string): boolean => dir === root || dir.startsWith(`${root}/`);

export interface ModelChoice {
  ref: ModelRef;
  notes: ReportEntry[];
}

/** Providers OpenCode names models of by their ids' families, for a model named without its provider. */
const PROVIDER_OF: readonly [RegExp, string][] = [
  [/^claude-/, "anthropic"],
  [/^(gpt-|o\d|codex-)/, "openai"],
  [/^gemini-/, "google"],
];

/**
 * The model the rows name: the one chosen for the target (`provider/model`, as OpenCode's --model takes it),
 * else the session's last, with its provider when its id shows it.
 */
export function chooseModel(session: SessionHead, options: RenderOptions): ModelChoice {
  const wanted = options.model ?? session.meta.models.at(-1) ?? "";
  const slash = wanted.indexOf("/");
  if (slash > 0) {
    return { ref: { providerID: wanted.slice(0, slash), modelID: wanted.slice(slash + 1) }, notes: [] };
  }
  const provider = PROVIDER_OF.find(([family]) => family.test(wanted))?.[1];
  const ref = { providerID: provider ?? session.meta.provider ?? "unknown", modelID: wanted || "unknown" };
  return {
    ref,
    notes: [reportEntry(
      "opencode-model",
      "warning",
      `OpenCode continues on ${ref.providerID}/${ref.modelID} (the model the session's last prompt names); ` +
        `if that provider is not configured there, hand off again with --model <provider>/<model>`,
    )],
  };
}

/** How many parts are staged between two progress updates. */
const PROGRESS_ROWS = 256;

const MESSAGE_NAMES = TABLES.message;
const PART_NAMES = TABLES.part;

/**
 * Rows a batch to the worker holds, messages and parts together, and so the fewest a session has before one is
 * started (lib/store/batched-write.ts).
 */
const BATCH_ROWS = 4096;

/** The worker's module, from the repository's root (lib/runtime.ts startModuleWorker). */
const COMMIT_THREAD = "lib/harnesses/opencode/commit-thread.ts";

/**
 * The rows are made as the thread is read. A short session's are staged in temp tables (SQLite holds them, not
 * memory), messages and parts in one pass, before the write lock is taken; a long one's are inserted by a
 * worker thread holding the lock a batch at a time while this thread makes the next (commit-thread.ts). Then,
 * in one transaction (commit.ts), what --force replaces goes, and the messages, the parts and the session go in.
 */
async function insertSession(
  planned: Planned,
  { backup, force, backupFolder, feedback }: CommitOptions,
): Promise<Committed> {
  const { id, database } = planned;
  const db = openForWrite(database);
  try {
    knownSchema(db, database);
    // Replacing needs the backup even under --no-backup: undo restores the replaced rows from it.
    const replacing = force && sessionExists(db, id);
    const backups = backup || replacing
      ? [await onlineBackup(db, backupFolder, "opencode.db", feedback)]
      : [];
    const encoded = encodeOpenCode(planned.session, planned.options, planned.settings);
    const job: OpenCodeJob = { id, database, force, projectId: planned.settings.projectId };
    const sessionRow = (): Row => ({ ...encoded.session() });
    const env = planned.options.env;
    const { replaced, inserted } = await writeBatched<StagedRow, OpenCodeJob, TableRuns, Row, CommitOutcome>(
      messageRows(encoded.messages),
      {
        entry: COMMIT_THREAD,
        setup: job,
        batchRows: BATCH_ROWS,
        batchOf: (rows) => ({
          message: rowRuns(rows.filter((r) => r.names === MESSAGE_NAMES)),
          part: rowRuns(rows.filter((r) => r.names === PART_NAMES)),
        }),
        last: sessionRow,
        here: (rows) => commitHere(db, job, rows, sessionRow, feedback),
      },
      { ...(env ? { env } : {}), ...(feedback ? { feedback } : {}) },
    );
    const saved = replaced ? { restoreFrom: backups[0]! } : {};
    const counts: Record<string, number> = { ...inserted, session: 1 };
    return {
      written: [],
      rows: sessionRows(database, id).map((r) => ({ ...r, count: counts[r.table] ?? 0, ...saved })),
      backups,
      replaced: [],
    };
  } finally {
    db.close();
  }
}

/** On this thread: the rows staged first, messages and parts apart, then moved under the lock. */
async function commitHere(
  db: DatabaseSync,
  job: OpenCodeJob,
  rows: AsyncIterable<StagedRow>,
  sessionRow: () => Row,
  feedback: Feedback | undefined,
): Promise<CommitOutcome> {
  const step = startProgress(feedback, `preparing rows for ${job.database}`, "rows");
  const { message: messages, part: parts } = await stageTables(
    db,
    ["message", "part"],
    rows,
    (row) => row.names === MESSAGE_NAMES ? "message" : "part",
    (n) => {
      if (n % PROGRESS_ROWS === 0) step.advance(n);
    },
  ).finally(() => step.finish());
  const insertRows = async (): Promise<Inserted> => {
    await inBatches(
      `registering messages in ${job.database}`,
      messages.count,
      moveStaged(db, messages),
      feedback,
    );
    await inBatches(`registering parts in ${job.database}`, parts.count, moveStaged(db, parts), feedback);
    return { message: messages.count, part: parts.count };
  };
  return await commitOpenCode(db, job, insertRows, sessionRow, feedback);
}

/** Each message's row, then its parts', as staged rows (told apart by their column names). */
async function* messageRows(encoded: AsyncIterable<EncodedMessage>): AsyncGenerator<StagedRow> {
  for await (const { message, parts } of encoded) {
    yield { names: MESSAGE_NAMES, values: MESSAGE_NAMES.map((n) => message[n]) };
    for (const part of parts) yield { names: PART_NAMES, values: PART_NAMES.map((n) => part[n]) };
  }
}
