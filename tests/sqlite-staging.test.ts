/**
 * Rows staged for a table (stageRows) wait in the connection's temp database, in large pages and a cache
 * bounded in bytes (STAGING_PRAGMAS in lib/store/sqlite.ts), a temp table per run of rows naming the same
 * columns, and move into the table unchanged and in order; rows of several tables made together are staged in
 * one pass (stageTables), none held until another's are. Structural: nothing is timed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { openForWrite, type StagedRow, stageRows, stageTables } from "../lib/store/sqlite.ts";
import { moveStaged } from "../lib/store/row-batches.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir();

/** A store with one table whose ids SQLite assigns, as Hermes's `messages`. */
function store(name: string): string {
  const path = join(dir, name);
  const setup = new DatabaseSync(path);
  setup.exec("CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT, a TEXT, b INTEGER)");
  setup.close();
  return path;
}

const pragma = (db: DatabaseSync, name: string): unknown =>
  Object.values(db.prepare(`PRAGMA ${name}`).get() as Record<string, unknown>)[0];

const rowsOf = (n: number) => Array.from({ length: n }, (_, i) => ({ a: `${"x".repeat(3000)} ${i}`, b: i }));

/** Each row with a names array of its own, as a caller that shares none would give them. */
const staging = (rows: Record<string, unknown>[]): StagedRow[] =>
  rows.map((row) => ({ names: Object.keys(row), values: Object.values(row) }));

/** Moves every staged row in one transaction, as a handoff does; returns how many moved. */
function moveAll(db: DatabaseSync, staged: Awaited<ReturnType<typeof stageRows>>): number {
  db.exec("BEGIN IMMEDIATE");
  const batches = moveStaged(db, staged);
  let next = batches.next();
  while (!next.done) next = batches.next();
  db.exec("COMMIT");
  return next.value;
}

const stored = (db: DatabaseSync) =>
  db.prepare("SELECT a, b FROM t ORDER BY id").all().map((r) => ({ ...r }));

test("rows wait in 64 KiB temp pages with a cache of 2 MB, the store keeping its own pages", async () => {
  const rows = rowsOf(300);
  const db = openForWrite(store("pages.db"));
  try {
    // As a handoff does, the connection reads its store first: the temp cache is then left at 0 (SQLite's
    // default, counted in pages) unless set.
    db.prepare("SELECT count(*) FROM t").get();
    const staged = await stageRows(db, "t", staging(rows));
    assert.equal(pragma(db, "temp.page_size"), 65536);
    assert.equal(pragma(db, "temp.cache_size"), -2000, "the cache is counted in KiB, not in (larger) pages");
    assert.equal(moveAll(db, staged), rows.length);
    assert.equal(pragma(db, "main.page_size"), 4096);
    assert.deepEqual(stored(db), rows);
  } finally {
    db.close();
  }
});

test("rows naming the same columns share a temp table however their names come; another shape gets its own", async () => {
  const db = openForWrite(store("runs.db"));
  try {
    const ab = ["a", "b"];
    const rows: StagedRow[] = [
      { names: ab, values: ["one", 1] },
      { names: ab, values: ["two", 2] },
      { names: ["a", "b"], values: ["three", 3] },
      { names: ["a"], values: ["four"] },
      { names: ["a", "b"], values: ["five", true] },
    ];
    const staged = await stageRows(db, "t", rows);
    assert.deepEqual(staged.runs.map((r) => r.names), [["a", "b"], ["a"], ["a", "b"]]);
    assert.equal(moveAll(db, staged), 5);
    // A row without a column leaves it to the table (NULL here, its default where it has one), and values go
    // in as sqlValue makes them (true as 1).
    assert.deepEqual(stored(db), [
      { a: "one", b: 1 },
      { a: "two", b: 2 },
      { a: "three", b: 3 },
      { a: "four", b: null },
      { a: "five", b: 1 },
    ]);
  } finally {
    db.close();
  }
});

test("rows of two tables made together are staged in one pass: each table's in order, a temp table per shape, not per switch", async () => {
  const path = store("tables.db");
  const setup = new DatabaseSync(path);
  setup.exec("CREATE TABLE u (id INTEGER PRIMARY KEY AUTOINCREMENT, c TEXT)");
  setup.close();
  const db = openForWrite(path);
  try {
    const [ab, c] = [["a", "b"], ["c"]];
    // A `u` row, then the `t` rows that go with it, as a writer makes a message's row and then its parts'.
    const rows: (StagedRow & { table: "t" | "u" })[] = Array.from({ length: 50 }, (_, i) => [
      { table: "u" as const, names: c, values: [`u${i}`] },
      { table: "t" as const, names: ab, values: [`t${i}`, i] },
      { table: "t" as const, names: ab, values: [`t${i}+`, 100 + i] },
    ]).flat();
    const told: number[] = [];
    const staged = await stageTables(db, ["u", "t"], rows, (row) => row.table, (n) => told.push(n));
    assert.deepEqual([staged.u.count, staged.t.count], [50, 100]);
    assert.deepEqual([staged.u.runs.length, staged.t.runs.length], [1, 1]);
    assert.deepEqual(told, rows.map((_, i) => i + 1));
    assert.equal(moveAll(db, staged.u), 50);
    assert.equal(moveAll(db, staged.t), 100);
    assert.deepEqual(
      db.prepare("SELECT c FROM u ORDER BY id").all().map((r) => r.c),
      rows.filter((r) => r.table === "u").map((r) => r.values[0]),
    );
    assert.deepEqual(
      stored(db),
      rows.filter((r) => r.table === "t").map((r) => ({ a: r.values[0], b: r.values[1] })),
    );
  } finally {
    db.close();
  }
});
