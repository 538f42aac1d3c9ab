/**
 * A large Copilot CLI session is converted streamed (lib/harnesses/copilot-cli/read.ts `openCopilotSession`):
 * indexed once, its compacted and subagent threads spilled to files, its live thread read again from the events
 * on each pass. What it gives must be the very session the held reader gives, on every session the real Copilot
 * CLI wrote, and a file that changes under a pass is bad input naming the file, never a wrong session.
 */
import {
  assertRewrittenRefused,
  assertSpilledApart,
  assertStreamedAsHeld,
  STREAM_ALL,
} from "./helpers/streaming.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { openCopilotSession, readCopilotSession } from "../lib/harnesses/copilot-cli/read.ts";
import { holdSession } from "../lib/ir/stream.ts";
import { copilotScenarioSessions } from "./helpers/harnesses/copilot-cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const VERSION = fileURLToPath(new URL("../fixtures/copilot-cli/1.0.102/", import.meta.url));

/** The events.jsonl of a scenario (each holds one session). */
function scenario(name: string): string {
  const [events] = copilotScenarioSessions(VERSION).filter((p) => p.startsWith(join(VERSION, name, "/")));
  assert.ok(events, `scenario ${name}`);
  return events;
}

/** A copy of a scenario's events, in a session folder of its own. */
function copied(name: string, edit: (text: string) => string = (text) => text): string {
  const folder = join(tempDir(), basename(dirname(scenario(name))));
  mkdirSync(folder);
  const path = join(folder, "events.jsonl");
  writeFileSync(path, edit(readFileSync(scenario(name), "utf8")), { flag: "wx" });
  return path;
}

test("a streamed Copilot CLI session is the held session, on every session the real harness wrote", async () => {
  const paths = copilotScenarioSessions(VERSION);
  assert.equal(paths.length, 9);
  const kinds = new Set<string>();
  for (const path of paths) {
    const held = await readCopilotSession(path);
    for (const t of held.threads) kinds.add(t.kind);
    await assertStreamedAsHeld(path, await openCopilotSession(path, STREAM_ALL), held);
  }
  assert.deepEqual([...kinds].sort(), ["compacted", "subagent"]);
});

test("a Copilot CLI session under the streaming size is held", async () => {
  assert.ok(Array.isArray((await openCopilotSession(scenario("exec-tools"))).messages));
});

test("a compaction that kept the last messages before it: they follow its summary, streamed as held", async () => {
  // The captured compaction kept none (18 messages, 17 removed, the system prompt one of them): two kept.
  const path = copied("compacted", (text) => text.replace('"messagesRemoved":17', '"messagesRemoved":15'));
  const held = await readCopilotSession(path);
  assert.equal(held.messages[0]!.kind, "summary");
  assert.equal(held.messages[1]!.parentUid, held.messages[0]!.uid);
  const captured = await readCopilotSession(scenario("compacted"));
  assert.equal(held.messages.length, captured.messages.length + 2);
  await assertStreamedAsHeld(path, await openCopilotSession(path, STREAM_ALL), held);
});

for (const name of ["exec-tools", "compacted"]) {
  test(`a streamed ${name} session rewritten between passes is bad input naming the file`, async () => {
    const path = join(tempDir(), "events.jsonl");
    copyFileSync(scenario(name), path);
    await assertRewrittenRefused(path, await openCopilotSession(path, STREAM_ALL));
  });
}

test("events a live writer appends after a streamed session was indexed are not part of the session", async () => {
  const path = copied("exec-resumed");
  const held = await readCopilotSession(path);
  const opened = await openCopilotSession(path, STREAM_ALL);
  const event = {
    type: "user.message",
    data: { content: "typed later" },
    id: "0f8d5a57-35c3-4c3a-9d1f-6f0e6e1b2a10",
    timestamp: held.meta.updatedAt,
    parentId: null,
  };
  writeFileSync(path, `${JSON.stringify(event)}\n`, { flag: "a" });
  assert.deepEqual(await holdSession(opened), held);
});

for (const [name, kind] of [["compacted", "compacted"], ["exec-subagent", "subagent"]] as const) {
  test(`a streamed ${name} session's ${kind} threads are kept in files, not held, until it is released`, async () => {
    const path = scenario(name);
    const held = await readCopilotSession(path);
    const kept = assertSpilledApart(name, await openCopilotSession(path, STREAM_ALL), held, kind);
    assert.ok(kept > 0, `the fixture has a ${kind} thread`);
  });
}
