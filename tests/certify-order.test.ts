/**
 * The live certification's decisive check: a resumed target must send its model every part of the seeded
 * conversation (typed prompts, assistant text, the tool call and its output, the interrupted call and the
 * queued words, and each later stop's typed turn and reply) once each and in order. Checked here on literal
 * request logs, flattened as the drivers flatten what the fake servers receive.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkOrder, seededParts, sentinelPlan } from "../lib/certify-kit/sentinels.ts";
import { tuiUnavailable } from "../lib/certify/modes.ts";
import { tempDir } from "./helpers/tmp.ts";
import type { SentMessage } from "../lib/certify-kit/driver.ts";

const plan = sentinelPlan("full", "abc123");
const interrupt = plan.interrupt!;
const FIRST_REPLY = "ASSISTANT-REPLY: r-1a2b3c4d (2 words, 30 chars)";

/** An interrupted Claude Code session, handed to Hermes, resumed there with a new turn, handed to Codex. */
function parts() {
  const p = seededParts(interrupt, FIRST_REPLY, plan.tool);
  p.add("typed prompt in hermes", ["user"], plan.resume(1, "hermes"));
  p.add("assistant text in hermes", ["assistant"], "ASSISTANT-REPLY: acknowledged, turn 4, digest 9f3e21aa.");
  return p.parts;
}

/** What the resumed Codex sent its model: developer context, the history, the handshake, the new turn. */
const codexRequest: SentMessage[] = [
  {
    role: "system",
    text: "<permissions instructions>sandbox_mode is workspace-write</permissions instructions>",
  },
  { role: "user", text: "<environment_context><cwd>/tmp/p</cwd></environment_context>" },
  { role: "user", text: "Remember user-sentinel-abc123." },
  { role: "assistant", text: FIRST_REPLY },
  { role: "user", text: "TOOL: echo tool-sentinel-abc123" },
  {
    role: "tool_call",
    text:
      '{"type":"function_call","name":"shell","arguments":"{\\"command\\":[\\"bash\\",\\"-lc\\",\\"echo tool-sentinel-abc123\\"]}","call_id":"toolu_1"}',
  },
  { role: "tool", text: '"tool-sentinel-abc123\\n"' },
  { role: "assistant", text: "Tool said: tool-sentinel-abc123" },
  { role: "user", text: "TOOL: timeout 600 tail -F slow-sentinel-abc123" },
  {
    role: "tool_call",
    text:
      '{"type":"function_call","name":"shell","arguments":"{\\"command\\":[\\"bash\\",\\"-lc\\",\\"timeout 600 tail -F slow-sentinel-abc123\\"]}","call_id":"toolu_2"}',
  },
  { role: "tool", text: '"[interrupted by the user before it finished]"' },
  { role: "user", text: "Queued while busy: also keep queued-sentinel-abc123 in mind." },
  { role: "user", text: "Resumed in hermes (stop 1): note hop-sentinel-abc123-1." },
  { role: "assistant", text: "ASSISTANT-REPLY: acknowledged, turn 4, digest 9f3e21aa." },
  {
    role: "user",
    text: "[session-bridge handoff] Pending: the call shell (toolu_2) was interrupted.",
  },
  { role: "user", text: "Resumed in codex (stop 2): note hop-sentinel-abc123-2." },
];

test("a resumed target that sent every part once and in order passes", () => {
  assert.deepEqual(checkOrder(codexRequest, parts()), []);
});

test("queued words that moved behind a later stop's turn (restated by a later handshake) fail as out of order", () => {
  const moved = codexRequest.filter((m) => m.text !== interrupt.queued);
  moved.splice(13, 0, {
    role: "user",
    text: `[session-bridge handoff] Typed while it ran: ${interrupt.queued}`,
  });
  assert.deepEqual(checkOrder(moved, parts()), [
    "typed prompt in hermes sent before queued input, expected after it",
  ]);
});

test("a typed prompt the target dropped fails, naming the prompt and the role it was expected in", () => {
  const dropped = codexRequest.filter((m) => m.text !== "Remember user-sentinel-abc123.");
  assert.deepEqual(checkOrder(dropped, parts()), [
    'typed prompt 1 "Remember user-sentinel-abc123." not sent as user words',
  ]);
});

test("a typed prompt kept only as harness context does not count as the person's words", () => {
  const asContext = codexRequest.map((m) =>
    m.text === "Remember user-sentinel-abc123." ? { ...m, role: "system" as const } : m
  );
  assert.deepEqual(checkOrder(asContext, parts()), [
    'typed prompt 1 "Remember user-sentinel-abc123." not sent as user words',
  ]);
});

