/**
 * Rendering into Codex, one test per rule the peers broke (PEERS.md, "Codex target"): files Codex resumes, with
 * the picker's and the TUI's data, for the Codex installed in the target home.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readCodexSession } from "../lib/harnesses/codex/read.ts";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { HANDSHAKE_OPEN, INTERRUPTED_RESULT } from "../lib/handshake/handshake.ts";
import { FAILED_MARKER } from "../lib/ir/tool-failure.ts";
import { codex } from "../lib/harnesses/codex/index.ts";
import { claudeFixture, jsonLines } from "./helpers/fixtures.ts";
import { codexFixture, makeCodexHome } from "./helpers/codex.ts";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { conversationCore } from "./helpers/ir-core.ts";
import { emptySession } from "../lib/ir/session.ts";
import { publishFile } from "../lib/io/publish.ts";
import { wholeLines } from "../lib/io/rendered.ts";
import type { Session } from "../lib/ir/schema.ts";

type Line = { timestamp: string; ordinal?: number; type: string; payload: Record<string, unknown> };

const root = tempDir();
const paginatedHome = join(root, "codex-0.169");
makeCodexHome(paginatedHome, { version: "0.169.0", provider: "fake" });
const legacyHome = join(root, "codex-0.147");
makeCodexHome(legacyHome, { version: "0.147.0", provider: "corp-proxy", model: "gpt-5.1" });
let n = 0;

/** `convert` into a file for the Codex of `home`; returns its lines. */
async function convert(source: string, home = paginatedHome, extra: string[] = []): Promise<Line[]> {
  const out = join(root, `out-${n++}.jsonl`);
  const r = await runCli(["convert", source, "--to", "codex", "-o", out, "--codex-home", home, ...extra]);
  assert.equal(r.code, 0, r.stderr);
  return jsonLines(out) as unknown as Line[];
}

const items = (lines: Line[]) => lines.filter((l) => l.type === "response_item").map((l) => l.payload);
const events = (lines: Line[], type: string) =>
  lines.filter((l) => l.type === "event_msg" && l.payload.type === type).map((l) => l.payload);

test("paginated history: a strictly increasing ordinal on every line, from 0", async () => {
  const lines = await convert(claudeFixture("thinking-tool-use"));
  assert.deepEqual(lines.map((l) => l.ordinal), lines.map((_, i) => i));
  assert.equal(lines[0]!.payload.history_mode, "paginated");
});

test("legacy history for an older Codex: no ordinals, user_message / agent_message mirrors", async () => {
  const lines = await convert(claudeFixture("thinking-tool-use"), legacyHome);
  assert.ok(lines.every((l) => !("ordinal" in l)));
  assert.equal(lines[0]!.payload.history_mode, "legacy");
  assert.equal(lines[0]!.payload.cli_version, "0.147.0");
  assert.equal(events(lines, "user_message").length, 1);
  assert.ok(events(lines, "agent_message").length >= 1);
  assert.equal(events(lines, "item_completed").length, 0);
});

