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
import type { DatabaseSync } from "node:sqlite";
import type { SessionHead, SessionStream } from "../../ir/stream.ts";
import type { ReportEntry } from "../../report/report.ts";
import { reportEntry } from "../../report/entry.ts";
import type { HandoffPlan, PlanPreview, RenderOptions } from "../types.ts";
import { handoffPlan, refusedPlan } from "../plan.ts";
import { refuse, targetStoreRefusal } from "../refuse.ts";
import { InputError } from "../../errors.ts";
import { resumeHermes } from "./resume.ts";
import { openReadOnly, tableColumns } from "../../store/sqlite.ts";
import { uncarriedByCopy } from "./carried.ts";
import { configuredModel } from "./config.ts";
import { type StoreShape, storeShape } from "./database.ts";
import { hermesTitle, TITLE_MAX } from "./rows.ts";
import { activeHome, configPath, type HermesHome, sessionLocator, stateDbPath } from "./profiles.ts";
import { keptSystemPrompt } from "./target.ts";
import { insertSession, type Planned } from "./insert.ts";
import { type Clash, findClash, lineageTitle, refusalOf } from "./commit.ts";
import { type HermesSource, sameHarnessSource } from "./source.ts";
import { compactedHistory } from "../../ir/compacted.ts";
import { setAsideCount } from "./copy.ts";
import { checkHermesId } from "./ids.ts";
import { isLink } from "../../io/links.ts";
import { gatewayRefusal } from "./gateway.ts";

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
