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
import { InputError, RefusedError } from "../../errors.ts";
import {
  immediateTransaction,
  insertRow,
  onlineBackup,
  openForWrite,
  openReadOnly,
  type Row,
  type StagedRow,
  stageTables,
  tableColumns,
} from "../../store/sqlite.ts";
import { inBatches, moveStaged } from "../../store/row-batches.ts";
import { isLink } from "../../io/links.ts";
import { startProgress } from "../../io/progress.ts";
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

/** The project OpenCode files a directory outside any repository it knows under (worktree `/`). */
const GLOBAL_PROJECT = { id: "global", worktree: "/" };

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

const sessionExists = (db: DatabaseSync, id: string): boolean =>
  !!db.prepare("SELECT 1 FROM session WHERE id = ?").get(id);

/** Why the id cannot be written, if it cannot: taken (without --force), or the parent of other sessions. */
function clashRefusal(db: DatabaseSync, database: string, id: string, force: boolean): string | undefined {
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
 * The rows are made as the thread is read, and staged in temp tables (SQLite holds them, not memory), messages
 * and parts in one pass; then, in one transaction, what --force replaces goes, and the session, its messages and
 * its parts go in.
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
    const step = startProgress(feedback, `preparing rows for ${database}`, "rows");
    const { message: stagedMessages, part: parts } = await stageTables(
      db,
      ["message", "part"],
      messageRows(encoded.messages),
      (row) => row.names === MESSAGE_NAMES ? "message" : "part",
      (n) => {
        if (n % PROGRESS_ROWS === 0) step.advance(n);
      },
    ).finally(() => step.finish());
    const replaced = await immediateTransaction(db, async () => {
      // Checked again under the write lock: a running OpenCode may have taken the id since planning.
      const refusal = clashRefusal(db, database, id, force);
      if (refusal) throw new RefusedError(refusal);
      const taken = sessionExists(db, id);
      if (taken) removeSession(db, id);
      ensureProject(db, planned.settings);
      insertRow(db, "session", { ...encoded.session() });
      await inBatches(
        `registering messages in ${database}`,
        stagedMessages.count,
        moveStaged(db, stagedMessages),
        feedback,
      );
      await inBatches(`registering parts in ${database}`, parts.count, moveStaged(db, parts), feedback);
      return taken;
    }, feedback);
    const saved = replaced ? { restoreFrom: backups[0]! } : {};
    const counts: Record<string, number> = { part: parts.count, message: stagedMessages.count, session: 1 };
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

/** Each message's row, then its parts', as staged rows (told apart by their column names). */
async function* messageRows(encoded: AsyncIterable<EncodedMessage>): AsyncGenerator<StagedRow> {
  for await (const { message, parts } of encoded) {
    yield { names: MESSAGE_NAMES, values: MESSAGE_NAMES.map((n) => message[n]) };
    for (const part of parts) yield { names: PART_NAMES, values: PART_NAMES.map((n) => part[n]) };
  }
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
function ensureProject(db: DatabaseSync, settings: EncodeSettings): void {
  if (settings.projectId !== GLOBAL_PROJECT.id) return;
  const now = Date.now();
  db.prepare(
    "INSERT OR IGNORE INTO project (id, worktree, time_created, time_updated, sandboxes) VALUES (?, ?, ?, ?, '[]')",
  ).run(GLOBAL_PROJECT.id, GLOBAL_PROJECT.worktree, now, now);
}