test("a complete session_meta comes first: the thread id, RFC 3339 times, source cli, the installed cli_version", async () => {
  const lines = await convert(claudeFixture("plain-text"));
  const meta = lines[0]!;
  assert.equal(meta.type, "session_meta");
  assert.match(
    String(meta.payload.id),
    /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
  );
  assert.equal(meta.payload.source, "cli");
  assert.equal(meta.payload.cli_version, "0.169.0");
  assert.equal(meta.payload.cwd, "/home/user/project");
  for (const l of lines) assert.match(l.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.ok(lines.every((l, i) => i === 0 || l.timestamp >= lines[i - 1]!.timestamp), "never backwards");
});

test("model_provider and model are the ones the user's Codex config selects, never the source's", async () => {
  const lines = await convert(claudeFixture("thinking-tool-use"), legacyHome);
  assert.equal(lines[0]!.payload.model_provider, "corp-proxy");
  const contexts = lines.filter((l) => l.type === "turn_context").map((l) => l.payload.model);
  assert.ok(contexts.length > 0 && contexts.every((m) => m === "gpt-5.1"), JSON.stringify(contexts));
  assert.doesNotMatch(JSON.stringify(lines), /claude-[a-z]+-\d/);
});

test("no fabricated item ids: response items carry no id the source did not have", async () => {
  const lines = await convert(claudeFixture("thinking-tool-use"));
  for (const item of items(lines)) assert.equal("id" in item, false, JSON.stringify(item));
});

test("both streams: every turn has task_started, turn_context and task_complete, every message a UI mirror", async () => {
  const lines = await convert(claudeFixture("resumed"));
  const started = events(lines, "task_started").map((p) => p.turn_id);
  const completed = events(lines, "task_complete").map((p) => p.turn_id);
  const contexts = lines.filter((l) => l.type === "turn_context").map((l) => l.payload.turn_id);
  assert.ok(started.length >= 2);
  assert.deepEqual(completed, started);
  assert.deepEqual(contexts, started);
  const users = items(lines).filter((i) =>
    i.type === "message" && i.role === "user" &&
    !JSON.stringify(i.content).includes(HANDSHAKE_OPEN)
  );
  const assistants = items(lines).filter((i) => i.type === "message" && i.role === "assistant");
  const mirrors = events(lines, "item_completed").map((p) => (p.item as { type: string }).type);
  assert.equal(mirrors.filter((t) => t === "UserMessage").length, users.length);
  assert.equal(mirrors.filter((t) => t === "AgentMessage").length, assistants.length);
  assert.equal(
    events(lines, "task_complete").at(-1)!.last_agent_message,
    (assistants.at(-1)!.content as { text: string }[])[0]!.text,
  );
});

test("tool calls become function_call with JSON-string arguments, outputs paired by call_id", async () => {
  const lines = await convert(claudeFixture("thinking-tool-use"));
  const calls = items(lines).filter((i) => i.type === "function_call");
  const outputs = items(lines).filter((i) => i.type === "function_call_output");
  assert.equal(calls.length, 1);
  assert.equal(typeof calls[0]!.arguments, "string");
  assert.deepEqual(JSON.parse(calls[0]!.arguments as string), { cmd: "echo fixture-tool-output" });
  assert.deepEqual(outputs.map((o) => o.call_id), calls.map((c) => c.call_id));
  const at = (p: Record<string, unknown>) => items(lines).indexOf(p);
  assert.ok(at(outputs[0]!) > at(calls[0]!));
});

test("another vendor's reasoning is carried as text, never replayed as Codex reasoning", async () => {
  const lines = await convert(claudeFixture("thinking-tool-use"));
  assert.equal(items(lines).filter((i) => i.type === "reasoning").length, 0);
  assert.match(JSON.stringify(items(lines)), /\[reasoning\] The user wants a shell command run/);
  const r = await runCli([
    "convert",
    claudeFixture("thinking-tool-use"),
    "--to",
    "codex",
    "-o",
    join(root, "report.jsonl"),
    "--codex-home",
    paginatedHome,
  ]);
  assert.match(r.stderr, /reasoning-proofs-dropped/);
});

test("Codex reasoning with its encrypted content goes back to Codex as a reasoning item", async () => {
  const source = await readCodexSession(codexFixture("0.169.0", "tool-call"));
  const rendered = [];
  for await (
    const l of wholeLines(codex.store.render(
      { ...source, meta: { ...source.meta, harness: "claude-code", path: undefined } },
      {
        id: "01a2291a-0000-7000-8000-00000000000a",
        cwd: "/w",
        now: new Date(),
        stubOpenCalls: false,
      },
    ))
  ) rendered.push(JSON.parse(l) as Line);
  const [reasoning] = items(rendered).filter((i) => i.type === "reasoning");
  assert.match(String(reasoning!.encrypted_content), /^gAAAAAB/);
  assert.equal("id" in reasoning!, false);
});

test("--stub-open-calls closes the open call with a failed output; the handshake is the last, unmirrored user message", async () => {
  const lines = await convert(claudeFixture("interrupted-tool-call"), paginatedHome, ["--stub-open-calls"]);
  const all = items(lines);
  const call = all.findLast((i) => i.type === "function_call")!;
  const stub = all.find((i) => i.type === "function_call_output" && i.call_id === call.call_id)!;
  assert.equal(stub.output, FAILED_MARKER + INTERRUPTED_RESULT);
  const last = lines.at(-1)!;
  assert.equal(last.type, "response_item");
  assert.equal(last.payload.role, "user");
  assert.match(
    JSON.stringify(last.payload.content),
    /^\[\{"type":"input_text","text":"<session-bridge-handoff>/,
  );
  assert.ok(!events(lines, "item_completed").some((e) => JSON.stringify(e).includes(HANDSHAKE_OPEN)));
});

test("a failed tool result keeps its failure through Codex, which records no success flag", async () => {
  const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
  const session = {
    ...emptySession({ harness: "claude-code", id: "s", cwd: "/w", models: [] }),
    messages: [
      {
        uid: "1",
        parentUid: null,
        role: "user",
        kind: "turn",
        timestamp: at(1),
        blocks: [{ type: "text", text: "go" }],
      },
      {
        uid: "2",
        parentUid: "1",
        role: "assistant",
        kind: "turn",
        timestamp: at(2),
        blocks: [{ type: "tool_call", id: "call_1", name: "exec_command", input: { cmd: "false" } }],
      },
      {
        uid: "3",
        parentUid: "2",
        role: "user",
        kind: "turn",
        timestamp: at(3),
        blocks: [{
          type: "tool_result",
          callId: "call_1",
          isError: true,
          content: [{ type: "text", text: "exit 1" }],
        }],
      },
    ],
  } satisfies Session;
  const out = join(root, "failed.jsonl");
  await publishFile(
    out,
    codex.store.render(session, {
      id: "01a2291a-0000-7000-8000-00000000000b",
      cwd: "/w",
      now: new Date(),
      stubOpenCalls: false,
    }),
    false,
  );
  const back = await readCodexSession(out);
  const result = back.messages.flatMap((m) => m.blocks).find((b) => b.type === "tool_result");
  assert.deepEqual(result, {
    type: "tool_result",
    callId: "call_1",
    isError: true,
    content: [{ type: "text", text: "exit 1" }],
  });
  assert.match(readFileSync(out, "utf8"), /"output":"\[tool call failed\]\\nexit 1"/);
});

test("Claude Code -> Codex -> Claude Code keeps the conversation and restores the original tool call", async () => {
  const toCodex = join(root, "hop1.jsonl");
  const toClaude = join(root, "hop2.jsonl");
  const env = { SESSION_BRIDGE_HOME: join(root, "bridge") };
  assert.equal(
    (await runCli([
      "convert",
      claudeFixture("thinking-tool-use"),
      "--to",
      "codex",
      "-o",
      toCodex,
      "--codex-home",
      paginatedHome,
    ], env)).code,
    0,
  );
  const r = await runCli([
    "convert",
    toCodex,
    "--to",
    "claude",
    "-o",
    toClaude,
    "--codex-home",
    paginatedHome,
  ], env);
  assert.equal(r.code, 0, r.stderr);
  const original = await readClaudeSession(claudeFixture("thinking-tool-use"));
  const back = await readClaudeSession(toClaude);
  const core = (m: typeof original.messages) => conversationCore(m).filter((t) => t.blocks.length);
  assert.deepEqual(core(back.messages), core(original.messages));
});

test("Codex -> Claude Code: the Codex fixtures convert with their turns, calls and results", async () => {
  for (const name of ["tool-call", "apply-patch", "compacted"]) {
    const out = join(root, `to-claude-${name}.jsonl`);
    const r = await runCli(["convert", codexFixture("0.169.0", name), "--to", "claude", "-o", out]);
    assert.equal(r.code, 0, r.stderr);
    const back = await readClaudeSession(out);
    assert.ok(back.messages.some((m) => m.role === "assistant"), name);
    assert.deepEqual(back.drift, [], name);
  }
});

test("without a Codex home, convert writes for the newest known Codex and its default provider", async () => {
  const out = join(root, "rollout-2026-11-29T10-00-00-01a2291a-0000-7000-8000-0000000000ff.jsonl");
  const r = await runCli([
    "convert",
    claudeFixture("plain-text"),
    "--to",
    "codex",
    "-o",
    out,
    "--codex-home",
    join(root, "none"),
  ]);
  assert.equal(r.code, 0, r.stderr);
  const meta = jsonLines(out)[0] as unknown as Line;
  assert.equal(meta.payload.model_provider, "openai", "Codex's own default provider");
  assert.equal(meta.payload.history_mode, "paginated");
});

test("SESSION_BRIDGE_CODEX_VERSION picks the Codex written for when the target home shows none", async () => {
  const empty = join(root, "codex-never-ran");
  const out = join(root, `out-${n++}.jsonl`);
  const r = await runCli(
    ["convert", claudeFixture("thinking-tool-use"), "--to", "codex", "-o", out, "--codex-home", empty],
    { SESSION_BRIDGE_CODEX_VERSION: "0.147.0" },
  );
  assert.equal(r.code, 0, r.stderr);
  const lines = jsonLines(out) as unknown as Line[];
  assert.equal(lines[0]!.payload.cli_version, "0.147.0");
  assert.ok(lines.every((l) => l.ordinal === undefined), "0.147.0 writes legacy history: no ordinals");
});