test("queued words sent twice (the old handshake kept beside the new one) fail as sent twice", () => {
  const twice = [...codexRequest];
  twice.splice(11, 0, {
    role: "user",
    text:
      "[session-bridge handoff] Typed while it ran: Queued while busy: also keep queued-sentinel-abc123 in mind.",
  });
  assert.deepEqual(checkOrder(twice, parts()), [
    'queued input "Queued while busy: also keep queued-sentinel-abc123 in mind." sent 2 times, expected once',
  ]);
});

test("an interrupted call the target dropped (its command lost) fails", () => {
  const lost = codexRequest.filter((m) => !(m.role === "tool_call" && m.text.includes("tail -F")));
  assert.deepEqual(checkOrder(lost, parts()), [
    'interrupted call "timeout 600 tail -F slow-sentinel-abc123" not sent as tool_call words',
  ]);
});

test("an interrupted call replayed twice fails, and so does an assistant turn sent twice", () => {
  const call = codexRequest[9]!;
  const doubled = [...codexRequest.slice(0, 11), call, ...codexRequest.slice(11)];
  doubled.splice(4, 0, { role: "assistant", text: FIRST_REPLY });
  assert.deepEqual(checkOrder(doubled, parts()), [
    `assistant text 1 "${FIRST_REPLY}" sent 2 times, expected once`,
    'interrupted call "timeout 600 tail -F slow-sentinel-abc123" sent 2 times, expected once',
  ]);
});

test("queued words sent before the call they were typed during fail as out of order", () => {
  const early = codexRequest.filter((m) => m.text !== interrupt.queued);
  early.splice(8, 0, { role: "user", text: interrupt.queued });
  assert.deepEqual(checkOrder(early, parts()), [
    "queued input sent before interrupted call, expected after it",
  ]);
});

test("turns swapped by a writer fail as out of order, naming both", () => {
  const swapped = [...codexRequest];
  [swapped[2], swapped[3]] = [swapped[3]!, swapped[2]!];
  assert.deepEqual(checkOrder(swapped, parts()), [
    "assistant text 1 sent before typed prompt 1, expected after it",
  ]);
  // The second stop's turn placed before the first hop's history.
  const hopFirst = [...codexRequest];
  hopFirst.splice(2, 0, ...hopFirst.splice(12, 2));
  assert.deepEqual(checkOrder(hopFirst, parts()), [
    "typed prompt in hermes sent before queued input, expected after it",
  ]);
});

test("an exec or interactive session expects its two turns only: prompts, reply, call and output", () => {
  const p = seededParts(plan.prompts, FIRST_REPLY, plan.tool).parts;
  assert.deepEqual(p.map((x) => [x.label, x.roles.join("|"), x.needle, x.after]), [
    ["typed prompt 1", "user", "Remember user-sentinel-abc123.", undefined],
    ["assistant text 1", "assistant", FIRST_REPLY, 0],
    ["typed prompt 2", "user", "TOOL: echo tool-sentinel-abc123", 1],
    ["tool call", "tool_call", "echo tool-sentinel-abc123", 2],
    ["tool output", "tool", "tool-sentinel-abc123", 3],
  ]);
  assert.deepEqual(checkOrder(codexRequest.slice(0, 8), p), []);
});

test("the interrupted seeding asks for a slow command and queued words the fake model never triggers on", () => {
  assert.equal(interrupt.slow, "TOOL: timeout 600 tail -F slow-sentinel-abc123");
  assert.equal(interrupt.slowCommand, "timeout 600 tail -F slow-sentinel-abc123");
  assert.equal(interrupt.queued, "Queued while busy: also keep queued-sentinel-abc123 in mind.");
  assert.equal(plan.resume(2, "codex"), "Resumed in codex (stop 2): note hop-sentinel-abc123-2.");
});

test("without tmux on PATH a TUI style fails its row naming tmux, instead of a driver error", () => {
  assert.equal(
    tuiUnavailable(tempDir()),
    "typing into a harness's TUI needs tmux on PATH (e.g. apt-get install tmux)",
  );
  const withTmux = tempDir();
  writeFileSync(join(withTmux, "tmux"), "#!/bin/sh\n");
  chmodSync(join(withTmux, "tmux"), 0o755);
  assert.equal(tuiUnavailable(withTmux), undefined);
});
