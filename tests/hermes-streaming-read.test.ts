/**
 * A large Hermes session is converted streamed (lib/harnesses/hermes/read.ts `openHermesSession`): its rows
 * read once for everything but the live thread, the live thread read again from state.db on each pass. What
 * it gives must be the very session the held reader gives, for every session of every state.db the real
 * Hermes wrote; rows removed between passes are bad input naming the database, never a wrong session, and
 * rows appended since the first pass are left out, as a held read taken then would not have them.
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
import { openHermesSession, readHermesSession } from "../lib/harnesses/hermes/read.ts";
import { sessionLocator } from "../lib/harnesses/hermes/profiles.ts";
import { holdSession } from "../lib/ir/stream.ts";
import { HERMES_VERSIONS, hermesFixture, query } from "./helpers/hermes.ts";
import { tempDir } from "./helpers/tmp.ts";

/** Every session of every captured state.db, as `<db>#<id>`. */
function databaseSessions(): string[] {
  return HERMES_VERSIONS.flatMap((version) => {
    const dir = hermesFixture(version, "");
    return readdirSync(dir).filter((name) => name.endsWith(".state.db")).sort().flatMap((name) => {
      const db = join(dir, name);
      return query(db, "SELECT id FROM sessions ORDER BY id").map((row) =>
        sessionLocator(db, String(row.id))
      );
    });
  });
}

test("a streamed Hermes session is the held session, for every session of every state.db Hermes wrote", async () => {
  const locators = databaseSessions();
  assert.ok(locators.length >= 30, `only ${locators.length} sessions found`);
  for (const locator of locators) {
    const held = await readHermesSession(locator);
    const opened = await openHermesSession(locator, STREAM_ALL);
    await assertStreamedAsHeld(locator, opened, held);
  }
});

test("a session whose rows are under the streaming size is held, and so is a JSON file", async () => {
  const [locator] = databaseSessions();
  assert.ok(Array.isArray((await openHermesSession(locator!)).messages));
  const snapshot = hermesFixture("0.19.0", "snapshot/sessions");
  const file = join(snapshot, readdirSync(snapshot).find((name) => name.endsWith(".json"))!);
  assert.ok(Array.isArray((await openHermesSession(file, STREAM_ALL)).messages));
});

/** A private copy of a captured database and the locator of its session. */
function privateCopy(scenario: string): { db: string; locator: string; id: string } {
  const db = join(tempDir(), "state.db");
  copyFileSync(hermesFixture("0.19.0", `${scenario}.state.db`), db);
  const id = String(query(db, "SELECT id FROM sessions")[0]!.id);
  return { db, locator: sessionLocator(db, id), id };
}

test("a streamed session whose rows are removed between passes is bad input naming the database", async () => {
  const { db, locator } = privateCopy("tool-call");
  await assertChangeRefused(
    db,
    await openHermesSession(locator, STREAM_ALL),
    () => changeDatabase(db, "DELETE FROM messages WHERE role = 'tool'"),
  );
});

test("rows Hermes appends after a streamed session was opened are not part of it", async () => {
  const { db, locator, id } = privateCopy("tool-call");
  const held = await readHermesSession(locator);
  const opened = await openHermesSession(locator, STREAM_ALL);
  changeDatabase(
    db,
    "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', 'one more', ?)",
    id,
    Date.parse(held.meta.updatedAt!) / 1000 + 1,
  );
  assert.deepEqual(await holdSession(opened), held);
});

test("a streamed Hermes session's threads kept apart are in files, not held, until the session is released", async () => {
  let apart = 0;
  for (const locator of databaseSessions()) {
    const held = await readHermesSession(locator);
    apart += assertSpilledApart(locator, await openHermesSession(locator, STREAM_ALL), held);
  }
  assert.ok(apart >= 3, `only ${apart} threads kept apart in the captured sessions`);
});
