/**
 * A large Codex rollout is converted streamed (lib/harnesses/codex/read.ts `openCodexSession`): indexed once,
 * its live thread (what follows the last compaction) read again from the file on each pass. What it gives must
 * be the very session the held reader gives, on every rollout the real Codex wrote, and a file that changes
 * under a pass is bad input naming the file, never a wrong session.
 */
import { assertSpilledApart, assertStreamedAsHeld, STREAM_ALL } from "./helpers/streaming.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openCodexSession, readCodexSession } from "../lib/harnesses/codex/read.ts";
import type { Message } from "../lib/ir/schema.ts";
import { holdSession } from "../lib/ir/stream.ts";
import { handoff } from "../lib/pipeline/handoff.ts";
import { convert } from "../lib/pipeline/convert.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { InputError } from "../lib/errors.ts";
import { codexFixture } from "./helpers/codex.ts";
import { tempDir } from "./helpers/tmp.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/codex", import.meta.url));

/** Every rollout the real Codex wrote (its captured model requests are not rollouts). */
function rollouts(dir = FIXTURES): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return rollouts(path);
    return name.endsWith(".jsonl") && !name.endsWith(".requests.jsonl") ? [path] : [];
  });
}

test("a streamed Codex session is the held session, on every rollout the real harness wrote", async () => {
  const paths = rollouts();
  assert.ok(paths.length >= 30, `only ${paths.length} rollouts found`);
  let compacted = 0;
  for (const path of paths) {
    const held = await readCodexSession(path);
    if (held.threads.some((t) => t.kind === "compacted")) compacted++;
    const opened = await openCodexSession(path, STREAM_ALL);
    await assertStreamedAsHeld(path, opened, held);
  }
  // The live thread of a compacted rollout starts at its last compaction, not at the first line.
  assert.ok(compacted >= 3, `only ${compacted} compacted rollouts`);
});

test("a Codex session under the streaming size is held", async () => {
  assert.ok(Array.isArray((await openCodexSession(codexFixture("0.171.0", "tool-call"))).messages));
});

for (const name of ["tool-call", "compacted"]) {
  test(`a streamed ${name} rollout rewritten between passes is bad input naming the file`, async () => {
    const path = join(tempDir(), "rollout.jsonl");
    copyFileSync(codexFixture("0.171.0", name), path);
    const opened = await openCodexSession(path, STREAM_ALL);
    writeFileSync(path, "x".repeat(statSync(path).size));
    await assert.rejects(holdSession(opened), (error: Error) => {
      assert.ok(error instanceof InputError, String(error));
      assert.ok(error.message.startsWith(path), error.message);
      return true;
    });
  });
}

test("lines a live writer appends after a streamed rollout was indexed are not part of the session", async () => {
  const path = join(tempDir(), "rollout.jsonl");
  copyFileSync(codexFixture("0.171.0", "resumed"), path);
  const held = await readCodexSession(path);
  const opened = await openCodexSession(path, STREAM_ALL);
  const payload = { type: "message", role: "user", content: [{ type: "input_text", text: "typed later" }] };
  const line = { timestamp: held.meta.updatedAt, type: "response_item", payload };
  writeFileSync(path, `${JSON.stringify(line)}\n`, { flag: "a" });
  assert.deepEqual(await holdSession(opened), held);
});

/**
 * The real compacted rollout with `before` (real records) just before its compaction and a real call, never
 * answered, leading the replacement history.
 */
