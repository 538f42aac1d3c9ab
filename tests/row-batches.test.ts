/**
 * Long statements in batches (lib/store/row-batches.ts), on the store real Hermes 0.19.0 wrote, its FTS
 * triggers firing: every row a batched delete or copy names is deleted or copied, in order, no other row, the
 * full-text index kept in step, and how far it is told after each batch.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { seedHermesHome } from "./helpers/hermes.ts";
import { tempDir } from "./helpers/tmp.ts";
import { type Batches, deleteInBatches, insertInBatches, moveStaged } from "../lib/store/row-batches.ts";
import { openForWrite, stageRows } from "../lib/store/sqlite.ts";

const ROWS = 10_000;

/** A Hermes store holding, besides its own, session `long` of ROWS messages saying `word-<n>`. */
function storeWithLongSession(dir: string): DatabaseSync {
  const db = new DatabaseSync(seedHermesHome(join(dir, "hermes"), "0.19.0", "text-turns"));
  db.exec(`INSERT INTO sessions (id, source, started_at) VALUES ('long', 'cli', 1)`);
  const insert = db.prepare(
    "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('long', 'user', ?, ?)",
  );
  db.exec("BEGIN");
  for (let n = 0; n < ROWS; n++) insert.run(`word-${n} zebra`, n);
  db.exec("COMMIT");
  return db;
}

/** Runs every batch: what each told, and the rows done in all. */
function drain(batches: Batches): { told: number[]; total: number } {
  const told: number[] = [];
  for (let next = batches.next();; next = batches.next()) {
    if (next.done) return { told, total: next.value };
    told.push(next.value);
  }
}

const count = (db: DatabaseSync, sql: string, ...values: string[]) =>
  (db.prepare(sql).get(...values) as { n: number }).n;

test("a batched delete removes exactly the rows named, keeps the full-text index in step, tells each batch", () => {
  const db = storeWithLongSession(tempDir("row-batches"));
  try {
    const others = count(db, "SELECT count(*) AS n FROM messages WHERE session_id != 'long'");
    assert.ok(others > 0);
    assert.equal(count(db, "SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'zebra'"), ROWS);
    db.exec("BEGIN");
    const { told, total: deleted } = drain(
      deleteInBatches(db, "messages", `"session_id" = ?`, ["long"], ROWS),
    );
    db.exec("COMMIT");
    assert.equal(deleted, ROWS);
    assert.ok(told.length >= 2, `told ${told.length} times`);
    assert.deepEqual(told, [...told].sort((a, b) => a - b));
    assert.equal(told.at(-1), ROWS);
    assert.equal(count(db, "SELECT count(*) AS n FROM messages WHERE session_id = 'long'"), 0);
    assert.equal(count(db, "SELECT count(*) AS n FROM messages WHERE session_id != 'long'"), others);
    assert.equal(count(db, "SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'zebra'"), 0);
    assert.equal(count(db, "SELECT count(*) AS n FROM messages_fts_trigram WHERE content LIKE '%zebra%'"), 0);
  } finally {
    db.close();
  }
});

test("a batched copy takes every row in rowid order, rowids past 2^53 and below zero too, triggers firing", () => {
  const dir = tempDir("row-batches-copy");
  const source = storeWithLongSession(join(dir, "source"));
  // Rowids a number cannot hold exactly, and the least of all, bound each side of a batch.
  source.exec(`UPDATE messages SET id = 9007199254740993 + id WHERE session_id = 'long' AND id % 3 = 0`);
  source.exec(
    `UPDATE messages SET id = -9223372036854775808 WHERE session_id = 'long' AND content = 'word-1 zebra'`,
  );
  const want = source.prepare("SELECT id, content FROM messages WHERE session_id = 'long' ORDER BY id");
  want.setReadBigInts(true);
  const rows = want.all();
  source.close();
  const db = new DatabaseSync(seedHermesHome(join(dir, "target"), "0.19.0", "text-turns"));
  try {
    db.prepare("ATTACH DATABASE ? AS src").run(join(dir, "source", "hermes", "state.db"));
    db.exec(`INSERT INTO sessions (id, source, started_at) VALUES ('long', 'cli', 1)`);
    const columns = ["id", "session_id", "role", "content", "timestamp"];
    db.exec("BEGIN");
    const { told, total: copied } = drain(insertInBatches(
      db,
      { into: "messages", columns, from: "src.messages", where: `"session_id" = ?`, values: ["long"] },
      ROWS,
    ));
    db.exec("COMMIT");
    assert.equal(copied, ROWS);
    assert.ok(told.length >= 2, `told ${told.length} times`);
    assert.equal(told.at(-1), ROWS);
    const got = db.prepare("SELECT id, content FROM main.messages WHERE session_id = 'long' ORDER BY id");
    got.setReadBigInts(true);
    assert.deepEqual(got.all(), rows);
    assert.equal(count(db, "SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'zebra'"), ROWS);
  } finally {
    db.close();
  }
});

