/**
 * A large Pi session is converted streamed (lib/harnesses/pi/read.ts `openPiSession`): indexed once, its threads
 * kept apart spilled to files, its live thread read again from the file on each pass. What it gives must be the
 * very session the held reader gives, on every session the real Pi wrote, and a file that changes under a pass
 * is bad input naming the file, never a wrong session.
 */
import {
  assertRewrittenRefused,
  assertSpilledApart,
  assertStreamedAsHeld,
  STREAM_ALL,
} from "./helpers/streaming.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openPiSession, readPiSession } from "../lib/harnesses/pi/read.ts";
import { holdSession } from "../lib/ir/stream.ts";
import { InputError } from "../lib/errors.ts";
import { tempDir } from "./helpers/tmp.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/pi/0.73.1/", import.meta.url));
const fixture = (name: string) => join(FIXTURES, `${name}.jsonl`);

/** Every session file the real Pi wrote (its captured model requests are not sessions). */
const SESSIONS = readdirSync(FIXTURES).filter((f) => f.endsWith(".jsonl") && !f.includes(".requests."));

/** A copy of fixture `name` with its lines passed through `edit`. */
function edited(name: string, edit: (lines: Record<string, unknown>[]) => Record<string, unknown>[]): string {
  const lines = readFileSync(fixture(name), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const path = join(tempDir(), "session.jsonl");
  writeFileSync(path, edit(lines).map((r) => `${JSON.stringify(r)}\n`).join(""));
  return path;
}

test("a streamed Pi session is the held session, on every session the real harness wrote", async () => {
  assert.ok(SESSIONS.length >= 9, `only ${SESSIONS.length} sessions found`);
  const kinds = new Set<string>();
  for (const name of SESSIONS) {
    const path = join(FIXTURES, name);
    const held = await readPiSession(path);
    for (const t of held.threads) kinds.add(t.kind);
    await assertStreamedAsHeld(path, await openPiSession(path, STREAM_ALL), held);
  }
  // Compacted history and abandoned branches are both among them, each streamed through a spill.
  assert.deepEqual([...kinds].sort(), ["abandoned-branch", "compacted"]);
});

test("a streamed Pi session whose parent links loop, or of version 1, is the held session", async () => {
  const looped = edited("exec", (lines) => {
    lines[1] = { ...lines[1], parentId: lines.at(-1)!.id };
    return lines;
  });
  // Version 1: no ids, each entry the child of the one before, a compaction keeping entries by index.
  const linear = edited("compacted", (lines) => {
    const ids = new Map(lines.map((l, i) => [l.id, i]));
    return lines.map((l, i) => {
      if (i === 0) return { ...l, version: undefined };
      const { id: _id, parentId: _parent, firstKeptEntryId, ...rest } = l;
      return l.type === "compaction" ? { ...rest, firstKeptEntryIndex: ids.get(firstKeptEntryId) } : rest;
    });
  });
  for (const path of [looped, linear]) {
    await assertStreamedAsHeld(path, await openPiSession(path, STREAM_ALL), await readPiSession(path));
  }
});

test("a Pi session under the streaming size is held", async () => {
  assert.ok(Array.isArray((await openPiSession(fixture("exec-tools"))).messages));
});

for (const name of ["exec-tools", "compacted"]) {
  test(`a streamed ${name} session rewritten between passes is bad input naming the file`, async () => {
    const path = join(tempDir(), "session.jsonl");
    copyFileSync(fixture(name), path);
    await assertRewrittenRefused(path, await openPiSession(path, STREAM_ALL));
  });
}

test("a streamed session whose records moved between passes is bad input naming the file", async () => {
  const path = join(tempDir(), "session.jsonl");
  copyFileSync(fixture("exec-tools"), path);
  const opened = await openPiSession(path, STREAM_ALL);
  // The same records, each one line further on: every place the index holds now starts another record.
  const lines = readFileSync(path, "utf8").split("\n");
  writeFileSync(path, [lines[0], ...lines.slice(2), lines[1]].join("\n"));
  await assert.rejects(holdSession(opened), (error: Error) => {
    assert.ok(error instanceof InputError, String(error));
    assert.ok(error.message.startsWith(path), error.message);
    return true;
  });
});

test("lines a live writer appends after a streamed session was indexed are not part of the session", async () => {
  const path = join(tempDir(), "session.jsonl");
  copyFileSync(fixture("exec-tools"), path);
  const held = await readPiSession(path);
  const opened = await openPiSession(path, STREAM_ALL);
  const last = JSON.parse(readFileSync(path, "utf8").trimEnd().split("\n").at(-1)!);
  const line = {
    type: "message",
    id: "0000beef",
    parentId: last.id,
    timestamp: last.timestamp,
    message: { role: "user", content: [{ type: "text", text: "typed later" }], timestamp: 1 },
  };
  writeFileSync(path, `${JSON.stringify(line)}\n`, { flag: "a" });
  assert.deepEqual(await holdSession(opened), held);
});

test("a streamed Pi session's compacted history and abandoned branches are kept in files, not held, until released", async () => {
  for (const name of ["compacted", "branched"]) {
    const path = fixture(name);
    const held = await readPiSession(path);
    assert.ok(
      assertSpilledApart(name, await openPiSession(path, STREAM_ALL), held) > 0,
      `${name} keeps none apart`,
    );
  }
});
