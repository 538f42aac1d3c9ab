/**
 * The Copilot CLI certify driver and engine without session-bridge's reader or writer: what they parse from
 * what Copilot CLI 1.0.102 printed and recorded (fixtures/copilot-cli/1.0.102/), what the fake model is handed,
 * and the real binary (installed in the harness cache, offline against the fake server) seeding a one-shot
 * session and an interrupted TUI session and resuming each, every resume checked with certify's own pair
 * check: every earlier part sent once, in order. The live tests are skipped when the binary is not installed
 * (`npx bun acceptance/install-harness.ts copilot-cli`).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { harnessDir } from "../acceptance/install-harness.ts";
import type { HarnessUnderTest } from "../lib/certify-kit/driver.ts";
import { checkOrder, seededParts, sentinelPlan } from "../lib/certify-kit/sentinels.ts";
import { copilotCliDriver } from "../lib/harnesses/copilot-cli/certify/index.ts";
import { answerAfter, recordedEvents, runningCall } from "../lib/harnesses/copilot-cli/certify/recorded.ts";
import { copilotScript } from "../lib/harnesses/copilot-cli/certify/sent.ts";
import { copilotEngine } from "../lib/harnesses/copilot-cli/engine.ts";
import { parsePromptOutput, promptSessionId } from "../lib/harnesses/copilot-cli/prompt-output.ts";
import { samples } from "../lib/harnesses/copilot-cli/samples.ts";
import { tempDir } from "./helpers/tmp.ts";

const VERSION = "1.0.102";
const FIXTURES = fileURLToPath(new URL(`../fixtures/copilot-cli/${VERSION}/`, import.meta.url));
const BIN = join(
  harnessDir("copilot-cli", VERSION),
  "node_modules",
  "@github",
  "copilot-linux-x64",
  "copilot",
);
const skip = process.platform === "linux" && process.arch === "x64" && existsSync(BIN)
  ? false
  : `Copilot CLI ${VERSION} (linux-x64) is not installed (npx bun acceptance/install-harness.ts copilot-cli)`;

const output = (name: string) => readFileSync(join(FIXTURES, "prompt-output", name), "utf8");

/** The COPILOT_HOME of a captured scenario: its `session-state/` is the store's. */
const scenarioHome = (name: string) => join(FIXTURES, name);
const onlySession = (name: string) => readdirSync(join(scenarioHome(name), "session-state"))[0]!;

test("copilot -p --output-format json names its session on the closing result line only; the answer is the message after the tool call", () => {
  const text = output("tool-call.jsonl");
  const lines = text.split("\n").filter(Boolean);
  assert.deepEqual(lines.map((l) => promptSessionId(l)).filter(Boolean), [
    "71669a1e-b48d-4af2-8be0-851bbe72eb1e",
  ]);
  assert.equal(promptSessionId(lines.at(-1)!), "71669a1e-b48d-4af2-8be0-851bbe72eb1e");
  assert.deepEqual(parsePromptOutput(text), {
    sessionId: "71669a1e-b48d-4af2-8be0-851bbe72eb1e",
    reply: "Tool said: hi-there\n<shellId: 0 completed with exit code 0>",
  });
  assert.equal(
    copilotEngine.replyFrom(text, ""),
    "Tool said: hi-there\n<shellId: 0 completed with exit code 0>",
  );
  assert.equal(copilotEngine.idFrom(lines.at(-1)!, 2), undefined);
});

test("a -p run whose model cannot be reached fails with Copilot's own words, its session still named", () => {
  const out = parsePromptOutput(output("unreachable-model.jsonl"));
  assert.equal(out.sessionId, "676d74a9-f8f7-4c9e-a85b-99d830b26586");
  assert.equal(out.reply, "");
  assert.match(
    out.error ?? "",
    /^Could not connect to local model provider at http:\/\/127\.0\.0\.1:9\/v1\./,
  );
});

test("the engine's turn keeps a prompt that starts with a dash a prompt, and an id joined to --resume", () => {
  assert.deepEqual(
    copilotEngine.args({ prompt: "-v says hi", resume: "71669a1e-b48d-4af2-8be0-851bbe72eb1e" }),
    [
      "--output-format",
      "json",
      "--resume=71669a1e-b48d-4af2-8be0-851bbe72eb1e",
      "--prompt=-v says hi",
    ],
  );
  assert.deepEqual(copilotEngine.args({ prompt: "hi", model: "gpt-4.1" }), [
    "--output-format",
    "json",
    "--model=gpt-4.1",
    "--prompt=hi",
  ]);
});