/** ROWS messages of session `long` in two runs: the second half, with a tool name, names one more column. */
function* twoShapesOfRows() {
  for (let n = 0; n < ROWS; n++) {
    const row = { session_id: "long", role: "user", content: `word-${n} zebra`, timestamp: n };
    const shaped = n < ROWS / 2 ? row : { ...row, tool_name: "shell" };
    yield { names: Object.keys(shaped), values: Object.values(shaped) };
  }
}

test("rows staged with no listener are counted, and move in the order staged across runs of other columns", async () => {
  const dir = tempDir("row-batches-staged");
  // A store connection, as a handoff opens it (its statements name the database when they fail).
  const db = openForWrite(seedHermesHome(join(dir, "hermes"), "0.19.0", "text-turns"));
  try {
    db.exec(`INSERT INTO sessions (id, source, started_at) VALUES ('long', 'cli', 1)`);
    const staged = await stageRows(db, "messages", twoShapesOfRows());
    // The count sizes the move's batches and the sessions row's message count: it was 0 with no listener.
    assert.equal(staged.count, ROWS);
    assert.equal(staged.runs.length, 2);
    db.exec("BEGIN");
    const { told, total } = drain(moveStaged(db, staged));
    assert.equal(total, ROWS);
    db.exec("COMMIT");
    assert.deepEqual(told, [...told].sort((a, b) => a - b));
    assert.equal(told.at(-1), ROWS);
    const contents = db.prepare("SELECT content FROM messages WHERE session_id = 'long' ORDER BY id").all();
    assert.deepEqual(
      contents.map((r) => r.content),
      Array.from({ length: ROWS }, (_, n) => `word-${n} zebra`),
    );
    assert.equal(count(db, "SELECT count(*) AS n FROM messages WHERE tool_name = 'shell'"), ROWS / 2);
    assert.equal(count(db, "SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'zebra'"), ROWS);
  } finally {
    db.close();
  }
});

test("a table without rowids is deleted from and copied into in one statement each", () => {
  const db = new DatabaseSync(":memory:");
  try {
    db.exec("CREATE TABLE kv (k TEXT PRIMARY KEY, owner TEXT) WITHOUT ROWID");
    db.exec("CREATE TEMP TABLE saved (k TEXT PRIMARY KEY, owner TEXT) WITHOUT ROWID");
    for (const table of ["main.kv", "temp.saved"]) {
      const insert = db.prepare(`INSERT INTO ${table} VALUES (?, ?)`);
      for (let n = 0; n < ROWS; n++) insert.run(`k${n}`, n % 2 ? "a" : "b");
    }
    const removed = drain(deleteInBatches(db, "kv", `"owner" = ?`, ["a"], ROWS / 2));
    assert.deepEqual(removed, { told: [], total: ROWS / 2 });
    assert.equal(count(db, "SELECT count(*) AS n FROM kv WHERE owner = 'a'"), 0);
    const copy = {
      into: "kv",
      columns: ["k", "owner"],
      from: "temp.saved",
      where: `"owner" = ?`,
      values: ["a"],
    };
    assert.deepEqual(drain(insertInBatches(db, copy, ROWS / 2)), { told: [], total: ROWS / 2 });
    assert.equal(count(db, "SELECT count(*) AS n FROM kv"), ROWS);
  } finally {
    db.close();
  }
});
