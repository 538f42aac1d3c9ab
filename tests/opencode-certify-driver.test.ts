/**
 * The OpenCode certify driver without session-bridge's reader or writer: what it reads from the fake Chat
 * Completions server's request log and from `opencode run --format json` (lines as OpenCode 1.18.33 printed and
 * sent them), and the real OpenCode 1.18.33 (installed in the harness cache, offline against the fake server)
 * seeding a one-shot and an interrupted TUI session and resuming each, checked with certify's own pair check:
 * every earlier part sent once, in order. The live tests are skipped when the binary is not installed
 * (`npx bun acceptance/install-harness.ts opencode`) or, for the TUI, tmux is not on PATH.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { harnessDir } from "../acceptance/install-harness.ts";
import { findOnPath } from "../lib/certify-kit/binaries.ts";
import { sentChatMessages } from "../lib/certify-kit/chat-requests.ts";
import type { ChatRequest } from "../lib/certify-kit/fake-servers/chat-completions.ts";
import type { HarnessUnderTest } from "../lib/certify-kit/driver.ts";
import { checkOrder, seededParts, sentinelPlan } from "../lib/certify-kit/sentinels.ts";
import { opencodeDriver } from "../lib/harnesses/opencode/certify/index.ts";
import { parseRunEvents } from "../lib/harnesses/opencode/certify/run.ts";
import { opencodeScript, turnRequests } from "../lib/harnesses/opencode/certify/sent.ts";
import { tempDir } from "./helpers/tmp.ts";

const VERSION = "1.18.33";
const BIN = join(harnessDir("opencode", VERSION), "node_modules", "opencode-linux-x64", "bin", "opencode");
const skip = existsSync(BIN)
  ? false
  : `OpenCode ${VERSION} is not installed (npx bun acceptance/install-harness.ts opencode)`;
const skipTui = skip || (findOnPath("tmux", process.env.PATH ?? "") ? false : "tmux is not on PATH");

const TITLE_SYSTEM =
  "You are a title generator. You output ONLY a thread title. Nothing else.\n\n<task>\n...";

/** The title request OpenCode 1.18.33 streams beside a session's first turn. */
const titleRequest: ChatRequest = {
  model: "fake-model",
  stream: true,
  messages: [
    { role: "system", content: TITLE_SYSTEM },
    { role: "user", content: "Generate a title for this conversation:\n" },
    { role: "user", content: "Remember user-sentinel-abc." },
  ],
};

/** A turn as OpenCode 1.18.33 sent it after a shell call: its tools offered, the call and its output. */
const turnRequest: ChatRequest = {
  model: "fake-model",
  stream: true,
  tools: [{ type: "function", function: { name: "bash", parameters: { type: "object" } } }],
  messages: [
    { role: "system", content: "You are opencode, an interactive CLI tool ..." },
    { role: "user", content: "TOOL: echo tool-sentinel-abc" },
    {
      role: "assistant",
      content: "",
      reasoning_content: "REASONING: the user wants a shell command run; calling bash.",
      tool_calls: [{
        id: "call_fake0001",
        type: "function",
        function: { name: "bash", arguments: '{"command":"echo tool-sentinel-abc"}' },
      }],
    },
    { role: "tool", content: "tool-sentinel-abc\n", tool_call_id: "call_fake0001" },
  ],
};

test("OpenCode's title request is no conversation turn; a turn's messages count by role", () => {
  const log = join(tempDir(), "chat-requests.jsonl");
  const line = (method: string, path: string, body: unknown) =>
    JSON.stringify({ ts: "2026-12-03T13:24:11.257Z", method, path, body });
  writeFileSync(
    log,
    [
      line("POST", "/v1/chat/completions", titleRequest),
      line("GET", "/v1/models", null),
      line("POST", "/v1/chat/completions", turnRequest),
    ].join("\n") + "\n",
  );
  const turns = turnRequests(log);
  assert.equal(turns.length, 1);
  assert.deepEqual(sentChatMessages(turns[0]!.messages).map((m) => [m.role, m.text]), [
    ["system", "You are opencode, an interactive CLI tool ..."],
    ["user", "TOOL: echo tool-sentinel-abc"],
    [
      "tool_call",
      '{"id":"call_fake0001","type":"function","function":{"name":"bash","arguments":"{\\"command\\":\\"echo tool-sentinel-abc\\"}"}}',
    ],
    ["tool", "tool-sentinel-abc\n"],
  ]);
});

