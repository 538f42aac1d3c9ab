/**
 * Reading GitHub Copilot CLI 1.0.102's store: every scenario the real binary wrote offline
 * (fixtures/copilot-cli/1.0.102/<scenario>/session-state/<id>/, see its README: one-shot, tools, subagent,
 * resumed by -p and in the TUI, killed mid-tool and resumed, typed in the TUI, compacted), each read as Copilot
 * shows it on resume. Expectations are written by hand from the files (and, for usage, from the shutdown
 * event's own totals, a record the reader does not use).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { readCopilotSession } from "../lib/harnesses/copilot-cli/read.ts";
import { listCopilot } from "../lib/harnesses/copilot-cli/list.ts";
import { copilotTools } from "../lib/harnesses/copilot-cli/tools.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { resolveFile } from "../lib/harnesses/resolve.ts";
import { InputError } from "../lib/errors.ts";
import type { Message, Session } from "../lib/ir/schema.ts";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import {
  COPILOT_CAPTURED_CWD,
  copilotScenarioSessions,
  makeCopilotHome,
  seedCopilotSession,
} from "./helpers/harnesses/copilot-cli.ts";

const VERSION = fileURLToPath(new URL("../fixtures/copilot-cli/1.0.102/", import.meta.url));

/** The events.jsonl of a scenario (each holds one session). */
function scenario(name: string): string {
  const [events] = copilotScenarioSessions(VERSION).filter((p) => p.startsWith(join(VERSION, name, "/")));
  assert.ok(events, `scenario ${name}`);
  return events;
}

const registry = builtinRegistry;

const texts = (m: Message) => m.blocks.flatMap((b) => b.type === "text" ? [b.text] : []);
const shape = (s: Session) =>
  s.messages.map((m) =>
    `${m.role}:${m.kind}:${
      m.blocks.map((b) =>
        b.type === "tool_call" ? `call ${b.name}` : b.type === "tool_result" ? "result" : b.type
      )
        .join("+")
    }`
  );

/** A file's events, parsed (to read the facts a test compares with straight from the capture). */
const events = (path: string) =>
  readFileSync(path, "utf8").trimEnd().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

test("every captured Copilot CLI session reads without drift, as a conversation the user started, named and placed as its workspace says", async () => {
  const all = copilotScenarioSessions(VERSION);
  assert.equal(all.length, 9);
  for (const path of all) {
    const session = await readCopilotSession(path);
    const label = basename(dirname(dirname(dirname(path))));
    assert.deepEqual(session.drift, [], label);
    assert.equal(session.meta.id, basename(dirname(path)), label);
    assert.equal(session.meta.harnessVersion, "1.0.102", label);
    assert.equal(session.meta.cwd, COPILOT_CAPTURED_CWD, label);
    const name = /^name: '?(.*?)'?$/m.exec(readFileSync(join(dirname(path), "workspace.yaml"), "utf8"))![1];
    assert.equal(session.meta.title, name, label);
    const first = session.messages.find((m) => m.kind !== "summary");
    assert.equal(first?.role, "user", label);
    assert.deepEqual(session.notices, [], label);
  }
});

