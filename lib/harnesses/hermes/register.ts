/**
 * Handoff into Hermes: a `sessions` row and its `messages` rows in the `state.db` of the home a plain `hermes`
 * runs in, so `hermes sessions list` shows the session and `hermes chat --resume <id>` loads its history.
 * Planning only reads the database (and refuses here, so a refused handoff leaves it byte-identical);
 * registering takes an online backup, then inserts everything in one short `BEGIN IMMEDIATE` transaction
 * with retries, since a running Hermes holds the database open. Inserting through Hermes's own triggers keeps
 * its full-text indexes (`messages_fts`, `messages_fts_trigram`) in step.
 */
import { existsSync } from "node:fs";
import type { DatabaseSync } from "node:sqlite";
import type { Session } from "../../ir/schema.ts";
import type { ReportEntry } from "../../report/report.ts";
import type { HandoffPlan, HandoffResult, Homes, RegisterOptions, RenderOptions } from "../types.ts";
import { InputError, RefusedError } from "../../errors.ts";
import { commandLine } from "../../io/shell.ts";
import { homeEnvironment } from "../homes.ts";
import { backupDir } from "../../store/backup.ts";
import {
  immediateTransaction,
  insertRow,
  onlineBackup,
  openForWrite,
  openReadOnly,
  type Row,
  tableColumns,
} from "../../store/sqlite.ts";
import { configuredModel } from "./config.ts";
import { storeColumns, type StoreShape, storeShape } from "./database.ts";
import { hermesTitle, storedMessage, type TargetRows, TITLE_MAX } from "./rows.ts";
import { activeHome, configPath, type HermesHome, sessionLocator, stateDbPath } from "./store.ts";
import { targetRows } from "./target.ts";

/** What register needs beyond the shared plan: the database and the rows built (read-only) at planning. */
const planned = new WeakMap<HandoffPlan, { database: string; rows: TargetRows }>();

export async function planHermes(
  session: Session,
  options: RenderOptions,
  homes: Homes,
  force: boolean,
): Promise<HandoffPlan> {
  const home = activeHome(homes);
  const database = stateDbPath(home.dir);
  const title = hermesTitle(options.title);
  const model = chooseModel(session, options, home);
  const plan: HandoffPlan = {
    harness: "hermes",
    id: options.id,
    path: sessionLocator(database, options.id),
    cwd: options.cwd,
    files: [],
    databases: [database],
    resumeCommand: resumeCommand(home, options, model),
    notes: [...model.notes, ...titleNotes(options.title, title)],
  };
  if (!existsSync(database)) {
    plan.refusal = `no Hermes database at ${database} (run hermes there once so it creates one)`;
    return plan;
  }
  const rows = await targetRows(session, { ...options, ...(title ? { title } : {}) }, {
    model: model.model ?? null,
    ...(home.profile ? { profile: home.profile } : {}),
  });
  const db = openReadOnly(database);
  try {
    const shape = checkedShape(db, database);
    if (shape.schemaVersion! > shape.generation.schemaVersion) {
      plan.notes!.push({
        code: "hermes-schema-newer",
        severity: "warning",
        count: 1,
        detail:
          `this state.db is schema_version ${shape.schemaVersion}, newer than session-bridge's captures ` +
          `(${shape.generation.schemaVersion}); the rows fill the columns both know`,
        examples: [],
      });
    }
    if (!shape.columns.messages.has("active") && rows.messages.some((m) => m.active !== 1)) {
      plan.notes!.push({
        code: "compacted-rows-dropped",
        severity: "loss",
        count: rows.messages.filter((m) => m.active !== 1).length,
        detail:
          "this Hermes stores no compacted rows (no messages.active column): history before compaction is left out",
        examples: [],
      });
    }
    plan.refusal = clash(db, database, options.id, title, force);
  } finally {
    db.close();
  }
  if (!plan.refusal) planned.set(plan, { database, rows });
  return plan;
}

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
    throw new InputError(`${database}: no schema_version (not a Hermes state.db)`);
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

