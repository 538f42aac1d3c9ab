/**
 * Reading Gemini CLI sessions through the real CLI, from homes laid out as the 0.61.0 binary leaves them with
 * the captured fixtures (fixtures/gemini-cli/0.61.0/). Every expectation is written by hand from the fixture
 * files: ids, prompts, times and token counts as they stand there.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { homeFlags, runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { makeGeminiHome, seedGeminiHome } from "./helpers/harnesses/gemini-cli.ts";
import { geminiCli } from "../lib/harnesses/gemini-cli/index.ts";
import type { Message, Session } from "../lib/ir/schema.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/gemini-cli/0.61.0/", import.meta.url));
const root = tempDir("sb-gemini-read-");
const fixture = (name: string) => join(FIXTURES, `${name}.jsonl`);

const EXEC_TOOL = "0f6a8bb3-2ce0-4dcc-8a37-6ffe0f5a86ad";
const RESUMED = "06d2e3d2-a269-4e4b-b454-d185870b2de2";
const SUBAGENT_PARENT = "53941122-b843-456a-8c61-4e918af4bf22";
const SUBAGENT = "d6ba7b6b-93f4-4ca4-8524-fef57dfdbd34";
const INTERRUPTED = "3a9b9114-f20b-43b8-a329-ca5226d59867";
/** Calls by the ids the model gave them (the log records `run_shell_command__<id>`; the model is sent `<id>`). */
const SHELL_CALL = "run_shell_command_1796285511026_0";
const CANCELLED_CALL = "run_shell_command_1796285683833_0";

let homes = 0;
/** A fresh home holding the named captured sessions; returns it and where each was placed. */
function home(...scenarios: string[]): { home: string; files: string[] } {
  const dir = join(root, `home-${++homes}`);
  makeGeminiHome(dir);
  return { home: dir, files: scenarios.map((s) => seedGeminiHome(fixture(s), dir)) };
}

const flags = (dir: string) => homeFlags({ "gemini-cli": dir }, root);

async function shown(dir: string, id: string): Promise<Session> {
  const r = await runCliJson(["show", id, ...flags(dir)]);
  assert.equal(r.code, 0, r.stderr);
  return r.json.session as Session;
}

const texts = (m: Message) => m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : []));
const typed = (s: Session) => s.messages.filter((m) => m.role === "user" && m.kind === "turn").map(texts);

interface Row {
  harness: string;
  id: string;
  cwd?: string;
  title?: string;
  updatedAt?: string;
}

async function listed(dir: string): Promise<Row[]> {
  const r = await runCliJson(["list", ...flags(dir)]);
  assert.equal(r.code, 0, r.stderr);
  return (r.json.sessions as Row[]).filter((s) => s.harness === "gemini-cli");
}

test("list shows each Gemini CLI session with its summary as title, its project path, and its last message's time; subagent logs are no sessions of their own", async () => {
  const { home: dir } = home("exec-tool", "exec-subagent", "exec-resumed");
  const rows = (await listed(dir)).sort((a, b) => a.id.localeCompare(b.id));
  assert.deepEqual(rows.map((r) => [r.id, r.title, r.cwd, r.updatedAt]), [
    [RESUMED, "Fake title 4112533f", "/home/user/project", "2026-12-03T08:12:59.365Z"],
    [EXEC_TOOL, "Fake title 9cd4feef", "/home/user/project", "2026-12-03T08:11:51.957Z"],
    [SUBAGENT_PARENT, "Fake title 92052f64", "/home/user/project", "2026-12-03T08:13:38.838Z"],
  ]);
});

test("a summary written by a later start-up titles the session but does not date it", async () => {
  const { home: dir, files: [file] } = home("exec-tool");
  appendFileSync(
    file!,
    `${JSON.stringify({ $set: { lastUpdated: "2026-12-09T10:00:00.000Z", summary: "Later" } })}\n`,
  );
  const [row] = await listed(dir);
  assert.equal(row!.title, "Later");
  assert.equal(row!.updatedAt, "2026-12-03T08:11:51.957Z");
});

test("a session without a summary is titled by the first words the user typed, not the CLI's session context", async () => {
  const { home: dir, files: [file] } = home("exec-tool");
  const lines = readFileSync(file!, "utf8").split("\n").filter((l) => l && !l.includes('"summary"'));
  writeFileSync(file!, `${lines.join("\n")}\n`);
  const [row] = await listed(dir);
  assert.equal(row!.title, "TOOL: echo fixture-out");
});

