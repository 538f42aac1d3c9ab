import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readCodexSession } from "../lib/harnesses/codex/read.ts";
import type { Block, Message } from "../lib/ir/schema.ts";
import { CODEX_SCENARIOS, CODEX_VERSIONS, codexFixture } from "./helpers/codex.ts";
import { tempDir } from "./helpers/tmp.ts";
import { runCliJson } from "./helpers/cli.ts";

const root = tempDir();
const blocks = (messages: Message[], type: Block["type"]) =>
  messages.flatMap((m) => m.blocks.filter((b) => b.type === type));
const turns = (messages: Message[], role: Message["role"]) =>
  messages.filter((m) => m.role === role && m.kind === "turn");

for (const version of CODEX_VERSIONS) {
  test(`every ${version} fixture (${version === "0.147.0" ? "legacy" : "paginated"}) reads without drift`, async () => {
    for (const name of CODEX_SCENARIOS) {
      const s = await readCodexSession(codexFixture(version, name));
      assert.deepEqual(s.drift, [], `${name}: ${JSON.stringify(s.drift)}`);
      assert.deepEqual(s.notices, [], name);
      assert.equal(s.meta.harness, "codex");
      assert.equal(s.meta.harnessVersion, version);
      assert.equal(s.meta.cwd, "/home/user/project");
      assert.ok(s.messages.length > 0, name);
    }
  });

  test(`${version}: UI mirrors (event_msg) never become a second copy of a turn`, async () => {
    const s = await readCodexSession(codexFixture(version, "resumed"));
    assert.deepEqual(
      turns(s.messages, "user").map((m) => (m.blocks[0] as { text: string }).text),
      [
        "Opening remark about violin strings.",
        "Follow-up about cedar wood.",
        "Last follow-up about varnish drying.",
      ],
    );
    assert.equal(turns(s.messages, "assistant").length, 3);
  });

  test(`${version}: developer messages and environment context are harness context, not user turns`, async () => {
    const s = await readCodexSession(codexFixture(version, "text-turns"));
    const context = s.messages.filter((m) => m.kind === "context");
    assert.ok(context.some((m) => m.role === "system"), "developer instructions");
    assert.ok(
      context.some((m) =>
        m.role === "user" &&
        m.blocks.some((b) => b.type === "text" && b.text.startsWith("<environment_context>"))
      ),
    );
    for (const m of turns(s.messages, "user")) {
      assert.doesNotMatch(JSON.stringify(m.blocks), /environment_context|skills_instructions/);
    }
  });

  test(`${version}: a function call and its output are linked by call_id; reasoning keeps summary and encrypted content`, async () => {
    const s = await readCodexSession(codexFixture(version, "tool-call"));
    const [call] = blocks(s.messages, "tool_call") as Extract<Block, { type: "tool_call" }>[];
    const [result] = blocks(s.messages, "tool_result") as Extract<Block, { type: "tool_result" }>[];
    assert.equal(call!.name, "exec_command");
    assert.deepEqual(call!.input, { cmd: "echo hello-from-tool" });
    assert.equal(result!.callId, call!.id);
    assert.match(JSON.stringify(result!.content), /hello-from-tool/);
    const [reasoning] = blocks(s.messages, "reasoning") as Extract<Block, { type: "reasoning" }>[];
    assert.equal(reasoning!.provider, "openai");
    assert.equal(reasoning!.text, "Running the requested command in the shell.");
    assert.match(reasoning!.encrypted!, /^gAAAAAB/);
    assert.deepEqual(s.pending.openToolCalls, []);
  });

  test(`${version}: an apply_patch custom tool call keeps its patch text and pairs with its output`, async () => {
    const s = await readCodexSession(codexFixture(version, "apply-patch"));
    const [call] = blocks(s.messages, "tool_call") as Extract<Block, { type: "tool_call" }>[];
    const [result] = blocks(s.messages, "tool_result") as Extract<Block, { type: "tool_result" }>[];
    assert.equal(call!.name, "apply_patch");
    assert.match(call!.input as string, /^\*\*\* Begin Patch\n\*\*\* Add File: notes.txt/);
    assert.equal(result!.callId, call!.id);
  });

  test(`${version}: a web search call travels as a raw codex item instead of vanishing`, async () => {
    const s = await readCodexSession(codexFixture(version, "web-search"));
    const raw = blocks(s.messages, "raw") as Extract<Block, { type: "raw" }>[];
    assert.deepEqual(raw.map((b) => [b.harness, b.kind]), [["codex", "web_search_call"]]);
  });

  test(`${version}: a compacted record's replacement history is the live context; what it replaced is a compacted thread`, async () => {
    const s = await readCodexSession(codexFixture(version, "compacted"));
    const [thread] = s.threads;
    assert.equal(thread!.kind, "compacted");
    assert.ok(turns(thread!.messages, "assistant").length >= 1);
    const summary = s.messages.filter((m) => m.kind === "summary");
    assert.equal(summary.length, 1);
    assert.match(JSON.stringify(summary[0]!.blocks), /COMPACT-SUMMARY/);
    assert.deepEqual(
      turns(s.messages, "user").map((m) => (m.blocks[0] as { text: string }).text),
      ["First message about maple syrup grading.", "Second message about harbour tides."],
    );
  });

  test(`${version}: an interrupted turn (turn_aborted) is pending; a call killed without output is open`, async () => {
    const interrupted = await readCodexSession(codexFixture(version, "interrupted"));
    assert.equal(interrupted.pending.interruptedTurn, true);
    assert.deepEqual(interrupted.pending.openToolCalls, [], "Codex recorded an aborted output");
    const killed = await readCodexSession(codexFixture(version, "killed"));
    assert.equal(killed.pending.interruptedTurn, true);
    assert.deepEqual(killed.pending.openToolCalls.map((c) => c.name), ["exec_command"]);
    const dropped = await readCodexSession(codexFixture(version, "stream-dropped"));
    assert.equal(dropped.pending.interruptedTurn, true, "a turn that ended in an error");
  });

  test(`${version}: the model per message and the permission posture in Codex's own words come from turn_context`, async () => {
    const s = await readCodexSession(codexFixture(version, "apply-patch"));
    assert.ok(turns(s.messages, "assistant").every((m) => m.model === "gpt-5.5"));
    assert.deepEqual(s.meta.models, ["gpt-5.5"]);
    assert.equal(s.meta.permissionMode, "never workspace-write");
    assert.equal(s.meta.provider, "fake");
  });
}