test("the fake model is handed the typed words without Copilot's datetime block, and its bash call carries the description Copilot requires", () => {
  const reply = copilotScript({
    messages: [
      { role: "system", content: "You are the GitHub Copilot CLI" },
      {
        role: "user",
        content: "<current_datetime>2026-12-03T16:54:51.963+00:00</current_datetime>\n\nTOOL: echo tool-x",
      },
    ],
    tools: [{
      type: "function",
      function: {
        name: "bash",
        parameters: {
          type: "object",
          properties: { command: { type: "string" }, description: { type: "string" } },
        },
      },
    }],
  }, { requestIndex: 0, stream: true });
  assert.equal(reply.toolCalls?.length, 1);
  assert.equal(reply.toolCalls![0]!.name, "bash");
  assert.deepEqual(reply.toolCalls![0]!.arguments, {
    command: "echo tool-x",
    description: "Run the command the user asked for",
  });
});

test("a TUI turn's answer is the message asking for no tool after its prompt; a killed run's shell call is still running", () => {
  const typed = recordedEvents(scenarioHome("interactive"), onlySession("interactive"));
  assert.equal(
    answerAfter(typed, "Please greet the reviewer"),
    "ASSISTANT-REPLY: acknowledged, turn 1, digest 3b2e951d.",
  );
  assert.equal(
    answerAfter(typed, "TOOLS: take a tour"),
    "Tool said: 1 row(s) inserted. Last inserted row ID: 1.",
  );
  assert.equal(runningCall(typed, "echo fixture-out"), false);
  const killed = recordedEvents(scenarioHome("killed-mid-tool"), onlySession("killed-mid-tool"));
  assert.equal(runningCall(killed, "sleep 47"), true);
  // The killed turn never ended: it has no answer.
  assert.equal(answerAfter(killed, "SLOW: wait a while."), undefined);
});

test("structure-only certify replays the session Copilot CLI 1.0.102 recorded typed in its TUI, line for line", () => {
  const [sample] = samples;
  assert.equal(samples.length, 1);
  assert.equal(sample!.version, VERSION);
  const captured = readFileSync(fileURLToPath(new URL(`../${sample!.source}`, import.meta.url)), "utf8");
  assert.deepEqual(sample!.lines, captured.trimEnd().split("\n"));
  assert.match(sample!.source, /\/interactive\/session-state\/[0-9a-f-]{36}\/events\.jsonl$/);
});

/** The driver opened on the installed binary in full mode, with a project folder to run in. */
async function liveCopilot(): Promise<{ copilot: HarnessUnderTest; cwd: string }> {
  const work = realpathSync(tempDir("sb-copilot-driver-"));
  const copilot = await copilotCliDriver.open({
    work,
    bin: BIN,
    version: VERSION,
    mode: "full",
    env: process.env,
    homeVariables: [],
  });
  const cwd = join(work, "project");
  mkdirSync(cwd);
  return { copilot, cwd };
}

test(
  "a one-shot Copilot CLI seeding is listed by its id and sent back once per part, in order, on resume (real Copilot CLI 1.0.102)",
  { skip },
  async () => {
    const { copilot, cwd } = await liveCopilot();
    try {
      const plan = sentinelPlan("full", "c0p1a7");
      const seeded = await copilot.seed(cwd, plan.prompts);
      assert.match(seeded.firstReply, /^ASSISTANT-REPLY: /);
      assert.equal(await copilot.listed(seeded.id, cwd), true);
      assert.equal(await copilot.listed("3a9b9114-f20b-43b8-a329-ca5226d59867", cwd), false);
      const turn = await copilot.resume(cwd, seeded.id, "Resumed: note hop-sentinel-c0p1a7-1.");
      assert.equal(turn.ok, true, turn.detail);
      const parts = seededParts(plan.prompts, seeded.firstReply, plan.tool)
        .add("typed prompt on resume", ["user"], "hop-sentinel-c0p1a7-1");
      assert.deepEqual(checkOrder(copilot.lastRequest(), parts.parts), []);
    } finally {
      await copilot.close();
    }
  },
);

test(
  "typed in the TUI, a shell call interrupted with Esc while words wait enqueued resumes with the call and then the queued words, once each (real Copilot CLI 1.0.102)",
  { skip },
  async () => {
    const { copilot, cwd } = await liveCopilot();
    try {
      const plan = sentinelPlan("full", "c0p1b8");
      const prompts = plan.interrupt!;
      const seeded = await copilot.seedInterrupted(cwd, prompts);
      const turn = await copilot.resume(cwd, seeded.id, "Resumed: note hop-sentinel-c0p1b8-1.");
      assert.equal(turn.ok, true, turn.detail);
      const sent = copilot.lastRequest();
      const parts = seededParts(prompts, seeded.firstReply, plan.tool)
        .add("typed prompt on resume", ["user"], "hop-sentinel-c0p1b8-1");
      assert.deepEqual(checkOrder(sent, parts.parts), []);
      // Copilot closes the call left open by the interruption itself on resume.
      assert.ok(sent.some((m) => m.role === "tool" && /interrupted/.test(m.text)));
    } finally {
      await copilot.close();
    }
  },
);
