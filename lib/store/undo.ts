/**
 * Takes one handoff back: deletes the rows it inserted (after an online backup of each database, in one
 * transaction per database), restores files it replaced, and removes files it created. A created file that
 * changed since (the target harness appended to it) is kept unless forced, and then saved first.
 */
import { copyFileSync, existsSync, unlinkSync } from "node:fs";
import { basename } from "node:path";
import { RefusedError } from "../errors.ts";
import type { KeyedRows } from "./rows.ts";
import { backupDir, backupFile, backupMark, discardBackupsSince } from "./backup.ts";
import { checkpoint } from "../io/interrupt.ts";
import type { LedgerEntry } from "./ledger.ts";
import { markUndone, sha256File } from "./ledger.ts";
import {
  immediateTransaction,
  onlineBackup,
  openForWrite,
  openReadOnly,
  quoteIdent,
  tableColumns,
} from "./sqlite.ts";

export interface UndoPlan {
  entry: LedgerEntry;
  remove: string[];
  /** Files, or a database's rows, changed since the handoff: removing them would lose what was added after it. */
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
  } changed since the handoff (was it resumed?); --force removes it after saving a copy`;
}

export async function carryOutUndo(
  plan: UndoPlan,
  force: boolean,
  now: Date,
  bridgeHome: string,
): Promise<string[]> {
  const refusal = undoRefusal(plan, force);
  if (refusal) throw new RefusedError(refusal);
  const mark = backupMark();
  let committed = false;
  try {
    return await undoFromDatabasesAndFiles(plan, now, bridgeHome, () => (committed = true));
  } catch (error) {
    // Nothing was changed yet: the backups taken for this undo copy an unchanged store.
    if (!committed) discardBackupsSince(mark);
    throw error;
  }
}

async function undoFromDatabasesAndFiles(
  plan: UndoPlan,
  now: Date,
  bridgeHome: string,
  commit: () => void,
): Promise<string[]> {
  const saved = backupDir(`undo-${plan.entry.op}`, now, bridgeHome);
  const backups: string[] = [];
  for (const [database, rows] of groupBy(plan.rows, (r) => r.database)) {
    const db = openForWrite(database);
    try {
      backups.push(await onlineBackup(db, saved, basename(database)));
      // SQLite cannot attach inside a transaction: the backups rows are restored from are attached first.
      const sources = [...new Set(rows.flatMap((r) => (r.restoreFrom ? [r.restoreFrom] : [])))];
      sources.forEach((file, i) => db.prepare(`ATTACH DATABASE ? AS ${quoteIdent(`saved${i}`)}`).run(file));
      await immediateTransaction(db, () => {
        // A restored row is deleted and inserted again: references to it are checked at commit, not between.
        if (sources.length) db.exec("PRAGMA defer_foreign_keys = ON");
        for (const row of rows) {
          const names = Object.keys(row.key);
          const where = names.map((n) => `${quoteIdent(n)} = ?`).join(" AND ");
          const values = names.map((n) => row.key[n]!);
          db.prepare(`DELETE FROM ${quoteIdent(row.table)} WHERE ${where}`).run(...values);
          if (row.restoreFrom) {
            const from = `${quoteIdent(`saved${sources.indexOf(row.restoreFrom)}`)}.${quoteIdent(row.table)}`;
            const columns = tableColumns(db, row.table).map((c) => quoteIdent(c.name)).join(", ");
            db.prepare(
              `INSERT INTO main.${
                quoteIdent(row.table)
              } (${columns}) SELECT ${columns} FROM ${from} WHERE ${where}`,
            ).run(...values);
          }
        }
      });
      commit();
      sources.forEach((_, i) => db.exec(`DETACH DATABASE ${quoteIdent(`saved${i}`)}`));
    } finally {
      db.close();
    }
  }
  for (const path of plan.changed) if (existsSync(path)) backups.push(backupFile(path, saved)!);
  checkpoint();
  commit();
  for (const path of plan.remove) unlinkSync(path);
  for (const { path, backup } of plan.restore) copyFileSync(backup, path);
  markUndone(bridgeHome, plan.entry.op, now);
  return backups;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}
