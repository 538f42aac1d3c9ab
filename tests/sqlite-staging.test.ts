/**
 * Rows staged for a table (stageRows) wait in the connection's temp database, in large pages and a cache
 * bounded in bytes (STAGING_PRAGMAS in lib/store/sqlite.ts), and move into the table unchanged and in order.
 * Structural: nothing is timed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { openForWrite, stageRows } from "../lib/store/sqlite.ts";
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

/** Moves every staged row in one transaction, as a handoff does; returns how many moved. */
function moveAll(db: DatabaseSync, staged: Awaited<ReturnType<typeof stageRows>>): number {
  db.exec("BEGIN IMMEDIATE");
  const batches = moveStaged(db, staged);
  let next = batches.next();
  while (!next.done) next = batches.next();
  db.exec("COMMIT");
  return next.value;
}

test("rows wait in 64 KiB temp pages with a cache of 2 MB, the store keeping its own pages", async () => {
  const rows = rowsOf(300);
  const db = openForWrite(store("pages.db"));
  try {
    // As a handoff does, the connection reads its store first: the temp cache is then left at 0 (SQLite's
    // default, counted in pages) unless set.
    db.prepare("SELECT count(*) FROM t").get();
    const staged = await stageRows(db, "t", rows);
    assert.equal(pragma(db, "temp.page_size"), 65536);
    assert.equal(pragma(db, "temp.cache_size"), -2000, "the cache is counted in KiB, not in (larger) pages");
    assert.equal(moveAll(db, staged), rows.length);
    assert.equal(pragma(db, "main.page_size"), 4096);
    assert.deepEqual(db.prepare("SELECT a, b FROM t ORDER BY id").all().map((r) => ({ ...r })), rows);
  } finally {
    db.close();
  }
});
