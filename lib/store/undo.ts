/**
 * Takes one handoff back: deletes the rows it inserted (in one transaction per database, rows added to since
 * the handoff saved first, then the space they took given back), restores files it replaced, and removes files it created. A file of either kind
 * changed since (the target harness appended to it) is left as it is unless forced, and then saved first. Like a
 * handoff, an undo writes its intent first (lib/store/intent.ts), so a kill during it is finished or rolled
 * back by recovery (lib/store/recover.ts) and the ledger never says undone what is not, or pending what is gone.
 */
import type { Feedback } from "../io/progress.ts";
import { existsSync, rmSync, unlinkSync } from "node:fs";
import type { DatabaseSync } from "node:sqlite";
import { fileFailure, fileSystemReason, RefusedError } from "../errors.ts";
import { LinkRefusedError } from "../io/links.ts";
import type { KeyedRows } from "./rows.ts";
import { backupDir, backupFile } from "./backup.ts";
import { checkpoint } from "../io/interrupt.ts";
import { crashPoint } from "../io/crash-points.ts";
import { copyIntoPlace } from "../io/publish.ts";
import { deleteInBatches, inBatches, insertInBatches } from "./row-batches.ts";
import type { LedgerEntry } from "./ledger.ts";
import { ledgerPath, markUndone, recordedUndone, sha256File } from "./ledger.ts";
import { replacedChanged } from "./replaced.ts";
import { undoRecordRoom } from "./room.ts";
import {
  fileStamp,
  type IntentRows,
  releaseRoom,
  removeIntent,
  rowsFingerprint,
  sameStamp,
  thisProcess,
  type UndoIntent,
  writeIntent,
} from "./intent.ts";
import { backupRows } from "./row-backup.ts";
import { reclaimSpace } from "./reclaim.ts";
import { immediateTransaction, openForWrite, openReadOnly, quoteIdent, tableColumns } from "./sqlite.ts";

export interface UndoPlan {
  entry: LedgerEntry;
  remove: string[];
  /**
   * Files (created or replaced by the handoff), or a database's rows, changed since the handoff: removing them or
   * putting the old ones back would lose what was added after it.
   */
  changed: string[];
  restore: { path: string; backup: string }[];
  rows: KeyedRows[];
}

export async function planUndo(entry: LedgerEntry): Promise<UndoPlan> {
  const remove: string[] = [];
  const changed: string[] = [];
  for (const file of entry.written) {
    if (!existsSync(file.path)) continue;
    remove.push(file.path);
    if ((await sha256File(file.path)) !== file.sha256) changed.push(file.path);
  }
  for (const file of entry.replaced) if (await replacedChanged(file)) changed.push(file.path);
  for (const row of entry.rows) {
    if (row.count !== undefined && existsSync(row.database) && matchingRows(row) !== row.count) {
      changed.push(`${row.database} (${row.table} rows of ${JSON.stringify(row.key)})`);
    }
  }
  return { entry, remove, changed, restore: entry.replaced, rows: entry.rows };
}

/** Counted on a read-only connection: planning an undo never writes. */
export function matchingRows(row: KeyedRows): number {
  const db = openReadOnly(row.database);
  try {
    const names = Object.keys(row.key);
    const where = names.map((n) => `${quoteIdent(n)} = ?`).join(" AND ");
    const found = db.prepare(`SELECT count(*) AS n FROM ${quoteIdent(row.table)} WHERE ${where}`).get(
      ...names.map((n) => row.key[n]!),
    );
    return Number((found as { n: number }).n);
  } finally {
    db.close();
  }
}

/** Why carrying out `plan` is refused (something changed since the handoff and it is not forced), if it is. */
export function undoRefusal(plan: UndoPlan, force: boolean): string | undefined {
  if (!plan.changed.length || force) return undefined;
  return `${
    plan.changed[0]
  } changed since the handoff (was it resumed?); --force saves a copy of it first, then undoes the handoff`;
}

/**
 * What the undo will do, fixed before it does any of it (see UndoIntent): the files with what each is now, the
 * rows with a fingerprint of what they hold now, and the folder its own backups go in.
 */
