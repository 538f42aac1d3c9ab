/**
 * Backups in proportion to what an operation changes: the rows it is about to replace or remove, copied into a
 * small SQLite file of their own, not the whole store database. A handoff of a 320 MB session into a Hermes
 * store took a full online snapshot before it and another before its undo (1.3 GB of backups after four
 * operations); the rows a handoff replaces (`--force`: the session whose id it takes, the one whose title it
 * moves) are what undo puts back, and they are all it needs (lib/store/undo.ts `restoreFrom`).
 *
 * The copy is made on a connection of its own while the caller's connection holds the store's write lock, so
 * nothing can change the rows between the copy and the change (readers are not blocked by that lock, in WAL
 * and rollback-journal modes alike), and the copy is complete before the change commits: a kill after the
 * commit always finds it whole. Each table is made with the store table's columns (CREATE TABLE ... AS), so
 * undo's restore reads it as it would read a full snapshot. The file is recorded in the backup folder's
 * manifest as a copy of the database, for the retention rule and recovery.
 */
import { rmSync } from "node:fs";
import { basename } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { backupTarget, recordCopy } from "./backup.ts";
import type { KeyedRows } from "./rows.ts";
import { quoteIdent, storeFailure } from "./sqlite.ts";
import { inBatches, insertInBatches } from "./row-batches.ts";
import { crashPoint } from "../io/crash-points.ts";
import { checkpoint } from "../io/interrupt.ts";
import type { Feedback } from "../io/progress.ts";

const ROWS_SUFFIX = ".rows";

/** A rows backup's file name: never the database's own, so it is not mistaken for a whole store. */
export const rowsBackupName = (database: string): string => `${basename(database)}${ROWS_SUFFIX}`;

/** Whether a backup copy holds some rows of its database, not all of it: never one to put in its place. */
export const isRowsBackup = (path: string): boolean => path.endsWith(ROWS_SUFFIX);

/** What a rows backup holds: the rows of `table` in `database` that `key` picks out. */
export type BackedUpRows = Pick<KeyedRows, "table" | "key">;

/**
 * Copies the rows `rows` name from `database` into a new file in backup folder `dir`, returning its path. Every
 * table named gets its table, empty when no row matched: the file says what was there, nothing included.
 */
export async function backupRows(
  database: string,
  dir: string,
  rows: readonly BackedUpRows[],
  feedback?: Feedback,
): Promise<string> {
  const target = backupTarget(dir, rowsBackupName(database));
  try {
    const out = new DatabaseSync(target);
    try {
      out.prepare("ATTACH DATABASE ? AS source").run(database);
      // One transaction: the copy reaches the disk once, whole, before the caller changes anything.
      out.exec("BEGIN");
      for (const table of new Set(rows.map((r) => r.table))) {
        const name = quoteIdent(table);
        out.exec(`CREATE TABLE main.${name} AS SELECT * FROM source.${name} WHERE 0`);
      }
      for (const { table, key } of rows) {
        const names = Object.keys(key);
        const where = names.map((n) => `${quoteIdent(n)} = ?`).join(" AND ");
        const values = names.map((n) => key[n]!);
        const from = `source.${quoteIdent(table)}`;
        const count = out.prepare(`SELECT count(*) AS n FROM ${from} WHERE ${where}`).get(...values) as {
          n: number;
        };
        const columns = (out.prepare(`PRAGMA main.table_info(${quoteIdent(table)})`).all() as {
          name: string;
        }[]).map((c) => c.name);
        const copying = insertInBatches(out, { into: table, columns, from, where, values }, count.n);
        await inBatches(`backing up ${table} rows of ${database}`, count.n, copying, feedback);
      }
      out.exec("COMMIT");
      out.exec("DETACH DATABASE source");
    } finally {
      out.close();
    }
  } catch (error) {
    // A backup cut short (a full disk) is no backup: nothing of it stays.
    rmSync(target, { force: true });
    throw storeFailure(target, error);
  }
  recordCopy(target, database);
  crashPoint("backup-taken");
  checkpoint();
  return target;
}
