/**
 * The Pi certify driver without session-bridge's reader or writer: what it reads from `pi --mode json` (lines as
 * Pi 0.73.1 printed them) and from the fake Chat Completions server's request log, and the real Pi 0.73.1
 * (installed in the harness cache, offline against the fake server) seeding a one-shot, a TUI and an
 * interrupted TUI session, each found by Pi's own picker and resumed, checked with certify's own pair check:
 * every earlier part sent once, in order. The live tests are skipped when the binary is not installed
 * (`npx bun acceptance/install-harness.ts pi`) or, for the TUI, tmux is not on PATH.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { harnessDir } from "../acceptance/install-harness.ts";
import { findOnPath } from "../lib/certify-kit/binaries.ts";
import { sentChatMessages } from "../lib/certify-kit/chat-requests.ts";
import type { HarnessUnderTest } from "../lib/certify-kit/driver.ts";
import { checkOrder, seededParts, sentinelPlan } from "../lib/certify-kit/sentinels.ts";
import { piDriver } from "../lib/harnesses/pi/certify/index.ts";
import { parseJsonEvents } from "../lib/harnesses/pi/certify/run.ts";
import { tempDir } from "./helpers/tmp.ts";

const VERSION = "0.73.1";
const BIN = join(harnessDir("pi", VERSION), "bin", "pi");
const skip = existsSync(BIN)
  ? false
  : `Pi ${VERSION} is not installed (npx bun acceptance/install-harness.ts pi)`;
const skipTui = skip || (findOnPath("tmux", process.env.PATH ?? "") ? false : "tmux is not on PATH");

const ID = "01a23cd5-4a0f-71f2-9f47-933f9929ff99";
const USAGE = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};
const assistant = (content: object[], rest: object = {}) => ({
  role: "assistant",
  content,
  api: "openai-completions",
  provider: "fake",
  model: "fake-model",
  usage: USAGE,
  stopReason: "stop",
  timestamp: 1796316941110,
  ...rest,
});
const line = (event: object) => JSON.stringify(event);

test("`pi --mode json` gives the session its header names and the last assistant message's text as the answer", () => {
  const call = { type: "toolCall", id: "call_fake0001", name: "bash", arguments: { command: "echo x" } };
  const stdout = [
    line({ type: "session", version: 3, id: ID, timestamp: "2026-12-03T16:55:40.821Z", cwd: "/tmp/p" }),
    line({ type: "agent_start" }),
    line({
      type: "message_end",
      message: { role: "user", content: [{ type: "text", text: "TOOL: echo x" }] },
    }),
    line({
      type: "message_end",
      message: assistant([{ type: "thinking", thinking: "REASONING: calling bash." }, call], {
        stopReason: "toolUse",
      }),
    }),
    line({ type: "tool_execution_end", toolCallId: "call_fake0001", toolName: "bash" }),
    line({ type: "message_end", message: assistant([{ type: "text", text: "Tool said: x" }]) }),
    line({ type: "agent_end", messages: [] }),
    "",
  ].join("\n");
  assert.deepEqual(parseJsonEvents(stdout), { sessionId: ID, reply: "Tool said: x" });
});

test("a Pi turn that failed exits 0 in json mode; its last assistant message's stopReason and errorMessage say so", () => {
  const stdout = [
    line({ type: "session", version: 3, id: ID, timestamp: "2026-12-03T16:55:40.821Z", cwd: "/tmp/p" }),
    line({
      type: "message_end",
      message: assistant([], { stopReason: "error", errorMessage: "Connection error." }),
    }),
  ].join("\n");
  assert.deepEqual(parseJsonEvents(stdout), { sessionId: ID, reply: "", error: "Connection error." });
  assert.deepEqual(parseJsonEvents("Warning: no models match\nnot json"), { reply: "" });
});

test("a developer message in a Chat Completions request is the system prompt, never the person's words", () => {
  // Pi 0.73.1 sends its system prompt so (the fixtures' requests).
  const sent = sentChatMessages([
    { role: "developer", content: "You are an expert coding assistant operating inside pi" },
    { role: "user", content: [{ type: "text", text: "Remember user-sentinel-abc." }] },
  ]);
  assert.deepEqual(sent.map((m) => m.role), ["system", "user"]);
});

/** The driver opened on the installed binary in full mode (warmed up as certify does), with a project folder. */
async function livePi(): Promise<{ pi: HarnessUnderTest; cwd: string; earlier: string }> {
  const work = realpathSync(tempDir("sb-pi-driver-"));
  const pi = await piDriver.open({
    work,
    bin: BIN,
    version: VERSION,
    mode: "full",
    env: process.env,
    homeVariables: [],
  });
  const earlier = join(work, "earlier project");
  const cwd = join(work, "project");
  mkdirSync(earlier);
  mkdirSync(cwd);
  await pi.warmUp(earlier);
  return { pi, cwd, earlier };
}