/** Why the session cannot be added as planned, if it cannot: its id or its title is already in use. */
function clash(
  db: DatabaseSync,
  database: string,
  id: string,
  title: string | undefined,
  force: boolean,
): string | undefined {
  if (db.prepare("SELECT 1 FROM sessions WHERE id = ?").get(id)) {
    return `session ${id} already exists in ${database}${
      force ? " (--force never replaces Hermes sessions: delete it with hermes sessions delete first)" : ""
    }; pass another --session-id`;
  }
  const owner = title
    ? db.prepare("SELECT id FROM sessions WHERE title = ?").get(title) as Row | undefined
    : undefined;
  if (owner) {
    return `title ${
      JSON.stringify(title)
    } is taken by session ${owner.id} in ${database} (Hermes titles are ` +
      `unique); pass --title ${JSON.stringify(nextTitle(db, title!))}`;
  }
  return undefined;
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
function chooseModel(session: Session, options: RenderOptions, home: HermesHome): ModelChoice {
  const config = configPath(home.dir);
  const configured = configuredModel(config).model;
  const source = session.meta.models.at(-1);
  const note = (severity: ReportEntry["severity"], detail: string): ReportEntry[] => [
    { code: "hermes-model", severity, count: 1, detail, examples: [] },
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
  return {
    model: configured,
    notes: source && source !== configured
      ? note("info", `continues on this Hermes's model ${configured} (the source used ${source})`)
      : [],
  };
}

function titleNotes(requested: string | undefined, title: string | undefined): ReportEntry[] {
  if (!requested || !title || requested.trim() === title) return [];
  return [{
    code: "title-adjusted",
    severity: "info",
    count: 1,
    detail: `title stored as ${
      JSON.stringify(title)
    } (Hermes titles are one line of at most ${TITLE_MAX} characters)`,
    examples: [],
  }];
}

/** `hermes` run by the user works in the home it was written to; a non-default home is named explicitly. */
function resumeCommand(home: HermesHome, options: RenderOptions, model: ModelChoice): string {
  return commandLine(options.cwd, homeEnvironment("hermesHome", home.dir), [
    "hermes",
    "chat",
    "--resume",
    options.id,
    ...(model.flag ? ["-m", model.flag] : []),
  ]);
}

export async function registerHermes(
  plan: HandoffPlan,
  { backup, now }: RegisterOptions,
): Promise<HandoffResult> {
  const details = planned.get(plan);
  if (!details || plan.refusal) throw new RefusedError(plan.refusal ?? "this plan cannot be carried out");
  const { database, rows } = details;
  const db = openForWrite(database);
  try {
    const backups = backup ? [await onlineBackup(db, backupDir(`hermes-${plan.id}`, now), "state.db")] : [];
    const columns = storeColumns(db, database);
    const inserted = await immediateTransaction(db, () => {
      // Checked again under the write lock: a running Hermes may have taken the id or title since planning.
      const refusal = clash(db, database, plan.id, rows.session.title ?? undefined, false);
      if (refusal) throw new RefusedError(refusal);
      insertRow(db, "sessions", only(rows.session, columns.sessions));
      let count = 0;
      for (const message of rows.messages) {
        if (message.active !== 1 && !columns.messages.has("active")) continue;
        insertRow(db, "messages", only(storedMessage(message), columns.messages));
        count++;
      }
      return count;
    });
    return {
      plan,
      written: [],
      // Messages first: undo deletes in this order, and messages reference their session.
      rows: [
        { database, table: "messages", key: { session_id: plan.id }, count: inserted },
        { database, table: "sessions", key: { id: plan.id } },
      ],
      backups,
      replaced: [],
    };
  } finally {
    db.close();
  }
}

/** The row's values for the columns this database has (an older generation has fewer). */
function only(row: object, columns: Set<string>): Row {
  return Object.fromEntries(Object.entries(row).filter(([name]) => columns.has(name)));
}
