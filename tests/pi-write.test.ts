/**
 * The Pi writer through the real CLI: a handoff's one file where Pi 0.73.1 looks, the id refused when
 * taken, --force, undo, the model Pi's settings name, and the entries' shape for what Pi does on resume.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { encodePi } from "../lib/harnesses/pi/encode.ts";
import { emptySession } from "../lib/ir/session.ts";
import { INTERRUPTED_RESULT } from "../lib/handshake/handshake.ts";
import { runCli } from "./helpers/cli.ts";
import { claudeFixture, jsonLines } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";

const registry = builtinRegistry;

/** A Claude Code session captured from the real binary: a typed prompt, reasoning, a Bash call and its output. */
const CLAUDE_SOURCE = claudeFixture("thinking-tool-use");

interface HandoffJson {
  op: string;
  target: { id: string; path: string; resumeCommand: string };
  report: { entries: { code: string; severity: string; detail: string }[] };
}

function world() {
  const root = tempDir();
  const env = { HOME: join(root, "user") };
  const piHome = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(piHome, { recursive: true });
  const piCli = async (args: string[]) => {
    const r = await runCli([...args, "--pi-home", piHome, "--json"], env, undefined, registry);
    return {
      code: r.code,
      stderr: r.stderr,
      json: r.stdout ? JSON.parse(r.stdout) as Record<string, unknown> : {},
    };
  };
  const handOff = async (...extra: string[]) =>
    await piCli(["handoff", CLAUDE_SOURCE, "--to", "pi", "--cwd", cwd, ...extra]);
  return { root, env, piHome, cwd, piCli, handOff };
}

test("a Claude Code session hands off to Pi: one file in its project folder, named by its start and id, Bash as bash, resumed by pi --session <id>", async () => {
  const { piHome, cwd, handOff } = world();
  const r = await handOff();
  assert.equal(r.code, 0, r.stderr);
  const { target } = r.json as unknown as HandoffJson;
  const folder = join(piHome, "sessions", `--${cwd.slice(1).replaceAll("/", "-")}--`);
  const lines = jsonLines(target.path);
  const header = lines[0]!;
  assert.equal(
    target.path,
    join(folder, `${String(header.timestamp).replace(/[:.]/g, "-")}_${target.id}.jsonl`),
  );
  assert.deepEqual(header, { type: "session", version: 3, id: target.id, timestamp: header.timestamp, cwd });
  // The source's posture follows as the tool set Pi is given (posture.ts): Claude Code's default asks before
  // running or editing anything, which Pi never does, so it gets the read-only tools.
  assert.equal(
    target.resumeCommand,
    `cd ${cwd} && PI_CODING_AGENT_DIR=${piHome} pi --session ${target.id} --tools 'read,grep,find,ls'`,
  );
  // Pi's own first two entries, then the conversation, each entry the child of the one before.
  assert.deepEqual(lines.slice(1, 3).map((e) => e.type), ["model_change", "thinking_level_change"]);
  lines.slice(2).forEach((e, i) => assert.equal(e.parentId, lines[i + 1]!.id));
  const call = lines.flatMap((e) =>
    ((e.message as { content?: unknown[] })?.content ?? []) as Record<string, unknown>[]
  )
    .find((p) => p.type === "toolCall")!;
  assert.equal(call.name, "bash");
  assert.deepEqual(call.arguments, { command: "echo fixture-tool-output" });
  const result = lines.find((e) => (e.message as { role?: string })?.role === "toolResult")!
    .message as Record<string, unknown>;
  assert.equal(result.toolName, "bash");
  // The handshake reaches the model as the user's and is not shown in the TUI.
  const handshake = lines.find((e) => e.type === "custom_message")!;
  assert.equal(handshake.display, false);
});

test("a handoff into Pi is refused when a project folder holds a file of its id; --force replaces it in place and says to quit a Pi running on it", async () => {
  const { handOff } = world();
  const first = await handOff();
  assert.equal(first.code, 0, first.stderr);
  const { target } = first.json as unknown as HandoffJson;
  const again = await handOff("--session-id", target.id);
  assert.equal(again.code, 1);
  assert.match(again.stderr, new RegExp(`session ${target.id} already exists in ${target.path}`));
  const forced = await handOff("--session-id", target.id, "--force");
  assert.equal(forced.code, 0, forced.stderr);
  const replaced = forced.json as unknown as HandoffJson;
  assert.equal(replaced.target.path, target.path);
  assert.ok(replaced.report.entries.some((e) => e.code === "pi-running" && e.detail.includes("no lock")));
});

test("undo takes back the handoff to Pi: its file is gone", async () => {
  const { handOff, piCli } = world();
  const r = await handOff();
  assert.equal(r.code, 0, r.stderr);
  const { op, target } = r.json as unknown as HandoffJson;
  assert.ok(existsSync(target.path));
  const undone = await piCli(["undo", op]);
  assert.equal(undone.code, 0, undone.stderr);
  assert.equal(existsSync(target.path), false);
});

test("a handoff into Pi continues on the model Pi's settings name: the file's last model_change names it", async () => {
  const { piHome, cwd, handOff } = world();
  writeFileSync(
    join(piHome, "settings.json"),
    JSON.stringify({ defaultProvider: "fake", defaultModel: "fake-model" }),
  );
  writeFileSync(
    join(piHome, "models.json"),
    JSON.stringify({ providers: { fake: { api: "openai-completions", models: [{ id: "fake-model" }] } } }),
  );
  mkdirSync(join(cwd, ".pi"));
  writeFileSync(join(cwd, ".pi", "settings.json"), JSON.stringify({ defaultThinkingLevel: "high" }));
  const r = await handOff();
  assert.equal(r.code, 0, r.stderr);
  const { target, report } = r.json as unknown as HandoffJson;
  assert.ok(report.entries.some((e) => e.code === "model" && e.detail.includes("fake/fake-model")));
  const lines = jsonLines(target.path);
  const last = lines.at(-1)!;
  assert.deepEqual([last.type, last.provider, last.modelId], ["model_change", "fake", "fake-model"]);
  assert.equal(lines.find((e) => e.type === "thinking_level_change")!.thinkingLevel, "high");
  // The responses keep the model that made them: Pi sends another model's reasoning as text.
  const response = lines.find((e) => (e.message as { role?: string })?.role === "assistant")!
    .message as Record<string, unknown>;
  assert.deepEqual([response.provider, response.api], ["anthropic", "anthropic-messages"]);
});