test("show reads a one-shot tool run: the session context apart, the shell call once (its line re-appended when the call finished), its result once, thoughts as reasoning, tokens as usage", async () => {
  const { home: dir } = home("exec-tool");
  const s = await shown(dir, EXEC_TOOL);
  assert.deepEqual(s.messages.map((m) => `${m.role}/${m.kind}`), [
    "user/context",
    "user/turn",
    "assistant/turn",
    "tool/turn",
    "assistant/turn",
  ]);
  assert.match(texts(s.messages[0]!)[0]!, /^<session_context>/);
  assert.deepEqual(typed(s), [["TOOL: echo fixture-out"]]);
  const calls = s.messages.flatMap((m) => m.blocks.filter((b) => b.type === "tool_call"));
  assert.deepEqual(calls, [{
    type: "tool_call",
    id: SHELL_CALL,
    name: "run_shell_command",
    input: { command: "echo fixture-out", description: "fixture command" },
  }]);
  const results = s.messages.flatMap((m) => m.blocks.filter((b) => b.type === "tool_result"));
  assert.equal(results.length, 1);
  assert.deepEqual(results[0], {
    type: "tool_result",
    callId: SHELL_CALL,
    isError: false,
    content: [{
      type: "text",
      text: "<untrusted_context>\nOutput: fixture-out\nProcess Group PGID: 23503\n</untrusted_context>",
    }],
  });
  const reasoning = s.messages[2]!.blocks[0]!;
  assert.deepEqual(reasoning, {
    type: "reasoning",
    text: "**Running a command** The user wants a shell command run; calling run_shell_command.",
    provider: "google",
  });
  assert.equal(s.messages[2]!.model, "gemini-3.8-flash");
  // input 145 + 263, output 27 + 27 plus thoughts 23 + 0.
  assert.deepEqual(s.meta.usage, {
    inputTokens: 408,
    outputTokens: 77,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
  });
  assert.equal(s.meta.cwd, "/home/user/project");
  assert.equal(s.meta.title, "Fake title 9cd4feef");
});

test("a resumed session is one conversation: every run's prompts in order, created when the first run started", async () => {
  const { home: dir } = home("exec-resumed");
  const s = await shown(dir, RESUMED);
  assert.deepEqual(typed(s), [
    ["Please greet the reviewer with one sentence about tidy kitchens."],
    ["Now add a second remark, about quiet libraries."],
    ["And a third, about early trains."],
  ]);
  assert.equal(s.messages.filter((m) => m.kind === "context").length, 1);
  assert.equal(s.meta.createdAt, "2026-12-03T08:12:13.115Z");
  assert.equal(s.meta.updatedAt, "2026-12-03T08:12:59.365Z");
});

test("an interrupted session reads as the CLI resumes it: the cancelled call failed, its result once though the log holds it three times, the queued prompt after it", async () => {
  const { home: dir } = home("interrupted");
  const s = await shown(dir, INTERRUPTED);
  assert.deepEqual(typed(s), [
    ["First typed line about river boats"],
    ["TOOL: sleep 30"],
    ["A queued remark about lighthouses"],
    ["Resumed: one more word on ferries"],
  ]);
  const results = s.messages.flatMap((m) => m.blocks.filter((b) => b.type === "tool_result"));
  assert.deepEqual(results, [{
    type: "tool_result",
    callId: CANCELLED_CALL,
    isError: true,
    content: [{ type: "text", text: "[Operation Cancelled] Reason: Operation cancelled by user" }],
  }]);
  // The resume's checkpoint rewrote every earlier message with its own time and no model: the times and
  // models are those the messages' own lines recorded.
  const first = s.messages.find((m) => m.uid === "50be2545-fa8b-4256-84d2-7f96802f9fc0")!;
  assert.equal(first.timestamp, "2026-12-03T08:14:42.989Z");
  assert.equal(first.model, "gemini-3.8-flash");
  assert.deepEqual(s.pending, { openToolCalls: [], queuedInput: [], interruptedTurn: false });
});

test("a subagent's own log is a subagent thread of its parent, its messages carrying the id the parent's invoke_agent call names", async () => {
  const { home: dir } = home("exec-subagent");
  const s = await shown(dir, SUBAGENT_PARENT);
  const call = s.messages.flatMap((m) => m.blocks).find((b) => b.type === "tool_call");
  assert.deepEqual(call && call.type === "tool_call" && [call.name, call.input], [
    "invoke_agent",
    { agent_name: "generalist", prompt: "count the files in the project" },
  ]);
  assert.deepEqual(s.threads.map((t) => [t.id, t.kind, t.messages.length]), [[SUBAGENT, "subagent", 3]]);
  const thread = s.threads[0]!;
  assert.ok(thread.messages.every((m) => m.agentId === SUBAGENT));
  assert.deepEqual(thread.messages.map(texts)[0], ["count the files in the project"]);
  assert.deepEqual(thread.messages[1]!.blocks.map((b) => b.type), ["text", "tool_call"]);
});