test("Copilot's own tools read in canonical terms, each result right after its call, reasoning kept as text", async () => {
  const session = await readCopilotSession(scenario("exec-tools"));
  assert.deepEqual(shape(session), [
    "user:turn:text",
    ...["bash", "view", "create", "edit", "grep", "glob", "sql"].flatMap((name) => [
      `assistant:turn:reasoning+call ${name}`,
      "tool:turn:result",
    ]),
    "assistant:turn:text",
  ]);
  const calls = session.messages.flatMap((m) => m.blocks.flatMap((b) => b.type === "tool_call" ? [b] : []));
  assert.deepEqual(calls.map((c) => copilotTools.toCanonical(c)), [
    { kind: "shell", command: "echo fixture-out", description: "Print a marker" },
    { kind: "read", path: "/home/user/project/notes.txt" },
    { kind: "write", path: "/home/user/project/made.txt", content: "first line\n" },
    { kind: "edit", path: "/home/user/project/made.txt", edits: [{ oldText: "first", newText: "edited" }] },
    { kind: "search", pattern: "edited" },
    { kind: "list", pattern: "*.txt" },
    // Any statement on the session's database: it passes by its own name.
    undefined,
  ]);
  const results = session.messages.flatMap((m) =>
    m.blocks.flatMap((b) => b.type === "tool_result" ? [b] : [])
  );
  assert.deepEqual(results.map((r) => [r.callId, r.isError]), calls.map((c) => [c.id, false]));
  assert.deepEqual(results[0]!.content, [{
    type: "text",
    text: "fixture-out\n<shellId: 0 completed with exit code 0>",
  }]);
  const reasoning = session.messages[1]!.blocks[0]!;
  assert.deepEqual(reasoning, {
    type: "reasoning",
    text: "REASONING: the user asked for a tour; next, a shell command.",
    provider: "other",
  });
  assert.deepEqual(texts(session.messages.at(-1)!), [
    "Tool said: 1 row(s) inserted. Last inserted row ID: 1.",
  ]);
});

test("every assistant message names the model it ran on, and the usage adds up to Copilot's own totals at shutdown", async () => {
  for (const name of ["exec", "exec-tools", "interactive", "exec-subagent"]) {
    const path = scenario(name);
    const session = await readCopilotSession(path);
    assert.deepEqual(session.meta.models, ["fake-model"], name);
    assert.ok(
      session.messages.filter((m) => m.role === "assistant").every((m) => m.model === "fake-model"),
      name,
    );
    const shutdown = events(path).findLast((e) => e.type === "session.shutdown")!;
    const metrics = (shutdown.data as { modelMetrics: Record<string, { usage: Record<string, number> }> })
      .modelMetrics["fake-model"]!.usage;
    assert.deepEqual(session.meta.usage, {
      inputTokens: metrics.inputTokens,
      outputTokens: metrics.outputTokens,
      cacheReadTokens: metrics.cacheReadTokens,
      cacheWriteTokens: metrics.cacheWriteTokens,
    }, name);
  }
});

test("a call Copilot was killed in (started, never completed) is open and its turn interrupted, as Copilot finds it on resume", async () => {
  const session = await readCopilotSession(scenario("killed-mid-tool"));
  assert.deepEqual(shape(session), ["user:turn:text", "assistant:turn:reasoning+call bash"]);
  assert.deepEqual(
    session.pending.openToolCalls.map((c) => [c.callId, c.name]),
    [["call_fake0001", "bash"]],
  );
  assert.equal(session.pending.interruptedTurn, true);
});

test("resumed after the kill, the call holds Copilot's own failed result, and the conversation goes on", async () => {
  const session = await readCopilotSession(scenario("killed-resumed"));
  assert.deepEqual(shape(session), [
    "user:turn:text",
    "assistant:turn:reasoning+call bash",
    "tool:turn:result",
    "user:turn:text",
    "assistant:turn:text",
  ]);
  const result = session.messages[2]!.blocks[0]!;
  assert.equal(result.type, "tool_result");
  assert.ok(result.type === "tool_result" && result.isError);
  assert.match(JSON.stringify(result.content), /Tool execution was interrupted before a result was recorded/);
  assert.deepEqual(texts(session.messages[3]!), ["Please carry on."]);
  assert.deepEqual(session.pending, { openToolCalls: [], queuedInput: [], interruptedTurn: false });
});

