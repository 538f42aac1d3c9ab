/**
 * A large OpenCode session is converted streamed (lib/harnesses/opencode/read.ts `openOpenCodeSession`): its
 * rows indexed once, read whole once for everything but the live thread, and the live thread read again from
 * opencode.db on each pass. What it gives must be the very session the held reader gives, for every session of
 * every opencode.db the real OpenCode wrote (and those with a pending revert cutting a message); rows removed
 * between passes are bad input naming the database, and rows added since the index are left out.
 */
import {
  assertChangeRefused,
  assertSpilledApart,
  assertStreamedAsHeld,
  changeDatabase,
  STREAM_ALL,
} from "./helpers/streaming.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { openOpenCodeSession, readOpenCodeSession } from "../lib/harnesses/opencode/read.ts";
import { sessionLocator } from "../lib/harnesses/locator.ts";
import { holdSession } from "../lib/ir/stream.ts";
import { tempDir } from "./helpers/tmp.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/opencode/1.18.33/", import.meta.url));

function query(db: string, sql: string, ...params: string[]): Record<string, unknown>[] {
  const conn = new DatabaseSync(db, { readOnly: true });
  try {
    return conn.prepare(sql).all(...params) as Record<string, unknown>[];
  } finally {
    conn.close();
  }
}

/** Every session of a database, as `<db>#<id>`. */
const sessionsOf = (db: string) =>
  query(db, "SELECT id FROM session ORDER BY id").map((row) => sessionLocator(db, String(row.id)));

const databases = () =>
  readdirSync(FIXTURES).filter((name) => name.endsWith(".opencode.db")).sort().map((name) =>
    join(FIXTURES, name)
  );

/** A private copy of a captured database. */
function privateCopy(name: string): string {
  const db = join(tempDir(), "opencode.db");
  copyFileSync(join(FIXTURES, name), db);
  return db;
}

/** A private copy of exec-tools, and the locator of its session that called tools. */
function toolsCopy(): { db: string; locator: string; id: string } {
  const db = privateCopy("exec-tools.opencode.db");
  const [row] = query(db, "SELECT session_id FROM part WHERE json_extract(data, '$.type') = 'tool' LIMIT 1");
  const id = String(row!.session_id);
  return { db, locator: sessionLocator(db, id), id };
}

test("a streamed OpenCode session is the held session, for every session of every opencode.db OpenCode wrote", async () => {
  const locators = databases().flatMap(sessionsOf);
  assert.ok(locators.length >= 10, `only ${locators.length} sessions found`);
  for (const locator of locators) {
    await assertStreamedAsHeld(
      locator,
      await openOpenCodeSession(locator, STREAM_ALL),
      await readOpenCodeSession(locator),
    );
  }
});

test("a streamed session with a pending revert cutting a message is the held session", async () => {
  const db = privateCopy("tools-subagent.opencode.db");
  // Every message of two parts or more, cut at its second part, and every message as a whole.
  const cuts = query(
    db,
    "SELECT p.session_id AS session, p.message_id AS message, min(p.id) AS first FROM part p " +
      "GROUP BY p.message_id HAVING count(*) >= 2",
  );
  assert.ok(cuts.length >= 3, `only ${cuts.length} messages of several parts`);
  for (const cut of cuts) {
    const [second] = query(
      db,
      "SELECT id FROM part WHERE message_id = ? AND id > ? ORDER BY id LIMIT 1",
      String(cut.message),
      String(cut.first),
    );
    for (const revert of [{ messageID: cut.message, partID: second!.id }, { messageID: cut.message }]) {
      changeDatabase(
        db,
        "UPDATE session SET revert = ? WHERE id = ?",
        JSON.stringify(revert),
        String(cut.session),
      );
      const locator = sessionLocator(db, String(cut.session));
      const held = await readOpenCodeSession(locator);
      assert.ok(held.threads.some((t) => t.kind === "abandoned-branch"), JSON.stringify(revert));
      await assertStreamedAsHeld(
        JSON.stringify(revert),
        await openOpenCodeSession(locator, STREAM_ALL),
        held,
      );
    }
  }
});

test("a session whose rows are under the streaming size is held, and so is an exported file", async () => {
  const [locator] = sessionsOf(join(FIXTURES, "tools-subagent.opencode.db"));
  assert.ok(Array.isArray((await openOpenCodeSession(locator!)).messages));
  assert.ok(
    Array.isArray((await openOpenCodeSession(join(FIXTURES, "exec-tools.export.json"), STREAM_ALL)).messages),
  );
});

test("a streamed session whose rows are removed between passes is bad input naming the database", async () => {
  const { db, locator } = toolsCopy();
  await assertChangeRefused(
    db,
    await openOpenCodeSession(locator, STREAM_ALL),
    () => changeDatabase(db, "DELETE FROM part WHERE json_extract(data, '$.type') = 'tool'"),
  );
});

test("rows OpenCode adds after a streamed session was opened are not part of it", async () => {
  const { db, locator, id } = toolsCopy();
  const held = await readOpenCodeSession(locator);
  const opened = await openOpenCodeSession(locator, STREAM_ALL);
  const [last] = query(
    db,
    "SELECT id, session_id FROM message WHERE session_id = ? ORDER BY time_created DESC, id DESC LIMIT 1",
    id,
  );
  const at = Date.parse(held.meta.updatedAt!) + 1;
  changeDatabase(
    db,
    "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
    "prt_zzzzzzzzzzzzAddedLater0001",
    String(last!.id),
    String(last!.session_id),
    at,
    at,
    '{"type":"text","text":"added later"}',
  );
  changeDatabase(
    db,
    "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
    "msg_zzzzzzzzzzzzAddedLater0001",
    String(last!.session_id),
    at,
    at,
    JSON.stringify({ role: "user", time: { created: at }, agent: "build" }),
  );
  assert.deepEqual(await holdSession(opened), held);
});

test("a streamed OpenCode session's threads kept apart are in files, not held, until the session is released", async () => {
  let apart = 0;
  for (const locator of databases().flatMap(sessionsOf)) {
    const held = await readOpenCodeSession(locator);
    apart += assertSpilledApart(locator, await openOpenCodeSession(locator, STREAM_ALL), held);
  }
  assert.ok(apart >= 2, `only ${apart} threads kept apart in the captured sessions`);
});