test("a rewind drops the message it names and every later one from the live thread, keeping them as an abandoned branch", async () => {
  const { home: dir, files: [file] } = home("exec-tool");
  appendFileSync(file!, `${JSON.stringify({ $rewindTo: "36868f1d-8d6a-4d12-b014-68d9c25f56f2" })}\n`);
  const s = await shown(dir, EXEC_TOOL);
  assert.deepEqual(s.messages.map((m) => m.uid), ["d04923d38bb0f6017037e74183378ef4"]);
  assert.deepEqual(s.threads.map((t) => [t.kind, t.messages[0]!.uid]), [
    ["abandoned-branch", "36868f1d-8d6a-4d12-b014-68d9c25f56f2"],
  ]);
});

test("a rewind to an id the log does not hold drops every message, as the CLI does", async () => {
  const { home: dir, files: [file] } = home("exec-tool");
  appendFileSync(file!, `${JSON.stringify({ $rewindTo: "no-such-message" })}\n`);
  const s = await shown(dir, EXEC_TOOL);
  assert.deepEqual(s.messages, []);
});

test("a legacy whole-session .json file is listed and read", async () => {
  const dir = join(root, "legacy");
  const store = makeGeminiHome(dir);
  const messages = readFileSync(fixture("exec-tool"), "utf8").split("\n").filter(Boolean).map((l) =>
    JSON.parse(l)
  )
    .filter((r) => typeof r.id === "string");
  const id = "7d0c2f4e-6a55-4c47-9a0e-3f1b1b8a2c11";
  const document = {
    sessionId: id,
    projectHash: "9dad1e4e08b0b11cbcd860257e8bdfa6b8e5f01790e10a6a0b1f4870c13e686b",
    startTime: "2026-11-01T09:00:00.000Z",
    lastUpdated: "2026-11-01T09:05:00.000Z",
    messages,
  };
  const path = join(store, "tmp", "project", "chats", "session-2026-11-01T09-00-7d0c2f4e.json");
  writeFileSync(path, JSON.stringify(document, null, 2));
  const [row] = await listed(dir);
  assert.deepEqual([row!.id, row!.title, row!.cwd], [id, "TOOL: echo fixture-out", "/home/user/project"]);
  const s = await shown(dir, id);
  assert.deepEqual(typed(s), [["TOOL: echo fixture-out"]]);
  assert.equal(s.messages.flatMap((m) => m.blocks).filter((b) => b.type === "tool_result").length, 1);
});