test("a session resumed by -p, by --continue and in the TUI reads as one conversation, each prompt once", async () => {
  const resumed = await readCopilotSession(scenario("exec-resumed"));
  assert.deepEqual(resumed.messages.filter((m) => m.role === "user").map((m) => texts(m)[0]), [
    "Please greet the reviewer with one sentence about tidy kitchens.",
    "Now add a second remark, about quiet libraries.",
    "And a third, about early trains.",
  ]);
  assert.equal(resumed.messages.length, 6);
  const tui = await readCopilotSession(scenario("tui-resumed"));
  assert.deepEqual(shape(tui), [
    "user:turn:text",
    "assistant:turn:text",
    "user:turn:text",
    "assistant:turn:text",
  ]);
  // The runs' starts and ends are no conversation: tallied, not carried.
  const tally = Object.fromEntries(resumed.passthrough.map((p) => [p.type, p.count]));
  assert.equal(tally["session.resume"], 2);
  assert.equal(tally["session.shutdown"], 3);
});

test("history before Copilot's compaction is a compacted thread; its summary starts the live one, as the model is sent it", async () => {
  const session = await readCopilotSession(scenario("compacted"));
  assert.deepEqual(shape(session), ["user:summary:text", "user:turn:text", "assistant:turn:text"]);
  assert.deepEqual(texts(session.messages[0]!), ["ASSISTANT-REPLY: acknowledged, turn 19, digest 5b00381a."]);
  assert.deepEqual(texts(session.messages[1]!), ["And a third remark, about early trains."]);
  const [compacted, ...others] = session.threads;
  assert.equal(compacted?.kind, "compacted");
  assert.deepEqual(others, []);
  assert.deepEqual(compacted.messages.filter((m) => m.role === "user").map((m) => texts(m)[0]), [
    "Please greet the reviewer with one sentence about tidy kitchens.",
    "TOOLS: take a tour of the project.",
  ]);
  // The compaction's own model call (model.* events) is no conversation.
  assert.ok(session.passthrough.some((p) => p.type === "model.messages_snapshot"));
});

test("a subagent's events, marked by its agentId in the same file, are its own thread, opened by the task's prompt", async () => {
  const session = await readCopilotSession(scenario("exec-subagent"));
  assert.deepEqual(shape(session), [
    "user:turn:text",
    "assistant:turn:reasoning+call task",
    "tool:turn:result",
    "assistant:turn:text",
  ]);
  const [thread] = session.threads;
  assert.equal(thread?.kind, "subagent");
  assert.equal(thread.id, "7c5caaad-0218-45ea-a10b-9e7e5ec0b14d");
  assert.ok(thread.messages.every((m) => m.agentId === thread.id));
  assert.deepEqual(shape({ ...session, messages: thread.messages }), [
    "user:turn:text",
    "assistant:turn:reasoning+call glob",
    "tool:turn:result",
    "assistant:turn:text",
  ]);
  assert.deepEqual(texts(thread.messages[0]!), [
    "SCOUT: list the text files of the project and say how many there are.",
  ]);
  const task = session.messages[1]!.blocks.find((b) => b.type === "tool_call")!;
  assert.deepEqual(task.type === "tool_call" && copilotTools.toCanonical(task), {
    kind: "subagent",
    prompt: "SCOUT: list the text files of the project and say how many there are.",
    description: "Scout the project",
  });
});

test("an event of a type the schemas do not know is drift naming its line, and the session still reads", async () => {
  const home = join(tempDir(), "copilot");
  const path = seedCopilotSession(scenario("exec"), home);
  const lines = readFileSync(path, "utf8").split("\n").filter(Boolean).length;
  appendFileSync(
    path,
    JSON.stringify({
      type: "session.brand_new_kind",
      data: {},
      id: "0f5e8f4e-8f60-4b38-9a4a-3c1d7d7f0002",
      timestamp: "2026-12-03T13:39:00.000Z",
      parentId: null,
    }) + "\n",
  );
  const session = await readCopilotSession(path);
  assert.deepEqual(session.drift.map((d) => [d.where, d.problem, d.examples]), [
    ["record:session.brand_new_kind", "unknown record type", [lines + 1]],
  ]);
  assert.equal(session.messages.length, 2);
});

test("a file that does not start with session.start is no Copilot session: one line naming the file and line", async () => {
  const dir = tempDir();
  const path = join(dir, "events.jsonl");
  writeFileSync(path, `${JSON.stringify({ type: "user.message", data: { content: "hi" } })}\n`);
  await assert.rejects(
    readCopilotSession(path),
    (e: Error) =>
      e instanceof InputError &&
      e.message === `${path}:1: the first event is "user.message", not session.start`,
  );
});

