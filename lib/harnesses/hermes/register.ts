/**
 * Handoff into Hermes: a `sessions` row and its `messages` rows in the `state.db` of the home a plain `hermes`
 * runs in, so `hermes sessions list` shows the session and `hermes chat --resume <id>` loads its history.
 * Planning only reads the database (and refuses here, so a refused handoff leaves it byte-identical);
 * registering inserts everything in one short `BEGIN IMMEDIATE` transaction with retries, since a running
 * Hermes holds the database open, after copying the rows it replaces (none unless `--force`) into a backup of
 * their own (lib/store/row-backup.ts), never the whole database. Inserting through Hermes's own triggers keeps
 * its full-text indexes (`messages_fts`, `messages_fts_trigram`) in step.
 */
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import type { SessionHead, SessionStream } from "../../ir/stream.ts";
import type { ReportEntry } from "../../report/report.ts";
import { reportEntry } from "../../report/entry.ts";
import type { CommitOptions, HandoffPlan, PlanPreview, RenderOptions } from "../types.ts";
import { type Committed, handoffPlan, refusedPlan } from "../plan.ts";
import { refuse, targetStoreRefusal } from "../refuse.ts";
import { InputError, RefusedError } from "../../errors.ts";
import { resumeHermes } from "./resume.ts";
import {
  hasTable,
  immediateTransaction,
  insertRow,
  openForWrite,
  openReadOnly,
  type Row,
  stageRows,
  tableColumns,
} from "../../store/sqlite.ts";
import { uncarriedByCopy } from "./carried.ts";
import { configuredModel } from "./config.ts";
import { type StoreColumns, storeColumns, type StoreShape, storeShape } from "./database.ts";
import { type ExportedMessage, hermesTitle, storedForm, type StoredMessage, TITLE_MAX } from "./rows.ts";
import { activeHome, configPath, type HermesHome, sessionLocator, stateDbPath } from "./profiles.ts";
import { keptSystemPrompt, targetRows, type TargetSettings } from "./target.ts";
import { type HermesSource, sameHarnessSource } from "./source.ts";
import { compactedHistory } from "../../ir/compacted.ts";
import { setAsideCount } from "./copy.ts";
import { checkHermesId } from "./ids.ts";
import { type Feedback, startProgress } from "../../io/progress.ts";
import { deleteInBatches, inBatches, moveStaged } from "../../store/row-batches.ts";
import { isLink } from "../../io/links.ts";
import { type BackedUpRows, backupRows } from "../../store/row-backup.ts";
import { gatewayRefusal } from "./gateway.ts";

/**
 * What commit needs beyond the preview: the database, and what the rows are made from. The rows themselves
 * are made only as the commit reads the thread, so a plan holds none of them.
 */