test("a broken line inside a Gemini CLI log is bad input: one line naming the file and line, exit 2", async () => {
  const { home: dir, files: [file] } = home("exec-tool");
  const lines = readFileSync(file!, "utf8").split("\n");
  lines[3] = "{not json";
  writeFileSync(file!, lines.join("\n"));
  const r = await runCli(["show", file!, ...flags(dir)]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.ok(r.stderr.includes(`${file}:4`), r.stderr);
});

test("one unreadable session file leaves the rest of the Gemini CLI listing", async () => {
  const { home: dir, files: [file] } = home("exec-tool", "interrupted");
  writeFileSync(file!, "{broken\n{also broken\n");
  const rows = await listed(dir);
  assert.ok(rows.some((r) => r.id === INTERRUPTED && r.title === "Fake title a84173a7"));
  assert.equal(rows.length, 2);
});

test("drift is quiet on every captured Gemini CLI session and loud on a new field or line", async () => {
  const { home: dir, files } = home(
    "exec-tool",
    "exec-subagent",
    "exec-resumed",
    "interactive",
    "interrupted",
  );
  const quiet = await runCliJson(["drift", ...flags(dir)]);
  assert.equal(quiet.code, 0, quiet.stdout);
  assert.equal(quiet.json.clean, true);
  assert.equal(quiet.json.sessions, 5);
  const file = files[0]!;
  const lines = readFileSync(file, "utf8").split("\n");
  const at = lines.findIndex((l) => l.startsWith('{"id"') && l.includes('"type":"user"'));
  lines[at] = lines[at]!.replace('"type":"user"', '"type":"user","secretField":"top secret words"');
  writeFileSync(file, lines.join("\n"));
  appendFileSync(file, `${JSON.stringify({ brandNew: "more secret words" })}\n`);
  const loud = await runCli(["drift", ...flags(dir)]);
  assert.equal(loud.code, 1, loud.stdout);
  assert.match(loud.stdout, /gemini-cli 0\.61\.0 +record:message: unknown field \/secretField/);
  assert.match(loud.stdout, /record:\(unrecognized\): unknown record type/);
  assert.doesNotMatch(loud.stdout, /secret words/);
});

test("a Gemini CLI session log is recognized by its head, given by path from anywhere; other harnesses' files are not claimed", async () => {
  const elsewhere = join(root, "loose", "exec-tool.jsonl");
  mkdirSync(dirname(elsewhere), { recursive: true });
  writeFileSync(elsewhere, readFileSync(fixture("exec-tool")));
  const r = await runCliJson(["inspect", elsewhere, ...homeFlags({}, root)]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((r.json.session as { harness: string }).harness, "gemini-cli");
  const head = (path: string) => {
    const text = readFileSync(path, "utf8").slice(0, 65536);
    const line = text.split("\n").find((l) => l.trim());
    let first: Record<string, unknown> | undefined;
    try {
      first = JSON.parse(line ?? "") as Record<string, unknown>;
    } catch {
      first = undefined;
    }
    return { text, ...(first ? { first } : {}) };
  };
  assert.equal(geminiCli.files.recognizes(head(fixture("exec-tool"))), true);
  const others = [
    "../fixtures/claude-code/2.1.328/plain-text.jsonl",
    "../fixtures/codex/0.169.0/apply-patch.jsonl",
  ].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  for (const other of others) assert.equal(geminiCli.files.recognizes(head(other)), false, other);
});

test("the stub a resume in a later minute leaves (metadata and its context only) is not listed: the session id names one session, which show finds", async () => {
  const { home: dir, files: [file] } = home("exec-tool");
  // What 0.61.0's `--resume` writes first when the minute differs from the file's name (seen live).
  const stub = join(dirname(file!), `session-2026-12-04T09-00-${EXEC_TOOL.slice(0, 8)}.jsonl`);
  writeFileSync(
    stub,
    [
      {
        sessionId: EXEC_TOOL,
        projectHash: "0".repeat(64),
        startTime: "2026-12-04T09:00:01.000Z",
        kind: "main",
      },
      {
        $set: {
          messages: [{
            id: "d04923d38bb0f6017037e74183378ef4",
            timestamp: "2026-12-04T09:00:01.000Z",
            type: "user",
            content: [{ text: "<session_context>\nThis is the Gemini CLI.\n</session_context>" }],
          }],
          lastUpdated: "2026-12-04T09:00:01.000Z",
        },
      },
    ].map((r) => JSON.stringify(r)).join("\n") + "\n",
  );
  assert.deepEqual((await listed(dir)).map((r) => r.id), [EXEC_TOOL]);
  const session = await shown(dir, EXEC_TOOL);
  assert.ok(typed(session).length > 0);
});

test("a legacy Gemini session .json nested deeper than 1000 levels is bad input naming the file (exit 2), not a stack overflow", async () => {
  // Fuzz seed 1, mutant 1763: a tool call's arguments nested 104,865 arrays deep crashed every conversion in
  // JSON.stringify ("Maximum call stack size exceeded").
  const legacy = fileURLToPath(new URL("../fixtures/gemini-cli/0.36.0/exec-tool.json", import.meta.url));
  const document = JSON.parse(readFileSync(legacy, "utf8")) as {
    messages: { toolCalls?: { args: object }[] }[];
  };
  const call = document.messages.find((m) => m.toolCalls?.length)!.toolCalls![0]!;
  const text = JSON.stringify(document).replace(
    JSON.stringify(call.args),
    `{"command":${"[".repeat(100_000)}${"]".repeat(100_000)}}`,
  );
  const dir = join(root, "deep-legacy");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "session-deep.json");
  writeFileSync(path, text);
  const r = await runCli([
    "convert",
    path,
    "--from",
    "gemini-cli",
    "--to",
    "codex",
    "--cwd",
    dir,
    "-o",
    join(dir, "out"),
  ]);
  assert.equal(r.code, 2, r.stderr);
  assert.equal(r.stderr, `session-bridge: ${path}: a record nested deeper than 1000 levels, the limit\n`);
});