test("a local shell call pairs with its function_call_output by call_id", async () => {
  const path = join(root, "local-shell.jsonl");
  const line = (type: string, payload: unknown) =>
    JSON.stringify({ timestamp: "2026-11-29T10:00:00.000Z", type, payload });
  writeFileSync(
    path,
    [
      line("session_meta", {
        id: "01a2291a-0000-7000-8000-000000000001",
        timestamp: "2026-11-29T10:00:00.000Z",
        cwd: "/w",
        originator: "codex_cli_rs",
        cli_version: "0.147.0",
        source: "cli",
        model_provider: "openai",
      }),
      line("response_item", {
        type: "message",
        role: "user",
        content: [{ type: "input_text", text: "list it" }],
      }),
      line("response_item", {
        type: "local_shell_call",
        call_id: "call_1",
        status: "completed",
        action: { type: "exec", command: ["ls"] },
      }),
      line("response_item", { type: "function_call_output", call_id: "call_1", output: "a.txt" }),
    ].join("\n") + "\n",
  );
  const s = await readCodexSession(path);
  const [call] = blocks(s.messages, "tool_call") as Extract<Block, { type: "tool_call" }>[];
  assert.deepEqual([call!.name, call!.id], ["local_shell", "call_1"]);
  assert.equal((blocks(s.messages, "tool_result")[0] as { callId: string }).callId, "call_1");
  assert.deepEqual(s.pending.openToolCalls, []);
});

test("a rollout without a session_meta line is refused as bad input", async () => {
  const path = join(root, "no-meta.jsonl");
  writeFileSync(
    path,
    `${JSON.stringify({ timestamp: "2026-11-29T10:00:00Z", type: "event_msg", payload: {} })}\n`,
  );
  await assert.rejects(readCodexSession(path), /no session_meta record/);
});

test("a rollout whose session_meta line is longer than the sniffed head is still recognised as Codex", async () => {
  const path = join(root, "long-instructions.jsonl");
  const lines = readFileSync(codexFixture("0.169.0", "text-turns"), "utf8").split("\n");
  const meta = JSON.parse(lines[0]!) as { payload: { base_instructions: { text: string } } };
  meta.payload.base_instructions.text += " padding".repeat(20_000);
  lines[0] = JSON.stringify(meta);
  writeFileSync(path, lines.join("\n"));
  const r = await runCliJson(["inspect", path, "--codex-home", join(root, "no-home")]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(JSON.stringify(r.json), /"harness":"codex"/);
});
