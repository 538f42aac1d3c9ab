/**
 * What a conversation written into a Gemini CLI log by our writer gives back through our reader (and what our
 * reader makes of the records the binary writes): call ids as the model gave them, the handshake as context,
 * the texts of one response as they were. Each expectation is written by hand.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { emptySession } from "../lib/ir/session.ts";
import type { Block, Message, Session } from "../lib/ir/schema.ts";
import { encodeGemini } from "../lib/harnesses/gemini-cli/encode.ts";
import { readGeminiSession } from "../lib/harnesses/gemini-cli/read.ts";
import { isHandshake } from "../lib/handshake/handshake.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir("sb-gemini-fidelity-");
const ID = "7d3e6a52-2f0c-4e9b-9a41-5b8c0d1e2f33";
const CWD = "/home/user/project";
let files = 0;

function message(uid: string, role: Message["role"], blocks: Block[], extra: Partial<Message> = {}): Message {
  return {
    uid,
    parentUid: null,
    role,
    kind: "turn",
    blocks,
    timestamp: "2026-12-01T10:00:00.000Z",
    ...extra,
  };
}

function sessionOf(messages: Message[]): Session {
  const meta = { harness: "claude-code", id: "source", models: [], createdAt: "2026-12-01T10:00:00.000Z" };
  return { ...emptySession(meta), messages };
}

/** The lines our writer makes of `session` (with `handshake`, if given). */
async function written(session: Session, handshake?: string): Promise<string[]> {
  const options = {
    id: ID,
    cwd: CWD,
    now: new Date("2026-12-02T00:00:00.000Z"),
    stubOpenCalls: false,
    ...(handshake ? { handshake } : {}),
  };
  const lines: string[] = [];
  for await (const line of encodeGemini(session, options, () => undefined)) lines.push(line);
  return lines;
}

/** `lines` as a session log, read back by our reader. */
async function readBack(lines: string[]): Promise<Session> {
  const path = join(root, `session-${++files}.jsonl`);
  writeFileSync(path, `${lines.join("\n")}\n`);
  return await readGeminiSession(path);
}

const blocksOf = (s: Session, type: Block["type"]) =>
  s.messages.flatMap((m) => m.blocks.filter((b) => b.type === type));

const shellCall = (id: string): Block => ({
  type: "tool_call",
  id,
  name: "run_shell_command",
  input: { command: "ls" },
});

const result = (callId: string, text: string): Block => ({
  type: "tool_result",
  callId,
  isError: false,
  content: [{ type: "text", text }],
});

test("a call read from a Gemini CLI log carries the id the model gave it, not the <tool>__ prefix the log records", async () => {
  // As 0.61.0 records a call and its result (fixtures/gemini-cli/0.61.0/exec-tool.jsonl, shortened).
  const recorded = "run_shell_command__run_shell_command_1796285511026_0";
  const response = {
    functionResponse: { id: recorded, name: "run_shell_command", response: { output: "a.txt" } },
  };
  const session = await readBack([
    JSON.stringify({ sessionId: ID, projectHash: "0".repeat(64), startTime: "2026-12-01T10:00:00.000Z" }),
    JSON.stringify({
      id: "m1",
      timestamp: "2026-12-01T10:00:01.000Z",
      type: "gemini",
      content: "",
      toolCalls: [{
        id: recorded,
        name: "run_shell_command",
        args: { command: "ls" },
        result: [response],
        status: "success",
      }],
    }),
    JSON.stringify({ id: "m2", timestamp: "2026-12-01T10:00:02.000Z", type: "user", content: [response] }),
  ]);
  assert.deepEqual(blocksOf(session, "tool_call"), [shellCall("run_shell_command_1796285511026_0")]);
  assert.deepEqual(blocksOf(session, "tool_result"), [result("run_shell_command_1796285511026_0", "a.txt")]);
});

