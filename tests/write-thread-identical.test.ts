/**
 * A handoff written on a second thread (lib/store/write-thread.ts) leaves the same store as one written on the
 * calling thread: every captured session of every harness, handed into Hermes and into Copilot CLI with
 * SESSION_BRIDGE_THREADS=2 (every write on a worker, however short) and with SESSION_BRIDGE_THREADS=1 (none), at
 * the same time under the same id, leaves the same rows, column by column, the same full-text entries and the
 * same files, byte for byte.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { handoff } from "../lib/mod.ts";
import { builtinCoverage, capturedSessions } from "./helpers/harness-material.ts";
import { query, seedHermesHome } from "./helpers/hermes.ts";
import { makeCopilotHome } from "./helpers/harnesses/copilot-cli.ts";
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

async function handedInto(to: string, home: string, ref: string, threads: "1" | "2", sessionId: string) {
  return await handoff({
    homes: { ...homes, [to]: home },
    bridgeHome: join(dir, "bridge"),
    source: { ref },
    to,
    cwd: CWD,
    sessionId,
    now: NOW,
    env: { SESSION_BRIDGE_THREADS: threads },
  });
}

/** The rows and full-text entries a handoff of `ref` into a fresh Hermes store leaves, with `threads`. */
async function hermesStore(ref: string, threads: "1" | "2") {
  const hermes = join(dir, `hermes-${runs++}`);
  const db = seedHermesHome(hermes, "0.19.0", "text-turns");
  await handedInto("hermes", hermes, ref, threads, ID);
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

const COPILOT_ID = "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b";

/** The text with each event id Copilot's writer mints (a uuid) numbered by first appearance, the session's kept. */
function numberedIds(text: string): string {
  const seen = new Map<string, number>();
  return text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, (id) => {
    if (id === COPILOT_ID) return id;
    if (!seen.has(id)) seen.set(id, seen.size);
    return `<id ${seen.get(id)}>`;
  });
}

/** The files and index rows a handoff of `ref` into a fresh Copilot CLI home leaves, with `threads`. */
async function copilotStore(ref: string, threads: "1" | "2") {
  const home = join(dir, `copilot-${runs++}`);
  const db = makeCopilotHome(home);
  const done = await handedInto("copilot-cli", home, ref, threads, COPILOT_ID);
  return {
    files: done.files.map((f) => numberedIds(readFileSync(f, "utf8"))),
    sessions: query(db, "SELECT * FROM sessions ORDER BY rowid"),
    turns: query(db, "SELECT * FROM turns ORDER BY id"),
    search: query(db, "SELECT rowid, * FROM search_index ORDER BY rowid"),
  };
}

for (const source of sources) {
  test(`a handoff into Hermes leaves the same store written on a second thread as on one: ${source.label}`, async () => {
    const one = await hermesStore(source.ref, "1");
    const two = await hermesStore(source.ref, "2");
    assert.ok(two.messages.some((m) => m.session_id === ID), "the session was handed in");
    assert.deepEqual(two, one);
  });
  test(`a handoff into Copilot CLI leaves the same files and index written on a second thread as on one: ${source.label}`, async () => {
    const one = await copilotStore(source.ref, "1");
    const two = await copilotStore(source.ref, "2");
    assert.ok(two.sessions.some((s) => s.id === COPILOT_ID), "the session was indexed");
    assert.deepEqual(two, one);
  });
}
