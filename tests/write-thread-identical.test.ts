/**
 * A handoff written on a second thread (lib/store/write-thread.ts) leaves the same store as one written on the
 * calling thread: every captured session of every harness, handed into Hermes with SESSION_BRIDGE_THREADS=2
 * (every write on a worker, however short) and with SESSION_BRIDGE_THREADS=1 (none), at the same time under the
 * same id, leaves the same rows, column by column, and the same full-text entries.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { handoff } from "../lib/mod.ts";
import { builtinCoverage, capturedSessions } from "./helpers/harness-material.ts";
import { query, seedHermesHome } from "./helpers/hermes.ts";
import { tempDir } from "./helpers/tmp.ts";

const covered = await builtinCoverage();
const dir = tempDir("sb-write-thread-");
const sources = (await Promise.all(covered.map((c) => capturedSessions(c, join(dir, "sources"))))).flat();
const homes = Object.fromEntries(covered.map((c) => [c.harness.name, join(dir, "homes", c.harness.name)]));
const NOW = new Date("2026-12-05T00:00:00.000Z");
const ID = "20261205_000000_a1b2c3";
const CWD = join(dir, "project");
mkdirSync(CWD);

let runs = 0;
/** The rows and full-text entries a handoff of `ref` into a fresh Hermes store leaves, with `threads`. */
async function handedIn(ref: string, threads: "1" | "2") {
  const hermes = join(dir, `hermes-${runs++}`);
  const db = seedHermesHome(hermes, "0.19.0", "text-turns");
  await handoff({
    homes: { ...homes, hermes },
    bridgeHome: join(dir, "bridge"),
    source: { ref },
    to: "hermes",
    cwd: CWD,
    sessionId: ID,
    now: NOW,
    env: { SESSION_BRIDGE_THREADS: threads },
  });
  const rowids = "SELECT id FROM messages WHERE session_id = ?";
  return {
    sessions: query(db, "SELECT * FROM sessions ORDER BY rowid"),
    messages: query(db, "SELECT * FROM messages ORDER BY id"),
    words: query(db, `SELECT rowid, * FROM messages_fts WHERE rowid IN (${rowids}) ORDER BY rowid`, ID),
    trigrams: query(
      db,
      `SELECT rowid, * FROM messages_fts_trigram WHERE rowid IN (${rowids}) ORDER BY rowid`,
      ID,
    ),
  };
}

for (const source of sources) {
  test(`a handoff into Hermes leaves the same store written on a second thread as on one: ${source.label}`, async () => {
    const one = await handedIn(source.ref, "1");
    const two = await handedIn(source.ref, "2");
    assert.ok(two.messages.some((m) => m.session_id === ID), "the session was handed in");
    assert.deepEqual(two, one);
  });
}
