/**
 * Statements over many rows cut into batches of a few thousand, so that a long step can say how far it is.
 * One statement into (or out of) a table with full-text triggers, Hermes's `messages`, runs for seconds on a
 * long session (a 70 MB one: 33,510 rows, about 4 s), and SQLite says nothing while it runs. Batches are
 * kept large because FTS5 writes its pending index at the end of every statement: measured on that session,
 * 4,096 rows a statement cost 3-5 % more than one statement, 1,024 rows 5-8 %. A step never takes more
 * than MAX_BATCHES statements, so a session ten times as long moves in batches ten times as large.
 */
import type { DatabaseSync } from "node:sqlite";
import { quoteIdent, type StagedRows } from "./sqlite.ts";

const MIN_BATCH_ROWS = 4096;
const MAX_BATCHES = 32;

/** Rows per statement for a step over `rows` rows. */
const batchRows = (rows: number): number => Math.max(MIN_BATCH_ROWS, Math.ceil(rows / MAX_BATCHES));

/**
 * A rowid table can be walked by rowid; a `WITHOUT ROWID` table (none of the harnesses' tables this moves
 * in, but a ledger names its tables as it was written) is worked on in one statement.
 */
function hasRowid(db: DatabaseSync, table: string): boolean {
  const row = db.prepare("SELECT wr FROM pragma_table_list WHERE name = ? AND schema = 'main'").get(table) as
    | { wr: number }
    | undefined;
  return row?.wr === 0;
}

/**
 * Deletes the rows of `table` that `where` (bound to `values`) matches, in batches of about `expected` / 32
 * rows (`done` told after each the rows deleted so far); returns how many rows were deleted. Triggers fire
 * as for one statement.
 */
export function deleteInBatches(
  db: DatabaseSync,
  table: string,
  where: string,
  values: (string | number)[],
  expected: number,
  done?: (rows: number) => void,
): number {
  const name = quoteIdent(table);
  if (expected <= MIN_BATCH_ROWS || !hasRowid(db, table)) {
    return Number(db.prepare(`DELETE FROM ${name} WHERE ${where}`).run(...values).changes);
  }
  const batch = db.prepare(
    `DELETE FROM ${name} WHERE rowid IN (SELECT rowid FROM ${name} WHERE ${where} LIMIT ${
      batchRows(expected)
    })`,
  );
  let deleted = 0;
  for (let n; (n = Number(batch.run(...values).changes)) > 0;) {
    deleted += n;
    done?.(deleted);
  }
  return deleted;
}

export interface Copy {
  /** The table rows go into, in the main database. */
  into: string;
  /** The columns copied, by name, in both tables. */
  columns: string[];
  /** The table rows come from, qualified (`temp."t"`, `"saved0"."messages"`); read in rowid order. */
  from: string;
  /** Which of its rows, bound to `values`. */
  where: string;
  values: (string | number)[];
}

/**
 * Copies the rows `copy` names in rowid order, in batches of about `expected` / 32 rows (`done` told after each
 * the rows copied so far), the source's rowids bounding each batch; returns how many rows were copied.
 */
export function insertInBatches(
  db: DatabaseSync,
  copy: Copy,
  expected: number,
  done?: (rows: number) => void,
): number {
  const list = copy.columns.map(quoteIdent).join(", ");
  const insert = `INSERT INTO main.${quoteIdent(copy.into)} (${list}) SELECT ${list} FROM ${copy.from}`;
  if (expected <= MIN_BATCH_ROWS) {
    return Number(db.prepare(`${insert} WHERE ${copy.where} ORDER BY rowid`).run(...copy.values).changes);
  }
  const size = batchRows(expected);
  // The batch's last rowid first, then its rows up to that: one bound each side, no OFFSET to count through.
  // Rowids are read and bound as BigInts: they span all of int64, past what a number holds exactly.
  const end = db.prepare(
    `SELECT max(rowid) AS last FROM (SELECT rowid FROM ${copy.from} WHERE (${copy.where}) AND rowid >= ?
     ORDER BY rowid LIMIT ${size})`,
  );
  end.setReadBigInts(true);
  const batch = db.prepare(`${insert} WHERE (${copy.where}) AND rowid >= ? AND rowid <= ? ORDER BY rowid`);
  let copied = 0;
  for (let from = INT64_MIN;;) {
    const last = (end.get(...copy.values, from) as { last: bigint | null }).last;
    if (last === null) return copied;
    copied += Number(batch.run(...copy.values, from, last).changes);
    done?.(copied);
    if (last === INT64_MAX) return copied;
    from = last + 1n;
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Inserts rows staged by stageRows (lib/store/sqlite.ts) into their table, in the order staged, a batch at a
 * time (`done` told the rows moved so far); returns how many rows moved. Staged, a row per statement would be
 * no slower to stage but a segment per row for FTS5 to merge: three times the work of one statement.
 */
export function moveStaged(db: DatabaseSync, staged: StagedRows, done?: (rows: number) => void): number {
  let moved = 0;
  for (const { temp, names } of staged.runs) {
    const before = moved;
    const copy = { into: staged.table, columns: names, from: temp, where: "1", values: [] };
    moved += insertInBatches(db, copy, staged.count, (rows) => done?.(before + rows));
  }
  return moved;
}