test("convert renders a Claude Code session as a Pi file, touching no store", async () => {
  const { root, piHome, piCli } = world();
  const out = join(root, "converted.jsonl");
  const r = await piCli(["convert", CLAUDE_SOURCE, "--to", "pi", "-o", out]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(jsonLines(out)[0]!.type, "session");
  assert.equal(existsSync(join(piHome, "sessions")), false);
});

async function encodedLines(session: ReturnType<typeof emptySession>, stubOpenCalls: boolean) {
  const out: Record<string, unknown>[] = [];
  const lines = encodePi(session, {
    id: "s",
    cwd: "/p",
    now: new Date("2030-01-01T00:00:00Z"),
    stubOpenCalls,
  }, {
    model: { provider: "fake", modelId: "fake-model", api: "openai-completions" },
    apiOf: () => undefined,
    thinkingLevel: "medium",
    firstEntryId: "ffffffff",
  });
  for await (const l of lines) out.push(JSON.parse(l) as Record<string, unknown>);
  return out;
}

test("a summary the thread starts from is a compaction whose first kept entry is the one after it, as Pi sends it first", async () => {
  const session = emptySession({ harness: "x", id: "x", models: [] });
  session.messages.push(
    { uid: "s", parentUid: null, role: "user", kind: "summary", blocks: [{ type: "text", text: "SUMMARY" }] },
    { uid: "u", parentUid: "s", role: "user", kind: "turn", blocks: [{ type: "text", text: "go on" }] },
  );
  const lines = await encodedLines(session, false);
  const at = lines.findIndex((e) => e.type === "compaction");
  assert.equal(lines[at]!.summary, "SUMMARY");
  assert.equal(lines[at]!.firstKeptEntryId, lines[at + 1]!.id);
  // Counted up from the first id, wrapping past ffffffff: unique in the file.
  assert.deepEqual(lines.slice(1, 3).map((e) => e.id), ["ffffffff", "00000000"]);
});

test("a same-harness copy's call still open when the thread ends is answered as interrupted, an error, after it", async () => {
  const session = emptySession({ harness: "pi", id: "x", models: [] });
  session.messages.push({
    uid: "a",
    parentUid: null,
    role: "assistant",
    kind: "turn",
    blocks: [{ type: "tool_call", id: "c1", name: "bash", input: { command: "sleep 9" } }],
  });
  const stubbed = await encodedLines(session, true);
  const result = stubbed.find((e) => (e.message as { role?: string })?.role === "toolResult")!
    .message as Record<
      string,
      unknown
    >;
  assert.deepEqual([result.toolCallId, result.toolName, result.isError], ["c1", "bash", true]);
  assert.deepEqual(result.content, [{ type: "text", text: INTERRUPTED_RESULT }]);
  // Left open, as Pi leaves a call killed mid-run: on resume it sends "No result provided" for it.
  const open = await encodedLines(session, false);
  assert.equal(open.some((e) => (e.message as { role?: string })?.role === "toolResult"), false);
});

test("a session with a rewound branch handed into Pi reports the branch as not carried: Pi's file holds the live thread", async () => {
  const { cwd, piCli } = world();
  const r = await piCli(["handoff", claudeFixture("rewound-branch"), "--to", "pi", "--cwd", cwd]);
  assert.equal(r.code, 0, r.stderr);
  const { report } = r.json as unknown as HandoffJson;
  const dropped = report.entries.find((e) => e.code === "abandoned-branches");
  assert.equal(dropped?.severity, "loss");
  assert.equal(dropped?.detail, "rewound branches are not carried");
});

test("a handoff into Pi naming a model Pi has not configured warns that Pi falls back to another on resume", async () => {
  const { piHome, handOff } = world();
  writeFileSync(
    join(piHome, "models.json"),
    JSON.stringify({ providers: { fake: { api: "openai-completions", models: [{ id: "fake-model" }] } } }),
  );
  const entries = async (...extra: string[]) => {
    const r = await handOff(...extra);
    assert.equal(r.code, 0, r.stderr);
    return (r.json as unknown as HandoffJson).report.entries;
  };
  // A provider models.json does not name, and a model of a configured provider that it does not list.
  for (const model of ["nowhere/some-model", "fake/other-model"]) {
    const warning = (await entries("--model", model)).find((e) => e.code === "pi-model-unconfigured");
    assert.equal(warning?.severity, "warning", model);
    assert.equal(
      warning?.detail,
      `Pi has no model ${model} configured (${join(piHome, "models.json")} or its built-in providers): on ` +
        "resume it continues on its settings' default model instead (defaultProvider, defaultModel), else " +
        "the first it has a key for",
    );
  }
  assert.equal(
    (await entries("--model", "fake/fake-model")).some((e) => e.code === "pi-model-unconfigured"),
    false,
  );
  // Pi's own providers serve their models (the key is Pi's business at resume).
  assert.equal(
    (await entries("--model", "anthropic/claude-sonnet-4-5")).some((e) => e.code === "pi-model-unconfigured"),
    false,
  );
});