/** Resumes `id` in `cwd` and checks the request against `parts` plus the resumed prompt; returns what was sent. */
async function resumedOnce(
  pi: HarnessUnderTest,
  cwd: string,
  id: string,
  parts: ReturnType<typeof seededParts>,
  prompt: string,
) {
  const turn = await pi.resume(cwd, id, prompt);
  assert.equal(turn.ok, true, turn.detail);
  assert.match(turn.reply, /^ASSISTANT-REPLY: /);
  const sent = pi.lastRequest();
  assert.deepEqual(checkOrder(sent, parts.add("typed prompt on resume", ["user"], prompt).parts), []);
  return sent;
}

test(
  "a one-shot Pi seeding is listed by Pi's picker in its folder only and is sent back once per part, in order, on resume (real Pi 0.73.1)",
  { skip: skipTui },
  async () => {
    const { pi, cwd, earlier } = await livePi();
    try {
      const plan = sentinelPlan("full", "0d0d0d");
      const seeded = await pi.seed(cwd, plan.prompts);
      assert.match(seeded.firstReply, /^ASSISTANT-REPLY: /);
      assert.equal(await pi.listed(seeded.id, cwd), true);
      assert.equal(await pi.listed(seeded.id, earlier), false);
      const prompt = plan.resume(1, "pi");
      const sent = await resumedOnce(
        pi,
        cwd,
        seeded.id,
        seededParts(plan.prompts, seeded.firstReply, plan.tool),
        prompt,
      );
      assert.deepEqual(sent.map((m) => m.role), [
        "system",
        "user",
        "assistant",
        "user",
        "tool_call",
        "tool",
        "assistant",
        "user",
      ]);
      // Exactly the words typed (on stdin: as an argument, `@...` would name a file and `-...` a flag).
      assert.equal(sent[1]!.text, plan.prompts.first);
    } finally {
      await pi.close();
    }
  },
);

test(
  "a Pi TUI session interrupted mid-call, the steering words handed back by Escape then sent, is sent back once per part, in order, on resume (real Pi 0.73.1)",
  { skip: skipTui },
  async () => {
    const { pi, cwd } = await livePi();
    try {
      const plan = sentinelPlan("full", "1f1f1f");
      const seeded = await pi.seedInterrupted(cwd, plan.interrupt!);
      assert.match(seeded.firstReply, /^ASSISTANT-REPLY: /);
      assert.equal(await pi.listed(seeded.id, cwd), true);
      const prompt = plan.resume(1, "pi");
      const parts = seededParts(plan.interrupt!, seeded.firstReply, plan.tool);
      const sent = await resumedOnce(pi, cwd, seeded.id, parts, prompt);
      // The aborted call's result is what the shell printed, then Pi's "Command aborted"; the aborted assistant
      // message (no content) is not sent; the queued words are a turn of their own, answered.
      assert.deepEqual(sent.slice(-6).map((m) => m.role), [
        "user",
        "tool_call",
        "tool",
        "user",
        "assistant",
        "user",
      ]);
      assert.match(sent.at(-4)!.text, /Command aborted$/);
    } finally {
      await pi.close();
    }
  },
);