export function undoIntentFor(plan: UndoPlan, force: boolean, now: Date, bridgeHome: string): UndoIntent {
  const stamped = <T extends { path: string }>(file: T) => {
    const before = fileStamp(file.path);
    return before ? { ...file, before } : file;
  };
  return {
    kind: "undo",
    op: plan.entry.op,
    at: now.toISOString(),
    ...thisProcess(),
    entry: plan.entry,
    remove: plan.remove.map((path) => stamped({ path })),
    restore: plan.restore.map(stamped),
    rows: plan.rows.map((rows) => ({
      ...rows,
      before: existsSync(rows.database) ? rowsFingerprint(rows) : null,
    })),
    // Rows changed since the handoff are saved by a rows backup (applyUndo); changed files are copied one by one.
    changed: force ? plan.changed.filter((path) => existsSync(path)) : [],
    backupFolder: backupDir(`undo-${plan.entry.op}`, now, bridgeHome),
  };
}

/**
 * Carries out an undo: its intent is written (and synced) first, with room for its undone mark, so a kill
 * anywhere in it leaves an intent that recovery finishes (its commit happened) or rolls back (it did not), and
 * a full disk refuses it before anything is changed. Returns the backups taken, and a warning when the ledger
 * could not be told at the end (the undo stands; the next command records it).
 */
export async function carryOutUndo(
  plan: UndoPlan,
  force: boolean,
  now: Date,
  bridgeHome: string,
  feedback?: Feedback,
): Promise<{ backups: string[]; warnings: string[] }> {
  const refusal = undoRefusal(plan, force);
  if (refusal) throw new RefusedError(refusal);
  const intent = undoIntentFor(plan, force, now, bridgeHome);
  try {
    writeIntent(bridgeHome, intent, undoRecordRoom(intent));
  } catch (error) {
    if (error instanceof LinkRefusedError) throw error;
    throw new RefusedError(
      `cannot write the undo ledger in ${bridgeHome} (${fileSystemReason(error)}); nothing was undone`,
    );
  }
  crashPoint("intent-written");
  let committed = false;
  let backups: string[];
  try {
    backups = await applyUndo(intent, { commit: () => (committed = true), feedback });
  } catch (error) {
    // Nothing was changed yet: the backups taken for this undo copy an unchanged store. Once something was,
    // the intent stays, and the next command finishes the undo.
    if (!committed) {
      rmSync(intent.backupFolder, { recursive: true, force: true });
      removeIntent(bridgeHome, intent);
    }
    throw error;
  }
  try {
    noteUndone(intent, bridgeHome, now);
  } catch (error) {
    // Everything is undone but the ledger's mark: the intent stays, and the next command writes it.
    const warning = `the undo could not be recorded in the undo ledger yet (` +
      `${fileFailure(error, ledgerPath(bridgeHome))}); the next session-bridge command records it`;
    return { backups, warnings: [warning] };
  }
  removeIntent(bridgeHome, intent);
  return { backups, warnings: [] };
}

/** Whether an undo cut short had changed anything yet: then recovery finishes it, else it rolls it back. */
export function undoCommitted(intent: UndoIntent, bridgeHome: string): boolean {
  return recordedUndone(bridgeHome, intent.op) ||
    intent.rows.some((rows) => rowsChanged(rows)) ||
    [...intent.remove, ...intent.restore].some((file) => !sameStamp(fileStamp(file.path), file.before));
}

/** Rows a harness added to or took from since the handoff: their count is not the one the handoff left. */
const addedToSince = (rows: KeyedRows): boolean =>
  rows.count !== undefined && existsSync(rows.database) && matchingRows(rows) !== rows.count;

const rowsChanged = (rows: IntentRows): boolean =>
  existsSync(rows.database) && rowsFingerprint(rows) !== rows.before;

/**
 * The undo's steps: the rows of each database deleted (and rows the handoff replaced put back) in one
 * transaction, after a rows backup when they changed since the handoff, changed files saved, the handoff's files removed, and replaced files put
 * back whole; then noteUndone tells the ledger. A normal undo and recovery `finishing` an interrupted one go
 * through here alike; finishing skips a database whose rows that run already changed (its one transaction did it all).
 * `commit` is called once the first change is made.
 */
