/**
 * Handoff into Codex: the rollout published under `sessions/YYYY/MM/DD/` and its row in the `threads` index of
 * the newest `state_N.sqlite`, so `codex resume` lists it and `codex exec resume <id>` finds it. Planning only
 * reads the store; registering backs the database up online, publishes the file (never over an existing one),
 * then inserts the row in one immediate transaction, and takes the file back if the insert fails.
 *
 * `thread_history_1.sqlite` is not written: it is a projection Codex builds itself from the rollout's
 * `item_completed` events the first time it opens the thread.
 */
import { copyFileSync, existsSync, unlinkSync } from "node:fs";
import { basename, dirname } from "node:path";
import type { Session } from "../../ir/schema.ts";
import type { HandoffPlan, HandoffResult, Homes, RegisterOptions, RenderOptions } from "../types.ts";
import { RefusedError } from "../../errors.ts";
import type { ReportEntry } from "../../report/report.ts";
import { ensureDir, publishFile, removeEmptyDirs } from "../../io/publish.ts";
import { backupDir, backupFile } from "../../store/backup.ts";
import {
  immediateTransaction,
  insertRow,
  onlineBackup,
  openForWrite,
  openReadOnly,
  type Row,
  tableColumns,
} from "../../store/sqlite.ts";
import { commandLine } from "../../io/shell.ts";
import { homeEnvironment } from "../homes.ts";
import { mintedAt, newestStateDb, rolloutFiles, rolloutPath } from "./locate.ts";
import { type CodexTarget, detectTarget } from "./target.ts";
import { renderRollout } from "./write.ts";
import { fitRow, rowValues } from "./row.ts";

const TABLE = "threads";

/** What register needs beyond the shared plan: the database and the row fitted to it at planning time. */
const planned = new WeakMap<HandoffPlan, { database: string; row: Row }>();

export async function planCodex(
  session: Session,
  options: RenderOptions,
  homes: Homes,
  force: boolean,
): Promise<HandoffPlan> {
  const home = homes.codexHome;
  const target = await detectTarget(home);
  const path = rolloutPath(home, options.id, mintedAt(options.id) ?? options.now);
  const database = newestStateDb(home);
  const plan: HandoffPlan = {
    harness: "codex",
    id: options.id,
    path,
    cwd: options.cwd,
    files: [{ path, lines: () => renderRollout(session, options, target) }],
    databases: database ? [database] : [],
    resumeCommand: commandLine(options.cwd, homeEnvironment("codexHome", home), [
      "codex",
      "resume",
      options.id,
    ]),
    notes: targetNotes(target),
  };
  try {
    if (!database) {
      throw new RefusedError(`no Codex state database in ${home} (run codex there once so it creates one)`);
    }
    const row = fitRow(
      existingColumns(database, options.id),
      rowValues({ session, options, target, rolloutPath: path }),
      TABLE,
    );
    const clash = rolloutFiles(home).find((f) => f.id === options.id);
    if (clash && !(force && clash.path === path)) {
      throw new RefusedError(`${clash.path} already exists (a rollout of thread ${options.id})`);
    }
    planned.set(plan, { database, row });
  } catch (error) {
    if (!(error instanceof RefusedError)) throw error;
    plan.refusal = error.message;
  }
  return plan;
}

/** The table's columns, read without writing anything; an id already registered is refused here. */
function existingColumns(database: string, id: string) {
  const db = openReadOnly(database);
  try {
    const columns = tableColumns(db, TABLE);
    if (!columns.length) {
      throw new RefusedError(`${database} has no ${TABLE} table: not a Codex state database`);
    }
    if (db.prepare(`SELECT 1 FROM ${TABLE} WHERE id = ?`).get(id)) {
      throw new RefusedError(`thread ${id} is already registered in ${database}`);
    }
    return columns;
  } finally {
    db.close();
  }
}

const EVIDENCE: Record<CodexTarget["evidence"], string> = {
  threads: "as its newest thread",
  rollout: "as its newest rollout",
  store: "from its state database's migrations",
  default: "no Codex found there: the default",
};

/** What the report should say about the Codex written for: its format. */
function targetNotes(target: CodexTarget): ReportEntry[] {
  const note = (code: string, severity: ReportEntry["severity"], detail: string): ReportEntry => ({
    code,
    severity,
    count: 1,
    detail,
    examples: [],
  });
  const history = target.paginated ? "paginated" : "legacy";
  const notes = [
    note(
      "codex-format",
      "info",
      `written as ${history} history for Codex ${target.version} (${EVIDENCE[target.evidence]})`,
    ),
  ];
  // Which model the thread continues on is the shared choice's to say (lib/pipeline/model.ts, code `model`).
  return notes;
}

export async function registerCodex(
  plan: HandoffPlan,
  { force, backup, now }: RegisterOptions,
): Promise<HandoffResult> {
  const details = planned.get(plan);
  if (!details || plan.refusal) throw new RefusedError(plan.refusal ?? "this plan cannot be carried out");
  const { database, row } = details;
  const file = plan.files[0]!;
  const saved = backupDir(`codex-${plan.id}`, now);
  const created: string[] = [];
  const written: string[] = [];
  const replaced: { path: string; backup: string }[] = [];
  const backups: string[] = [];
  const db = openForWrite(database);
  try {
    if (backup) backups.push(await onlineBackup(db, saved, basename(database)));
    const existed = existsSync(file.path);
    if (existed && !force) throw new RefusedError(`${file.path} already exists (use --force to replace it)`);
    try {
      if (existed) replaced.push({ path: file.path, backup: backupFile(file.path, saved)! });
      ensureDir(dirname(file.path), created);
      await publishFile(file.path, file.lines(), force);
      if (!existed) written.push(file.path);
      await immediateTransaction(db, () => insertRow(db, TABLE, row));
    } catch (error) {
      for (const path of written) unlinkSync(path);
      for (const r of replaced) copyFileSync(r.backup, r.path);
      removeEmptyDirs(created);
      throw isDuplicate(error)
        ? new RefusedError(`thread ${plan.id} is already registered in ${database}`)
        : error;
    }
  } finally {
    db.close();
  }
  return {
    plan,
    written,
    rows: [{ database, table: TABLE, key: { id: plan.id } }],
    backups: [...backups, ...replaced.map((r) => r.backup)],
    replaced,
  };
}

const isDuplicate = (error: unknown) =>
  /UNIQUE constraint failed/i.test(String((error as Error)?.message ?? error));