test("a call whose id already starts with its tool's prefix keeps that id through the Gemini CLI writer and reader", async () => {
  const id = "run_shell_command__odd";
  const back = await readBack(
    await written(sessionOf([
      message("u1", "user", [{ type: "text", text: "list" }]),
      message("a1", "assistant", [shellCall(id)]),
      message("t1", "tool", [result(id, "a.txt")]),
    ])),
  );
  assert.deepEqual(blocksOf(back, "tool_call"), [shellCall(id)]);
  assert.deepEqual(blocksOf(back, "tool_result"), [result(id, "a.txt")]);
});

test("a result written after its call's turn is recorded under the call's tool name and read back paired", async () => {
  const lines = await written(sessionOf([
    message("u1", "user", [{ type: "text", text: "list" }]),
    message("a1", "assistant", [shellCall("call_1")]),
    message("u2", "user", [{ type: "text", text: "meanwhile" }]),
    message("t1", "tool", [result("call_1", "a.txt")]),
  ]));
  const responses = lines.map((l) => JSON.parse(l)).filter((r) => r.type === "user").flatMap((r) =>
    r.content.flatMap((p: { functionResponse?: unknown }) => (p.functionResponse ? [p.functionResponse] : []))
  );
  assert.deepEqual(responses, [{
    id: "run_shell_command__call_1",
    name: "run_shell_command",
    response: { output: "a.txt" },
  }]);
  const back = await readBack(lines);
  assert.deepEqual(blocksOf(back, "tool_result"), [result("call_1", "a.txt")]);
});

test("a handoff's handshake in a Gemini CLI log reads back as the handshake, not as words the user typed", async () => {
  const handshake = "<session-bridge-handoff>\nMoved here.\n</session-bridge-handoff>";
  const back = await readBack(
    await written(sessionOf([message("u1", "user", [{ type: "text", text: "hello" }])]), handshake),
  );
  assert.deepEqual(back.messages.map((m) => [m.role, m.kind, isHandshake(m)]), [
    ["user", "turn", false],
    ["user", "context", true],
  ]);
});

test("the texts of one model response come back from a Gemini CLI log as the same paragraphs", async () => {
  const back = await readBack(
    await written(sessionOf([
      message("u1", "user", [{ type: "text", text: "two things" }]),
      message("a1", "assistant", [{ type: "text", text: "First." }, { type: "text", text: "Second." }]),
    ])),
  );
  assert.deepEqual(blocksOf(back, "text").map((b) => b.type === "text" && b.text), [
    "two things",
    "First.\n\nSecond.",
  ]);
});

test("a call a resume checkpoint holds both as a functionCall part and in toolCalls is read once", async () => {
  // As 0.61.0's `--resume` checkpoints a message whose call we wrote (seen live: the message rebuilt with the
  // call as a part, its recorded toolCalls kept), both under the recorded `<tool>__` id.
  const recorded = "run_shell_command__toolu_1";
  const response = {
    functionResponse: { id: recorded, name: "run_shell_command", response: { output: "a.txt" } },
  };
  const call = {
    id: recorded,
    name: "run_shell_command",
    args: { command: "ls" },
    result: [response],
    status: "success",
  };
  const written = {
    id: "m1",
    timestamp: "2026-12-01T10:00:01.000Z",
    type: "gemini",
    content: "",
    toolCalls: [call],
  };
  const session = await readBack([
    JSON.stringify({ sessionId: ID, projectHash: "0".repeat(64), startTime: "2026-12-01T10:00:00.000Z" }),
    JSON.stringify(written),
    JSON.stringify({
      $set: {
        messages: [{
          ...written,
          content: [{ functionCall: { id: recorded, name: "run_shell_command", args: { command: "ls" } } }],
        }],
      },
    }),
  ]);
  assert.deepEqual(blocksOf(session, "tool_call"), [shellCall("toolu_1")]);
  assert.deepEqual(blocksOf(session, "tool_result"), [result("toolu_1", "a.txt")]);
});