function compactedWith(before: (aborted: Record<string, unknown>[]) => Record<string, unknown>[]): string {
  const jsonl = (name: string) =>
    readFileSync(codexFixture("0.171.0", name), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const interrupted = jsonl("interrupted");
  const aborted = interrupted.slice(interrupted.findIndex((r) => /<turn_aborted>/.test(JSON.stringify(r))));
  const call = jsonl("tool-call").find((r) => r.payload?.type === "function_call").payload;
  const lines = jsonl("compacted");
  const at = lines.findIndex((r) => r.type === "compacted");
  lines[at].payload.replacement_history.unshift(call);
  lines.splice(at, 0, ...before(aborted).map((r) => ({ ...r, timestamp: lines[at].timestamp })));
  const path = join(tempDir(), "rollout.jsonl");
  writeFileSync(path, lines.map((r) => `${JSON.stringify(r)}\n`).join(""));
  return path;
}

const callsIn = (m: Message | undefined) => m?.blocks.filter((b) => b.type === "tool_call").length;

test("a compaction ends the response it cut off: the replacement's call leads the live thread", async () => {
  // Only the turn_aborted event: the response before the compaction is still the running one.
  const path = compactedWith((aborted) => aborted.filter((r) => r.type === "event_msg").slice(0, 1));
  const held = await readCodexSession(path);
  assert.equal(callsIn(held.threads[0]!.messages.at(-1)), 0);
  assert.equal(callsIn(held.messages[0]), 1);
  assert.deepEqual(await holdSession(await openCodexSession(path, STREAM_ALL)), held);
});

test("an abort before a compaction counts messages of the compacted thread, not of the live one", async () => {
  // The <turn_aborted> message and the event, as Codex writes them: the call the live thread then leaves
  // unanswered was abandoned, not interrupted by that abort.
  const path = compactedWith((aborted) => aborted.slice(0, 2));
  const held = await readCodexSession(path);
  assert.equal(callsIn(held.messages[0]), 1);
  assert.deepEqual(held.pending.openToolCalls, []);
  assert.deepEqual(await holdSession(await openCodexSession(path, STREAM_ALL)), held);
});

test("a streamed Codex rollout's compacted threads are kept in files, not held, until the session is released", async () => {
  const path = codexFixture("0.171.0", "compacted");
  const held = await readCodexSession(path);
  const kept = assertSpilledApart(path, await openCodexSession(path, STREAM_ALL), held, "compacted");
  assert.ok(kept > 0, "the fixture has a compacted thread");
});

/** How many files this process has open (Linux). */
const openFiles = () => readdirSync("/proc/self/fd").length;

test("a handoff or conversion refused before it converts lets go of the streamed session's spill files", async () => {
  const root = tempDir("sb-refused-handoff-");
  const request = {
    source: { ref: codexFixture("0.171.0", "compacted") },
    to: "claude-code",
    homes: Object.fromEntries(builtinRegistry.harnesses.map((h) => [h.name, join(root, h.name)])),
    bridgeHome: join(root, "bridge"),
    limits: STREAM_ALL.limits!,
  };
  const notAVersion = { targetVersions: { "claude-code": "latest" } };
  const refusals = [
    () => handoff({ ...request, cwd: join(root, "no-such-directory") }),
    () => handoff({ ...request, ...notAVersion, cwd: root }),
    () => convert({ ...request, ...notAVersion, output: join(root, "out.jsonl") }),
  ];
  // Each once first, so whatever a first run opens for good (none expected) is open before counting.
  for (const refused of refusals) await assert.rejects(refused(), InputError);
  const before = openFiles();
  for (const refused of refusals) await assert.rejects(refused(), InputError);
  assert.equal(openFiles(), before, "a refused run left its spill files open");
});

test("items without an id take their line's uid, an item named as one of those another, streamed as held", async () => {
  const lines = readFileSync(codexFixture("0.171.0", "compacted"), "utf8").split("\n").filter(Boolean).map((
    l,
  ) => JSON.parse(l));
  // Every item's id gone, so each is named by its line; then items naming themselves as an earlier line, a
  // later one, one spelled otherwise, and each other, before and after the compaction.
  for (const r of lines) if (r.type === "response_item") delete r.payload.id;
  const at = lines.findIndex((r) => r.type === "compacted");
  const prompt = (id: string) => ({
    timestamp: lines[at].timestamp,
    type: "response_item",
    payload: { type: "message", role: "user", id, content: [{ type: "input_text", text: id }] },
  });
  const named = ["line-3", `line-${lines.length + 5}`, "line-03", "line-3"];
  lines.splice(at, 0, ...named.map(prompt));
  lines.push(...named.map(prompt));
  const path = join(tempDir(), "rollout.jsonl");
  writeFileSync(path, lines.map((r) => `${JSON.stringify(r)}\n`).join(""));
  const held = await readCodexSession(path);
  const uids = [...held.threads.flatMap((t) => t.messages), ...held.messages].map((m) => m.uid);
  assert.equal(new Set(uids).size, uids.length, uids.join(" "));
  assert.ok(uids.includes("line-4"), "an item without an id is named by its line");
  assert.ok(uids.includes("line-03"), "an id spelled otherwise is its own");
  assert.ok(uids.some((uid) => uid.startsWith("line-3#")), "an id taken already is made another");
  await assertStreamedAsHeld(path, await openCodexSession(path, STREAM_ALL), held);
});
