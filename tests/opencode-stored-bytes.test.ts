import { test } from "node:test";
import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { storedBytes } from "../lib/harnesses/opencode/rows.ts";

test("an OpenCode session's stored size counts the bytes of its rows' data, not their characters", () => {
  const db = new DatabaseSync(":memory:");
  try {
    db.exec(
      "CREATE TABLE message (session_id TEXT, data TEXT); CREATE TABLE part (session_id TEXT, data TEXT)",
    );
    const text = JSON.stringify({ text: "é→😀" }); // 2 + 3 + 4 bytes for 3 characters (😀 is 2 UTF-16 units)
    db.prepare("INSERT INTO message VALUES (?, ?)").run("ses_a", text);
    db.prepare("INSERT INTO part VALUES (?, ?), (?, ?)").run("ses_a", text, "ses_b", text);
    assert.equal(storedBytes(db, "ses_a"), 2 * Buffer.byteLength(text));
    assert.equal(storedBytes(db, "ses_none"), 0);
  } finally {
    db.close();
  }
});