export async function applyUndo(
  intent: UndoIntent,
  { finishing = false, commit = () => {}, feedback }: {
    finishing?: boolean;
    commit?: () => void;
    feedback?: Feedback;
  } = {},
): Promise<string[]> {
  const saved = intent.backupFolder;
  const backups: string[] = [];
  let committed = false;
  const committing = () => {
    committed = true;
    commit();
  };
  for (const [database, rows] of groupBy(intent.rows, (r) => r.database)) {
    // Only when finishing: in a run of its own, rows a harness touched since the intent still go.
    const deleted = finishing && rows.some(rowsChanged);
    // Rows the harness added to since the handoff (a forced undo) are saved first; the handoff's own rows are
    // what its source still holds, and a copy of them would cost as much as the session (lib/store/row-backup.ts).
    if (!deleted && rows.some(addedToSince)) backups.push(await backupRows(database, saved, rows, feedback));
    const db = openForWrite(database);
    try {
      if (!deleted) await deleteRows(db, rows, feedback);
      committing();
      // The deleted rows' pages and full-text entries given back, as Hermes does after its own deletes (the run
      // a kill cut short may have deleted them without).
      const note = reclaimSpace(db);
      if (note) feedback?.notice?.(note);
    } finally {
      db.close();
    }
  }
  for (const path of intent.changed) if (existsSync(path)) backups.push(backupFile(path, saved)!);
  if (!committed) checkpoint();
  committing();
  for (const { path } of intent.remove) {
    if (!existsSync(path)) continue;
    unlinkSync(path);
    crashPoint("file-removed");
  }
  for (const { path, backup } of intent.restore) {
    copyIntoPlace(backup, path);
    crashPoint("file-restored");
  }
  return backups;
}

/** The ledger's undone mark, in the room reserved for it with the intent (given back first). */
export function noteUndone(intent: UndoIntent, bridgeHome: string, now: Date): void {
  releaseRoom(bridgeHome, intent);
  if (!recordedUndone(bridgeHome, intent.op)) markUndone(bridgeHome, intent.op, now);
  crashPoint("ledger-written");
}

/**
 * Deletes the rows in one transaction, putting back those the handoff replaced from its backup; a long
 * session's rows go a batch at a time, each step saying how far it is (lib/store/row-batches.ts).
 */
async function deleteRows(db: DatabaseSync, rows: KeyedRows[], feedback?: Feedback): Promise<void> {
  // SQLite cannot attach inside a transaction: the backups rows are restored from are attached first.
  const sources = [...new Set(rows.flatMap((r) => (r.restoreFrom ? [r.restoreFrom] : [])))];
  sources.forEach((file, i) => db.prepare(`ATTACH DATABASE ? AS ${quoteIdent(`saved${i}`)}`).run(file));
  const database = db.location() ?? "the database";
  await immediateTransaction(db, async () => {
    // A restored row is deleted and inserted again: references to it are checked at commit, not between.
    if (sources.length) db.exec("PRAGMA defer_foreign_keys = ON");
    for (const row of rows) {
      const names = Object.keys(row.key);
      const where = names.map((n) => `${quoteIdent(n)} = ?`).join(" AND ");
      const values = names.map((n) => row.key[n]!);
      const count = row.count ?? 1;
      const removing = deleteInBatches(db, row.table, where, values, count);
      await inBatches(`removing ${row.table} rows from ${database}`, count, removing, feedback);
      if (!row.restoreFrom) continue;
      const from = `${quoteIdent(`saved${sources.indexOf(row.restoreFrom)}`)}.${quoteIdent(row.table)}`;
      const columns = tableColumns(db, row.table).map((c) => c.name);
      const saved = db.prepare(`SELECT count(*) AS n FROM ${from} WHERE ${where}`).get(...values) as {
        n: number;
      };
      const restoring = insertInBatches(db, { into: row.table, columns, from, where, values }, saved.n);
      await inBatches(`restoring ${row.table} rows into ${database}`, saved.n, restoring, feedback);
    }
  }, feedback);
  sources.forEach((_, i) => db.exec(`DETACH DATABASE ${quoteIdent(`saved${i}`)}`));
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