test("Copilot's list: each conversation by its workspace name, directory and last message; a folder never prompted is left out", async () => {
  const home = join(tempDir(), "copilot");
  for (const path of copilotScenarioSessions(VERSION)) seedCopilotSession(path, home);
  // The TUI makes a session folder at start, before any prompt: its events hold no message.
  const fresh = join(home, "session-state", "11111111-2222-4333-8444-555555555555");
  mkdirSync(fresh);
  writeFileSync(
    join(fresh, "events.jsonl"),
    JSON.stringify({
      type: "session.start",
      data: {
        sessionId: basename(fresh),
        version: 1,
        producer: "copilot-agent",
        context: { cwd: "/elsewhere" },
      },
      id: "0f5e8f4e-8f60-4b38-9a4a-3c1d7d7f0003",
      timestamp: "2026-12-03T14:00:00.000Z",
      parentId: null,
    }) + "\n",
  );
  const rows = await listCopilot(home);
  assert.equal(rows.length, 9);
  const killed = rows.find((r) => r.id === "76696969-fda4-42f2-8649-f29a0cfa9c05")!;
  assert.deepEqual(
    { title: killed.title, cwd: killed.cwd, updatedAt: killed.updatedAt },
    // The last message (its answer after the resume), not the shutdown after it.
    { title: "SLOW: wait a while.", cwd: COPILOT_CAPTURED_CWD, updatedAt: "2026-12-03T13:39:29.530Z" },
  );
  assert.ok(rows.every((r) => r.harness === "copilot-cli" && r.path.endsWith(`${r.id}/events.jsonl`)));
});

test("list and inspect through the CLI find a Copilot session by its home flag, its id and its file", async () => {
  const root = tempDir();
  const home = join(root, "copilot");
  const path = seedCopilotSession(scenario("exec-tools"), home);
  const env = { HOME: join(root, "user") };
  const listed = await runCli(
    ["list", "--from", "copilot", "--copilot-home", home, "--json"],
    env,
    undefined,
    registry,
  );
  assert.equal(listed.code, 0, listed.stderr);
  const rows = (JSON.parse(listed.stdout) as { sessions: { id: string; title: string }[] }).sessions;
  assert.deepEqual(rows.map((r) => [r.id, r.title]), [[
    "8e6a1caa-969f-4abf-a94f-636d61aca6e2",
    "TOOLS: take a tour of the project.",
  ]]);
  assert.equal(resolveFile(path, registry).harness.name, "copilot-cli");
  for (const ref of [path, "8e6a1caa-969f-4abf-a94f-636d61aca6e2"]) {
    const inspected = await runCli(["inspect", ref, "--copilot-home", home], env, undefined, registry);
    assert.equal(inspected.code, 0, inspected.stderr);
    assert.match(inspected.stdout, /TOOLS: take a tour of the project\./);
  }
});

test("a broken events.jsonl is listed as unreadable beside the others, and reading it is one line naming the file and line (exit 2)", async () => {
  const root = tempDir();
  const home = join(root, "copilot");
  makeCopilotHome(home);
  seedCopilotSession(scenario("exec"), home);
  const broken = seedCopilotSession(scenario("exec-tools"), home);
  const text = readFileSync(broken, "utf8").split("\n");
  text[3] = "{not json";
  writeFileSync(broken, text.join("\n"));
  const rows = await listCopilot(home);
  assert.deepEqual(rows.map((r) => r.title).sort(), [
    "(unreadable)",
    "Please greet the reviewer with one sentence about tidy kitchens.",
  ]);
  const env = { HOME: join(root, "user") };
  const r = await runCli(["inspect", broken, "--copilot-home", home], env, undefined, registry);
  assert.equal(r.code, 2);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`${broken.replaceAll("/", "\\/")}:4`));
});
