/**
 * Statements over many rows cut into batches of a few thousand, so that a long step can say how far it is.
 * One statement into (or out of) a table with full-text triggers, Hermes's `messages`, runs for seconds on a
 * long session (a 70 MB one: 33,510 rows, about 4 s), and SQLite says nothing while it runs. Batches are
 * kept large because FTS5 writes its pending index at the end of every statement: measured on that session,
 * 4,096 rows a statement cost 3-5 % more than one statement, 1,024 rows 5-8 %. A step never takes more
 * than MAX_BATCHES statements, so a session ten times as long moves in batches ten times as large. Between
 * batches a Ctrl-C gets in (inBatches): the transaction they run in then rolls back, where one statement
 * would have run to its end first.
 */
import type { DatabaseSync } from "node:sqlite";
import {
  quoteIdent,
  readyStaging,
  type RowRun,
  type StagedRows,
  type StageRow,
  stagingTable,
} from "./sqlite.ts";
import { type Feedback, startProgress } from "../io/progress.ts";
import { yieldAndCheckpoint } from "../io/interrupt.ts";

/** A statement in batches: yields the rows done so far after each batch, returns the rows done in all. */
export type Batches = Generator<number, number, void>;

/**
 * Runs `batches` as one progress step over `total` rows (or more, if they find more), and lets a signal in
 * after each batch: under holdingSignals a Ctrl-C then throws, and the transaction they run in rolls back.
 */
export async function inBatches(
  what: string,
  total: number,
  batches: Batches,
  feedback?: Feedback,
): Promise<number> {
  const step = startProgress(feedback, what, "rows", total);
  try {
    for (;;) {
      const next = batches.next();
      if (!next.done) step.advance(next.value, Math.max(next.value, total));
      // After the last batch too (or the one statement of a short step): a signal that came during the step
      // stops it before its transaction commits.
      await yieldAndCheckpoint();
      if (next.done) return next.value;
    }
  } finally {
    step.finish();
  }
}

const MIN_BATCH_ROWS = 4096;
const MAX_BATCHES = 32;

/** Rows per statement for a step over `rows` rows. */
const batchRows = (rows: number): number => Math.max(MIN_BATCH_ROWS, Math.ceil(rows / MAX_BATCHES));

/**
 * A rowid table can be walked by rowid; a `WITHOUT ROWID` table (none of the harnesses' tables this works
 * on, but a ledger names its tables as it was written) is worked on in one statement.
 */
function hasRowid(db: DatabaseSync, table: string): boolean {
  const row = db.prepare("SELECT wr FROM pragma_table_list WHERE name = ? AND schema = 'main'").get(table) as
    | { wr: number }
    | undefined;
  return row?.wr === 0;
}

/**
 * Deletes the rows of `table` that `where` (bound to `values`) matches, in batches of about `expected` / 32
 * rows. Triggers fire as for one statement.
 */
export function* deleteInBatches(
  db: DatabaseSync,
  table: string,
  where: string,
  values: (string | number)[],
  expected: number,
): Batches {
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
    yield deleted;
  }
  return deleted;
}

export interface Copy {
  /** The table rows go into, in the main database. */
  into: string;
  /** The columns copied, by name, in both tables. */
  columns: readonly string[];
  /** The table rows come from, qualified (`temp."t"`, `"saved0"."messages"`); read in rowid order. */
  from: string;
  /** Which of its rows, bound to `values`. */
  where: string;
  values: (string | number)[];
}

/**
 * Copies the rows `copy` names in rowid order, in batches of about `expected` / 32 rows, the source's rowids
 * bounding each batch. What it yields counts on from `before` (rows an earlier copy of the same step did).
 */
export function* insertInBatches(db: DatabaseSync, copy: Copy, expected: number, before = 0): Batches {
  const list = copy.columns.map(quoteIdent).join(", ");
  const insert = `INSERT INTO main.${quoteIdent(copy.into)} (${list}) SELECT ${list} FROM ${copy.from}`;
  // The source is a staging table or a backup's copy of the target: it has rowids when the target has.
  const walkable = hasRowid(db, copy.into);
  if (expected <= MIN_BATCH_ROWS || !walkable) {
    const order = walkable ? " ORDER BY rowid" : "";
    return Number(db.prepare(`${insert} WHERE ${copy.where}${order}`).run(...copy.values).changes);
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
    yield before + copied;
    if (last === INT64_MAX) return copied;
    from = last + 1n;
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Inserts rows staged by stageRows (lib/store/sqlite.ts) into their table, in the order staged, a batch at a
 * time. Inserted a row per statement instead, they would leave FTS5 a segment per row to merge: three times
 * the work of one statement.
 */
export function* moveStaged(db: DatabaseSync, staged: StagedRows): Batches {
  let moved = 0;
  for (const { temp, names } of staged.runs) {
    const copy = { into: staged.table, columns: names, from: temp, where: "1", values: [] };
    moved += yield* insertInBatches(db, copy, staged.count, moved);
  }
  return moved;
}

/**
 * Rows that arrive in batches while a write transaction is open (lib/store/write-thread.ts), inserted into
 * `table` in order: each run of a batch is staged in a temp table of its shape, then copied from there as
 * moveStaged copies (insertInBatches), so a table with full-text triggers indexes a batch at once. Each temp
 * table is appended to, and copied from the rows after those copied before.
 */
export class ArrivingRows {
  private readonly staging = new Map<string, { temp: string; stage: StageRow; moved: number }>();
  private inserted = 0;

  constructor(private readonly db: DatabaseSync, private readonly table: string) {
    readyStaging(db);
  }

  /** Inserts `runs` in order; returns how many rows have been inserted in all. */
  insert(runs: readonly RowRun[]): number {
    for (const { names, rows } of runs) {
      const staged = this.stagingFor(names);
      for (const values of rows) staged.stage(values);
      const copy = {
        into: this.table,
        columns: names,
        from: staged.temp,
        where: "rowid > ?",
        values: [staged.moved],
      };
      const copying = insertInBatches(this.db, copy, rows.length);
      for (let next = copying.next(); !next.done; next = copying.next());
      staged.moved += rows.length;
      this.inserted += rows.length;
    }
    return this.inserted;
  }

  private stagingFor(names: readonly string[]) {
    const shape = names.join("\u0000");
    const known = this.staging.get(shape);
    if (known) return known;
    const temp = `temp.${quoteIdent(`session_bridge_arriving_${this.table}_${this.staging.size}`)}`;
    const made = { temp, stage: stagingTable(this.db, temp, names), moved: 0 };
    this.staging.set(shape, made);
    return made;
  }
}
