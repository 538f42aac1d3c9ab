/**
 * The bench's floors (issue 34): what each conversion is set against must read every record it read and write
 * every record it wrote, or the ratios in `npm run bench` measure nothing. bench/convert-floor.ts copies a
 * session's lines; bench/pair-floor.ts reads a source's store (JSONL lines, or every row of a SQLite store but
 * its full-text index) and writes what a conversion wrote (a file's records, or a database's rows into a copy).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import { tempDir } from "./helpers/tmp.ts";
import { generateClaudeSession } from "../bench/session.ts";
import { floorCopy } from "../bench/convert-floor.ts";
import { pairFloor } from "../bench/pair-floor.ts";

const HERMES = fileURLToPath(new URL("../fixtures/hermes/0.19.0/text-turns.state.db", import.meta.url));
/** The tables of Hermes 0.19.0's store that hold records (its messages_fts* tables are the full-text index). */
const HERMES_RECORD_TABLES = [
  "schema_version",
  "sessions",
  "messages",
  "session_model_usage",
  "state_meta",
  "gateway_routing",
  "compression_locks",
  "async_delegations",
];

const rowsIn = (path: string, tables: string[]) => {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return tables.reduce(
      (sum, t) => sum + (db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n,
      0,
    );
  } finally {
    db.close();
  }
};

test("the convert floor writes back every line of the session it read, byte for byte", () => {
  const dir = tempDir();
  const session = join(dir, "session.jsonl");
  const { records } = generateClaudeSession(session, 1);
  const out = join(dir, "floor.jsonl");
  assert.equal(floorCopy(session, out), records);
  assert.ok(readFileSync(out).equals(readFileSync(session)));
});

test("the pair floor reads every line of a JSONL source and writes every record of a JSONL output", () => {
  const dir = tempDir();
  const source = join(dir, "source.jsonl");
  const { records } = generateClaudeSession(source, 1);
  const output = join(dir, "output.jsonl");
  writeFileSync(output, '{"a":1}\n{"b":[2,3]}\n{"c":"\\u00e9"}\n');
  const floor = pairFloor(source, output, join(dir, "scratch.jsonl"));
  assert.equal(floor.read, records);
  assert.equal(floor.written, 3);
  assert.equal(readFileSync(join(dir, "scratch.jsonl"), "utf8"), '{"a":1}\n{"b":[2,3]}\n{"c":"é"}\n');
});

test("the pair floor writes a whole-file JSON output as its one value", () => {
  const dir = tempDir();
  const source = join(dir, "source.jsonl");
  generateClaudeSession(source, 1);
  const output = join(dir, "export.json");
  writeFileSync(output, JSON.stringify({ info: { id: "x" }, messages: [1, 2] }, null, 2));
  const floor = pairFloor(source, output, join(dir, "scratch.json"));
  assert.equal(floor.written, 1);
  assert.deepEqual(JSON.parse(readFileSync(join(dir, "scratch.json"), "utf8")), {
    info: { id: "x" },
    messages: [1, 2],
  });
});

test("the pair floor reads every row of a SQLite store but its full-text index, and writes a database's rows into a copy", () => {
  const dir = tempDir();
  const store = join(dir, "state.db");
  copyFileSync(HERMES, store);
  const scratch = join(dir, "scratch.db");
  const floor = pairFloor(`${store}#20260101_000000_abcdef`, store, scratch);
  const rows = rowsIn(HERMES, HERMES_RECORD_TABLES);
  assert.equal(floor.read, rows);
  assert.equal(floor.written, rows);
  assert.equal(rowsIn(scratch, HERMES_RECORD_TABLES), rows);
  // Inserted through Hermes's own triggers: its full-text index holds every message again.
  assert.equal(rowsIn(scratch, ["messages_fts"]), rowsIn(HERMES, ["messages"]));
});

test("a handoff's floor inserts the rows it added to an index database, its full-text index included, into a copy of the database as it was before", () => {
  const dir = tempDir();
  const source = join(dir, "session.jsonl");
  generateClaudeSession(source, 1);
  const output = join(dir, "events.jsonl");
  writeFileSync(output, '{"type":"session.start"}\n');
  const before = join(dir, "before.db");
  const db = new DatabaseSync(before);
  db.exec(`
    CREATE TABLE turns (id INTEGER PRIMARY KEY AUTOINCREMENT, text TEXT);
    CREATE VIRTUAL TABLE search USING fts5(content, source UNINDEXED);
    CREATE TABLE config (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID;
    INSERT INTO turns (text) VALUES ('old one'), ('old two');
    INSERT INTO search VALUES ('old one', 'a'), ('old two', 'a');
    INSERT INTO config VALUES ('k', 'v');
  `);
  db.close();
  const after = join(dir, "after.db");
  copyFileSync(before, after);
  const grown = new DatabaseSync(after);
  grown.exec(`
    INSERT INTO turns (text) VALUES ('new one'), ('new two'), ('new three');
    INSERT INTO search VALUES ('new one', 'b'), ('new two', 'b'), ('new three', 'b');
  `);
  grown.close();
  const scratch = join(dir, "scratch.jsonl");
  const floor = pairFloor(source, output, scratch, [{ before, after }]);
  assert.equal(floor.written, 1);
  // Three turns and their three entries in the full-text index; the table without row ids is left alone.
  assert.equal(floor.indexRows, 6);
  const copy = new DatabaseSync(`${scratch}.index-0.db`, { readOnly: true });
  try {
    assert.equal((copy.prepare("SELECT count(*) AS n FROM turns").get() as { n: number }).n, 5);
    const found = copy.prepare("SELECT count(*) AS n FROM search WHERE search MATCH 'new'").get() as {
      n: number;
    };
    assert.equal(found.n, 3);
  } finally {
    copy.close();
  }
});
