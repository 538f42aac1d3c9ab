/**
 * Handoff into Codex: the rollout published under `sessions/YYYY/MM/DD/` and its row in the `threads` index of
 * the newest `state_N.sqlite`, so `codex resume` lists it and `codex exec resume <id>` finds it. Planning only
 * reads the store; registering backs the database up online, publishes the file (never over an existing one),
 * then inserts the row in one immediate transaction, and takes the file back if the insert fails.
 *
 * `thread_history_1.sqlite` is not written: it is a projection Codex builds itself from the rollout's
 * `item_completed` events the first time it opens the thread.
 */
import { existsSync, unlinkSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { SessionStream } from "../../ir/stream.ts";
import type { CommitOptions, HandoffPlan, PlannedFile, PlanPreview, RenderOptions } from "../types.ts";
import { type Committed, handoffPlan, refusedPlan } from "../plan.ts";
import { InputError, RefusedError } from "../../errors.ts";
import { assertUuid } from "../../ids.ts";
import { refuse, targetStoreRefusal } from "../refuse.ts";
import type { ReportEntry } from "../../report/report.ts";
import { reportEntry } from "../../report/entry.ts";
import { copyIntoPlace, ensureDir, publishFile, removeEmptyDirs } from "../../io/publish.ts";
import { entryPresent, isLink } from "../../io/links.ts";
import { backupFile } from "../../store/backup.ts";
import {
  type ColumnInfo,
  immediateTransaction,
  insertRow,
  onlineBackup,
  openForWrite,
  openReadOnly,
  type Row,
  tableColumns,
} from "../../store/sqlite.ts";
import { resumeCodex } from "./resume.ts";
import { mintedAt, newestStateDb, rolloutFiles, rolloutPath } from "./locate.ts";
import { type CodexTarget, detectTarget } from "./target.ts";
import { isCopy } from "./write.ts";
import { rolloutLines, sourceRecords } from "./render.ts";
import { describeCopy, type RolloutDescription } from "./describe.ts";
import { fitRow, rowValues, threadOpening } from "./row.ts";

const TABLE = "threads";

/** What commit needs beyond the preview: the rollout, the database and the row fitted to it at planning time. */
interface Planned {
  id: string;
  file: PlannedFile;
  database: string;
  row: Row;
  /** The row `--force` replaces (undo puts it back). */
  previous?: Row;
  /** A rollout of the same thread id `--force` replaces (saved first, restored by undo). */
  clash?: string;
}

export async function planCodex(
  session: SessionStream,
  options: RenderOptions,
  codexHome: string,
  force: boolean,
): Promise<HandoffPlan> {
  assertUuid(options.id);
  // The index stores the path Codex opens from any directory later: never a relative one.
  const home = resolve(codexHome);
  const path = rolloutPath(home, options.id, mintedAt(options.id) ?? options.now);
  const database = newestStateDb(home);
  const preview: PlanPreview = {
    harness: "codex",
    id: options.id,
    path,
    cwd: options.cwd,
    files: [path],
    databases: database ? [database] : [],
    resumeCommand: resumeCodex({
      id: options.id,
      cwd: options.cwd,
      home,
      env: options.env ?? {},
      // A copied rollout keeps the models its turns recorded, which Codex resumes with; --model travels here.
      ...(session.meta.harness === "codex" && options.model ? { model: options.model } : {}),
    }),
  };
  let target: CodexTarget;
  try {
    target = await detectTarget(home, options.targetVersion);
  } catch (error) {
    // Only the state database is read beyond config.toml (read before planning): it is damaged or locked.
    if (!database) throw error;
    return refusedPlan(preview, targetStoreRefusal(database, error).message);
  }
  const described = isCopy(session)
    ? await describeCopy(sourceRecords(session, options)!, options, target)
    : undefined;
  const plan: PlanPreview = {
    ...preview,
    notes: [...targetNotes(target, described), ...copyNotes(described)],
  };
  if (!database) return refusedPlan(plan, refuse.noStore("Codex", home, "codex").message);
  if (isLink(database)) return refusedPlan(plan, refuse.linked(database).message);
  let found: { columns: ColumnInfo[]; previous?: Row };
  let row: Row;
  try {
    found = existingColumns(database, options.id);
  } catch (error) {
    return refusedPlan(plan, targetStoreRefusal(database, error).message);
  }
  try {
    row = fitRow(
      found.columns,
      rowValues({
        session,
        opening: await threadOpening(session),
        options,
        target,
        rolloutPath: path,
        ...(described ? { described } : {}),
      }),
      TABLE,
    );
  } catch (error) {
    // A column the row cannot fill: this database's shape, refused as every unusable store is.
    if (!(error instanceof RefusedError)) throw error;
    return refusedPlan(plan, refuse.unusable(database, error.message).message);
  }
  const { previous } = found;
  if (previous && !force) return refusedPlan(plan, refuse.exists(options.id, database).message);
  const clash = rolloutFiles(home).find((f) => f.id === options.id);
  if (clash && !force) return refusedPlan(plan, refuse.exists(options.id, clash.path).message);
  const planned: Planned = {
    id: options.id,
    file: { path, lines: () => rolloutLines(session, options, target) },
    database,
    row,
    ...(previous ? { previous } : {}),
    ...(clash ? { clash: clash.path } : {}),
  };
  const rows = [{ database, table: TABLE, key: { id: options.id } }];
  return handoffPlan({ ...plan, rows }, (commit) => publishAndRegister(planned, commit));
}

/** The table's columns and the row a `--force` would replace (kept, so undo can put it back); read-only. */
function existingColumns(database: string, id: string): { columns: ColumnInfo[]; previous?: Row } {
  const db = openReadOnly(database);
  try {
    const columns = tableColumns(db, TABLE);
    if (!columns.length) throw new InputError(`${database}: no table ${TABLE} (not a Codex state database)`);
    const previous = db.prepare(`SELECT * FROM ${TABLE} WHERE id = ?`).get(id) as Row | undefined;
    return { columns, ...(previous ? { previous: { ...previous } } : {}) };
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

/** What the report should say about the Codex written for: its format (a copy keeps its own). */
function targetNotes(target: CodexTarget, described: RolloutDescription | undefined): ReportEntry[] {
  const history = target.paginated ? "paginated" : "legacy";
  const notes = [
    described
      ? reportEntry(
        "codex-format",
        "info",
        `copied as the ${described.historyMode} history of Codex ${described.cliVersion} it is; the Codex here is ${target.version}`,
      )
      : reportEntry(
        "codex-format",
        "info",
        `written as ${history} history for Codex ${target.version} (${EVIDENCE[target.evidence]})`,
      ),
  ];
  // Which model the thread continues on is the shared choice's to say (lib/pipeline/model.ts, code `model`).
  return notes;
}

/** What a copy changes in `session_meta` beyond ids and paths (describe.ts). */
function copyNotes(described: RolloutDescription | undefined): ReportEntry[] {
  if (!described) return [];
  const { filled, retaggedSource, reprovided } = described.adjustment;
  const notes: ReportEntry[] = [];
  if (filled.length) {
    // The source's own record was incomplete: the copy cannot be the file as it was.
    notes.push(
      reportEntry(
        "codex-session-meta-incomplete",
        "loss",
        `the source's session_meta lacked ${
          filled.join(", ")
        }; the copy fills them in (Codex cannot read it otherwise)`,
      ),
    );
  }
  if (retaggedSource !== undefined) {
    notes.push(
      reportEntry(
        "codex-source-interactive",
        "info",
        `a ${retaggedSource} thread is registered as an interactive (cli) one, so codex resume lists it`,
      ),
    );
  }
  if (reprovided !== undefined) {
    notes.push(
      reportEntry(
        "codex-model-provider",
        "info",
        `model provider ${reprovided} becomes this Codex's ${described.adjustment.payload.model_provider} (a thread under another provider does not resume)`,
      ),
    );
  }
  return notes;
}

async function publishAndRegister(
  { id, file, database, row, previous, clash }: Planned,
  { force, backup, backupFolder: saved, feedback }: CommitOptions,
): Promise<Committed> {
  const created: string[] = [];
  const written: string[] = [];
  const replaced: { path: string; backup: string }[] = [];
  const backups: string[] = [];
  let databaseBackup: string | undefined;
  const db = openForWrite(database);
  try {
    // A replaced row lives only in the database: its backup is taken even under --no-backup, and undo puts the
    // row back from it.
    databaseBackup = backup || previous
      ? await onlineBackup(db, saved, basename(database), feedback)
      : undefined;
    if (databaseBackup) backups.push(databaseBackup);
    // A link there, even a dangling one, is replaced, and so saved (as the link it is) for undo to put back.
    const existed = entryPresent(file.path);
    if (existed && !force) throw refuse.exists(id, file.path);
    const moved = clash && clash !== file.path && existsSync(clash) ? clash : undefined;
    try {
      if (existed) replaced.push({ path: file.path, backup: backupFile(file.path, saved)! });
      // The thread's old rollout elsewhere would be a second file with the same id: saved, then taken away.
      if (moved) {
        replaced.push({ path: moved, backup: backupFile(moved, saved)! });
        unlinkSync(moved);
      }
      ensureDir(dirname(file.path), created);
      await publishFile(file.path, file.lines(), force, feedback);
      if (!existed) written.push(file.path);
      await immediateTransaction(db, () => {
        if (previous) db.prepare(`DELETE FROM ${TABLE} WHERE id = ?`).run(id);
        insertRow(db, TABLE, row);
      }, feedback);
    } catch (error) {
      for (const path of written) unlinkSync(path);
      for (const r of replaced) copyIntoPlace(r.backup, r.path);
      removeEmptyDirs(created);
      // A running Codex registered the id since planning.
      throw isDuplicate(error) ? refuse.exists(id, database) : error;
    }
  } finally {
    db.close();
  }
  return {
    written,
    rows: [{
      database,
      table: TABLE,
      key: { id },
      ...(previous && databaseBackup ? { restoreFrom: databaseBackup } : {}),
    }],
    backups: [...backups, ...replaced.map((r) => r.backup)],
    replaced,
  };
}

const isDuplicate = (error: unknown) =>
  /UNIQUE constraint failed/i.test(String((error as Error)?.message ?? error));
