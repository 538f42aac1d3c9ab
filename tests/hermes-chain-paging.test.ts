/**
 * A long Hermes session is read from state.db a page of rows at a time (lib/harnesses/hermes/database.ts
 * `chainMessages`). Each page must continue by row id from where the last stopped: left to Hermes's session
 * index, every page gathered and sorted all of the session's later rows, and a 335,000-row session took
 * 200 s of CPU to read instead of 25.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { chainMessages, chainPageSql } from "../lib/harnesses/hermes/database.ts";
import { HERMES_VERSIONS, hermesFixture } from "./helpers/hermes.ts";
import { tempDir } from "./helpers/tmp.ts";

test("a Hermes chain's pages walk the table by row id, whatever indexes the real Hermes schema has", () => {
  for (const version of HERMES_VERSIONS) {
    const db = new DatabaseSync(hermesFixture(version, "compressed.state.db"), { readOnly: true });
    try {
      for (const sessions of [1, 3]) {
        const plan = db.prepare(`EXPLAIN QUERY PLAN ${chainPageSql(sessions)}`)
          .all(...Array.from({ length: sessions }, () => "x"), 0, 10)
          .map((row) => String(row.detail)).join("; ");
        assert.match(plan, /USING INTEGER PRIMARY KEY \(rowid>\? AND rowid<\?\)/, `${version}: ${plan}`);
        assert.doesNotMatch(plan, /TEMP B-TREE/, `${version}: ${plan}`);
      }
    } finally {
      db.close();
    }
  }
});

test("a Hermes session read across many pages gives every row of its own in id order, none of another's", () => {
  const dir = tempDir("hermes-paging");
  const path = join(dir, "state.db");
  copyFileSync(hermesFixture("0.19.0", "text-turns.state.db"), path);
  const db = new DatabaseSync(path);
  let own: string;
  let other: string;
  try {
    own = String((db.prepare("SELECT id FROM sessions LIMIT 1").get() as { id: string }).id);
    other = `${own}-other`;
    db.prepare(
      `INSERT INTO sessions (id, source, model, started_at) SELECT ?, source, model, started_at FROM sessions
       WHERE id = ?`,
    ).run(other, own);
    // 1,700 rows interleaved with another session's, so pages of 500 start and stop among both.
    const copy = db.prepare(
      `INSERT INTO messages (session_id, role, content, timestamp)
       SELECT ?, role, ?, timestamp FROM messages WHERE session_id = ? ORDER BY id LIMIT 1`,
    );
    db.exec("BEGIN");
    for (let i = 0; i < 1_700; i++) {
      copy.run(own, `own ${i}`, own);
      if (i % 3 !== 0) copy.run(other, `other ${i}`, own);
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
  const reader = new DatabaseSync(path, { readOnly: true });
  try {
    const want = reader.prepare("SELECT id FROM messages WHERE session_id = ? ORDER BY id").all(own)
      .map((row) => Number(row.id));
    const rows = [...chainMessages(reader, path, [own])];
    assert.ok(want.length > 1_700);
    assert.deepEqual(rows.map((row) => Number(row.id)), want);
    assert.ok(rows.every((row) => row.session_id === own));
    assert.equal(rows.at(-1)!.content, "own 1699");
    assert.equal([...chainMessages(reader, path, ["no-such-session"])].length, 0);
  } finally {
    reader.close();
  }
});