interface Planned {
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

export async function planHermes(
  session: SessionStream,
  options: RenderOptions,
  hermesHome: string,
  force: boolean,
): Promise<HandoffPlan> {
  checkHermesId(options.id);
  const home = activeHome(hermesHome);
  const database = stateDbPath(home.dir);
  const asked = hermesTitle(options.title);
  const lineage = !!asked && asked === hermesTitle(session.meta.title);
  const model = chooseModel(session, options, home);
  const plan: PlanPreview = {
    harness: "hermes",
    id: options.id,
    path: sessionLocator(database, options.id),
    cwd: options.cwd,
    files: [],
    databases: [database],
    resumeCommand: resumeHermes({
      id: options.id,
      cwd: options.cwd,
      // `hermes` run by the user works in the home it was written to; a non-default home is named explicitly.
      home: home.dir,
      env: options.env ?? {},
      ...(model.flag ? { model: model.flag } : {}),
    }),
    notes: [...model.notes, ...titleNotes(options.title, asked)],
  };
  if (!existsSync(database)) {
    return refusedPlan(plan, refuse.noStore("Hermes", home.dir, "hermes").message);
  }
  if (isLink(database)) return refusedPlan(plan, refuse.linked(database).message);
  const gateway = gatewayRefusal(home.dir, options.env ?? {});
  if (gateway) return refusedPlan(plan, gateway);
  const source = await sameHarnessSource(session, options);
  let fitted: Fitted;
  try {
    fitted = fitToStore(database, source ?? compactedHistory(session).length, options, {
      title: asked,
      lineage,
    }, force);
    plan.notes!.push(...fitted.notes);
    if (fitted.refusal) plan.refusal = fitted.refusal;
  } catch (error) {
    // Damaged, not Hermes's, or of a shape these rows cannot fill: the store refuses (exit 1).
    return refusedPlan(plan, targetStoreRefusal(database, error).message);
  }
  const { title } = fitted;
  const rowOptions = { ...options, ...(title ? { title } : {}) };
  const kept = {
    system_prompt: source ? keptSystemPrompt(source, session, rowOptions) : null,
    cwd: rowOptions.cwd || null,
  };
  plan.notes!.push(
    ...uncarriedByCopy(session, kept, {
      ...configuredModel(configPath(home.dir)),
      ...(model.model ? { model: model.model } : {}),
    }),
  );
  const planned: Planned = {
    id: options.id,
    database,
    title,
    lineage,
    session,
    options: rowOptions,
    settings: {
      model: model.model ?? null,
      ...(home.profile ? { profile: home.profile } : {}),
      ...(fitted.handshakeAsPart ? { handshakeAsPart: true } : {}),
    },
    source,
  };
  // The rows the commit changes, as the write-ahead intent names them (the title's holder gives it up).
  const { titleOwner } = fitted;
  plan.rows = [
    { database, table: "messages", key: { session_id: options.id } },
    { database, table: "sessions", key: { id: options.id } },
    ...(titleOwner ? [{ database, table: "sessions", key: { id: titleOwner } }] : []),
  ];
  return handoffPlan(plan, (commit) => insertSession(planned, commit));
}

interface Fitted {
  notes: ReportEntry[];
  /** The title the session is stored with: the one planned, or its lineage's next when that is taken. */
  title: string | undefined;
  refusal?: string;
  titleOwner?: string;
  /** The handshake row is stored as one text part (see OLD_MERGING_GENERATION). */
  handshakeAsPart?: boolean;
}

/**
 * The rows checked against the database, read-only: its schema generation (what the rows may fill, and how the
 * handshake row must be stored for it), and what is in the way of the id and the (stored) title. Throws when the
 * database is damaged or not one these rows can be written to. Nothing of the thread is read: a copy's set-aside
 * rows are counted from its source's rows, a foreign session's are its compacted history (`source`, a count).
 */
function fitToStore(
  database: string,
  source: HermesSource | number,
  options: RenderOptions,
  planned: { title: string | undefined; lineage: boolean },
  force: boolean,
): Fitted {
  const notes: ReportEntry[] = [];
  const db = openReadOnly(database);
  try {
    const shape = checkedShape(db, database);
    if (shape.schemaVersion! > shape.generation.schemaVersion) {
      notes.push(reportEntry(
        "hermes-schema-newer",
        "warning",
        `this state.db is schema_version ${shape.schemaVersion}, newer than session-bridge's captures ` +
          `(${shape.generation.schemaVersion}); the rows fill the columns both know`,
      ));
    }
    const handshakeAsPart = !!options.handshake && shape.generation.version === OLD_MERGING_GENERATION;
    const setAside = shape.columns.messages.has("active")
      ? 0
      : typeof source === "number"
      ? source
      : setAsideCount(source);
    if (setAside) {
      notes.push(reportEntry(
        "compacted-rows-dropped",
        "loss",
        "this Hermes stores no compacted rows (no messages.active column): history before compaction is left out",
        { count: setAside },
      ));
    }
    const { title, note } = lineageTitle(db, options.id, planned);
    notes.push(...note);
    const found = findClash(db, options.id, title);
    const refusal = refusalOf(db, database, options.id, title, found, force);
    const fitted = { notes, title, ...(handshakeAsPart ? { handshakeAsPart } : {}) };
    if (refusal) return { ...fitted, refusal };
    if (!force) return fitted;
    return {
      ...fitted,
      notes: [...notes, ...replacementNotes(found, title)],
      ...(found.titleOwner ? { titleOwner: found.titleOwner } : {}),
    };
  } finally {
    db.close();
  }
}

/**
 * The generation whose Hermes repairs the live history in place (`_repair_message_sequence` merges consecutive
 * plain-text user messages in the list it then flushes from a fixed index), so a prompt following a stored
 * plain-text user row would be sent but never stored. 0.19.0 repairs a copy. That repair leaves multimodal
 * (list) content alone, so the handshake row is stored as one text part there: it stays a row of its own, the
 * model still reads its text, and the next prompt is stored after it.
 */
const OLD_MERGING_GENERATION = "0.14.0";

/**
 * What a store newer than our captures must still have: the columns Hermes needs to list and resume a session
 * (fixtures' `foreign` scenario) and those the checks here query. Everything else is written where it exists.
 */
const ESSENTIAL = {
  sessions: ["id", "source", "started_at", "title", "parent_session_id", "end_reason"],
  messages: ["id", "session_id", "role", "content", "timestamp", "tool_calls", "tool_call_id", "tool_name"],
};

/**
 * The database's shape, refusing one this writer cannot fill: missing a column its schema generation has (or,
 * newer than our captures, an essential one), or with a NOT NULL column we do not know that has no default.
 */
function checkedShape(db: DatabaseSync, database: string): StoreShape {
  const shape = storeShape(db, database);
  if (shape.schemaVersion === undefined) {
    throw new InputError(`${database}: no schema_version (not a Hermes state database)`);
  }
  const newer = shape.schemaVersion > shape.generation.schemaVersion;
  for (const table of ["sessions", "messages"] as const) {
    const required = newer ? ESSENTIAL[table] : shape.generation.columns[table];
    const missing = required.find((c) => !shape.columns[table].has(c));
    if (missing) {
      throw new InputError(
        `${database}: missing column ${table}.${missing} (${
          newer ? "Hermes needs it to resume a session" : `schema_version ${shape.schemaVersion} has it`
        })`,
      );
    }
    const unfillable = tableColumns(db, table).find((c) =>
      c.notnull && c.defaultValue === null && !c.primaryKey &&
      !shape.generation.columns[table].includes(c.name)
    );
    if (unfillable) {
      throw new InputError(
        `${database}: column ${table}.${unfillable.name} is NOT NULL without a default, unknown to session-bridge ` +
          `(Hermes is newer than schema_version ${shape.generation.schemaVersion})`,
      );
    }
  }
  return shape;
}

/** What is in the way of the planned id and title: a session with that id, another holding the title. */
interface Clash {
  /** The id is taken by this session (it is replaced under --force). */
  takenId?: string;
  /** The title is held by this other session (it gives the title up under --force). */
  titleOwner?: string;
  /** Why even --force cannot go ahead. */
  refusal?: string;
}

function findClash(db: DatabaseSync, id: string, title: string | undefined): Clash {
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
function refusalOf(
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

/** What --force will replace, for the report. */
function replacementNotes(clash: Clash, title: string | undefined): ReportEntry[] {
  const notes: ReportEntry[] = [];
  if (clash.takenId) {
    notes.push(reportEntry(
      "hermes-session-replaced",
      "warning",
      `--force: session ${clash.takenId} and its messages are replaced (backed up first; ` +
        `session-bridge undo puts them back)`,
      { examples: [clash.takenId] },
    ));
  }
  if (clash.titleOwner) {
    notes.push(reportEntry(
      "hermes-title-moved",
      "warning",
      `--force: session ${clash.titleOwner} gives up the title ${JSON.stringify(title)} (backed up ` +
        `first; session-bridge undo gives it back)`,
      { examples: [clash.titleOwner] },
    ));
  }
  return notes;
}

/**
 * The title a session is stored with. One the user asked for is kept (a taken one is refused, as Hermes's own
 * `/title` refuses it); the source's own title, taken (the same session handed off again, a copy beside its
 * original), becomes its lineage's next, as Hermes titles a continued session (`get_next_title_in_lineage`).
 */
function lineageTitle(
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

interface ModelChoice {
  model?: string;
  /** The model to pass on the resume command, when it is not the one Hermes would pick by itself. */
  flag?: string;
  notes: ReportEntry[];
}

/**
 * Hermes resumes with the model its config.yaml routes to, whatever the session row says; so the row records
 * that model, and a `--model` that differs travels as `-m` on the resume command.
 */
function chooseModel(session: SessionHead, options: RenderOptions, home: HermesHome): ModelChoice {
  const config = configPath(home.dir);
  const configured = configuredModel(config).model;
  const source = session.meta.models.at(-1);
  const note = (severity: ReportEntry["severity"], detail: string): ReportEntry[] => [
    reportEntry("hermes-model", severity, detail),
  ];
  if (options.model && options.model !== configured) {
    return {
      model: options.model,
      flag: options.model,
      notes: note(
        "warning",
        `Hermes routes to ${configured ? `its configured model ${configured}` : "no configured model"} ` +
          `(${config}); the resume command passes -m ${options.model}`,
      ),
    };
  }
  if (!configured) {
    return {
      ...(source ? { model: source } : {}),
      notes: note(
        "warning",
        `${config} names no model: Hermes asks for one before it can continue this session`,
      ),
    };
  }
  // Which model and why is the shared choice's to say (lib/pipeline/model.ts, report code `model`).
  return { model: configured, notes: [] };
}

function titleNotes(requested: string | undefined, title: string | undefined): ReportEntry[] {
  if (!requested || !title || requested.trim() === title) return [];
  return [reportEntry(
    "title-adjusted",
    "info",
    `title stored as ${
      JSON.stringify(title)
    } (Hermes titles are one line of at most ${TITLE_MAX} characters)`,
  )];
}

/** How many rows are staged between two progress updates. */
const PROGRESS_ROWS = 256;

/**
 * The rows are made as the thread is read and staged in a temp table (SQLite holds them, not we), before the
 * write lock is taken; then, in one transaction, whatever is in the way goes, the sessions row (counted from
 * the staged rows) goes in, and the staged rows move in a few large batches (lib/store/row-batches.ts).
 */
async function insertSession(
  planned: Planned,
  { backup, force, backupFolder, feedback }: CommitOptions,
): Promise<Committed> {
  const { id, database } = planned;
  // Looked at again: a gateway started since planning is the one writer now.
  const gateway = gatewayRefusal(dirname(database), planned.options.env ?? {});
  if (gateway) throw new RefusedError(gateway);
  const db = openForWrite(database);
  try {
    const backups: string[] = [];
    const columns = storeColumns(db, database);
    const rows = targetRows(planned.session, planned.options, planned.settings, planned.source);
    const step = startProgress(feedback, `preparing rows for ${database}`, "rows");
    const staged = await stageRows(db, "messages", storedRows(rows.messages, columns), (n) => {
      if (n % PROGRESS_ROWS === 0) step.advance(n);
    }).finally(() => step.finish());
    const clash = await immediateTransaction(db, async () => {
      // Checked again under the write lock: a running Hermes may have taken the id or title since planning
      // (the source's own title is then numbered again).
      const { title } = lineageTitle(db, id, planned);
      const clash = findClash(db, id, title);
      const refusal = refusalOf(db, database, id, title, clash, force);
      if (refusal) throw new RefusedError(refusal);
      // The rows about to be replaced, copied under the write lock (lib/store/row-backup.ts); replacing needs
      // them even under --no-backup: undo restores them from the copy.
      if (backup || hasClash(clash)) {
        backups.push(await backupRows(database, backupFolder, replacedRows(id, clash), feedback));
      }
      if (clash.takenId) await removeSession(db, database, clash.takenId, feedback);
      if (clash.titleOwner) db.prepare("UPDATE sessions SET title = NULL WHERE id = ?").run(clash.titleOwner);
      insertRow(db, "sessions", only({ ...rows.session(), ...(title ? { title } : {}) }, columns.sessions));
      // Hermes's full-text triggers make this the long part of a handoff: seconds for a long session.
      await inBatches(`registering in ${database}`, staged.count, moveStaged(db, staged), feedback);
      return clash;
    }, feedback);
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
          count: staged.count,
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
  } finally {
    db.close();
  }
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

const hasClash = (clash: Clash): boolean => !!(clash.takenId || clash.titleOwner);

/** The rows a handoff of `id` replaces: a session of that id with its messages, the title's holder. */
function replacedRows(id: string, clash: Clash): BackedUpRows[] {
  return [
    { table: "messages", key: { session_id: id } },
    { table: "sessions", key: { id } },
    ...(clash.titleOwner ? [{ table: "sessions", key: { id: clash.titleOwner } }] : []),
  ];
}

/** The row's values for the columns this database has (an older generation has fewer). */
function only(row: object, columns: Set<string>): Row {
  const kept: Row = {};
  for (const name in row) if (columns.has(name)) kept[name] = (row as Row)[name];
  return kept;
}