test("the fake model answers OpenCode's title request with a title, a turn as it answers every harness", () => {
  const title = opencodeScript(titleRequest, { requestIndex: 0, stream: true });
  assert.match(title.content ?? "", /^Fake Title [0-9a-f]{8}$/);
  assert.equal(title.toolCalls, undefined);
  const turn = opencodeScript({ ...turnRequest, messages: turnRequest.messages.slice(0, 2) }, {
    requestIndex: 1,
    stream: true,
  });
  assert.deepEqual(turn.toolCalls, [{ name: "bash", arguments: { command: "echo tool-sentinel-abc" } }]);
});

test("`opencode run --format json` events give the session, the last text as the answer, and an error", () => {
  const event = (type: string, rest: object) =>
    JSON.stringify({ type, timestamp: 1796304312814, sessionID: "ses_dc3ec5723ffeDaceniGO3Is2hp", ...rest });
  const part = (type: string, rest: object = {}) => ({ part: { id: "prt_1", type, ...rest } });
  const stdout = [
    event("step_start", part("step-start")),
    event("tool_use", part("tool", { tool: "bash", state: { status: "completed", output: "x\n" } })),
    event("text", part("text", { text: "Tool said: x" })),
    event("step_finish", part("step-finish", { reason: "stop" })),
    "",
  ].join("\n");
  assert.deepEqual(parseRunEvents(stdout), {
    sessionId: "ses_dc3ec5723ffeDaceniGO3Is2hp",
    reply: "Tool said: x",
  });
  const failed = parseRunEvents(
    `! a warning line\n${
      event("error", { error: { name: "APIError", data: { message: "Connection refused" } } })
    }`,
  );
  assert.deepEqual(failed, {
    sessionId: "ses_dc3ec5723ffeDaceniGO3Is2hp",
    reply: "",
    error: "Connection refused",
  });
  assert.deepEqual(parseRunEvents("not json at all"), { reply: "" });
});

/** The driver opened on the installed binary in full mode (warmed up as certify does), with a project folder. */
async function liveOpencode(): Promise<{ opencode: HarnessUnderTest; cwd: string }> {
  const work = realpathSync(tempDir());
  const opencode = await opencodeDriver.open({
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
  await opencode.warmUp(earlier);
  return { opencode, cwd };
}

test(
  "a one-shot OpenCode seeding reaches the model as typed and is sent back once per part, in order, on resume (real OpenCode 1.18.33)",
  { skip },
  async () => {
    const { opencode, cwd } = await liveOpencode();
    try {
      const plan = sentinelPlan("full", "0c0c0c");
      const seeded = await opencode.seed(cwd, plan.prompts);
      assert.match(seeded.firstReply, /^ASSISTANT-REPLY: /);
      assert.equal(await opencode.listed(seeded.id, cwd), true);
      const prompt = plan.resume(1, "opencode");
      const turn = await opencode.resume(cwd, seeded.id, prompt);
      assert.equal(turn.ok, true, turn.detail);
      const sent = opencode.lastRequest();
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
      // Exactly the words typed: given as an argument, `opencode run` would have sent them in double quotes.
      assert.equal(sent[1]!.text, plan.prompts.first);
      assert.equal(sent[3]!.text, plan.prompts.tool);
      const parts = seededParts(plan.prompts, seeded.firstReply, plan.tool).add("typed prompt on resume", [
        "user",
      ], prompt);
      assert.deepEqual(checkOrder(sent, parts.parts), []);
    } finally {
      await opencode.close();
    }
  },
);

test(
  "an OpenCode TUI session interrupted mid-call with words queued is sent back once per part, in order, on resume (real OpenCode 1.18.33)",
  { skip: skipTui },
  async () => {
    const { opencode, cwd } = await liveOpencode();
    try {
      const plan = sentinelPlan("full", "1e1e1e");
      const seeded = await opencode.seedInterrupted(cwd, plan.interrupt!);
      assert.match(seeded.firstReply, /^ASSISTANT-REPLY: /);
      assert.equal(await opencode.listed(seeded.id, cwd), true);
      const prompt = plan.resume(1, "opencode");
      const turn = await opencode.resume(cwd, seeded.id, prompt);
      assert.equal(turn.ok, true, turn.detail);
      const sent = opencode.lastRequest();
      // The interrupted call's output is what the shell printed before the abort; the queued words, which
      // OpenCode recorded but never answered, go out as the person's words just before the resumed prompt.
      assert.deepEqual(sent.slice(-5).map((m) => m.role), ["user", "tool_call", "tool", "user", "user"]);
      const parts = seededParts(plan.interrupt!, seeded.firstReply, plan.tool).add("typed prompt on resume", [
        "user",
      ], prompt);
      assert.deepEqual(checkOrder(sent, parts.parts), []);
    } finally {
      await opencode.close();
    }
  },
);
