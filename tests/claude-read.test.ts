import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { Session } from "../lib/ir/schema.ts";
import { countBlocks } from "../lib/ir/summary.ts";
import { claudeFixture, FIXTURE_CWD } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir();
const FIXTURES = [
  "compacted",
  "plain-text",
  "thinking-tool-use",
  "resumed",
  "rewound-branch",
  "queued-message",
  "subagent",
  "interrupted-tool-call",
  "interrupted-tool-call-sigint",
  "interrupted-queued",
  "edit-tool",
];

for (const name of FIXTURES) {
  test(`reads the real ${name} fixture into a valid IR session`, async () => {
    const session = await readClaudeSession(claudeFixture(name));
    Session.parse(session);
    assert.equal(session.meta.harness, "claude-code");
    assert.equal(session.meta.cwd, FIXTURE_CWD);
    assert.equal(session.meta.harnessVersion, "2.1.328");
    assert.ok(session.meta.title, "a title");
    assert.ok(session.messages.length >= 2);
    const first = session.messages[0]!;
    assert.ok(
      first.parentUid === null || first.kind === "summary",
      "the live thread starts at the root or a compaction summary",
    );
  });
}

test("text of every turn is in the live thread in order", async () => {
  const session = await readClaudeSession(claudeFixture("resumed"));
  const roles = session.messages.map((m) => m.role);
  assert.deepEqual(roles, ["user", "assistant", "user", "assistant", "user", "assistant"]);
  const texts = session.messages.map((m) => m.blocks.map((b) => (b.type === "text" ? b.text : "")).join(""));
  assert.match(texts[0]!, /turn one/);
  assert.match(texts[1]!, /^ASSISTANT-REPLY/);
});

test("a rewound branch is kept apart, not mixed into the live thread", async () => {
  const session = await readClaudeSession(claudeFixture("rewound-branch"));
  const live = JSON.stringify(session.messages);
  assert.match(live, /replacement turn/);
  assert.doesNotMatch(live, /abandoned second turn/);
  const branch = session.threads.find((t) => t.kind === "abandoned-branch");
  assert.ok(branch);
  assert.match(JSON.stringify(branch.messages), /abandoned second turn/);
});

test("thinking keeps its signature and tool calls pair with their results", async () => {
  const session = await readClaudeSession(claudeFixture("thinking-tool-use"));
  const blocks = session.messages.flatMap((m) => m.blocks);
  const reasoning = blocks.find((b) => b.type === "reasoning");
  assert.ok(reasoning?.type === "reasoning" && reasoning.signature && reasoning.provider === "anthropic");
  const call = blocks.find((b) => b.type === "tool_call");
  const result = blocks.find((b) => b.type === "tool_result");
  assert.ok(call?.type === "tool_call" && result?.type === "tool_result");
  assert.equal(call.name, "Bash");
  assert.equal(result.callId, call.id);
  assert.match(JSON.stringify(result.content), /fixture-tool-output/);
  assert.deepEqual(session.pending, { openToolCalls: [], queuedInput: [], interruptedTurn: false });
});

test("a call killed mid-run is an open tool call and an interrupted turn", async () => {
  const session = await readClaudeSession(claudeFixture("interrupted-tool-call"));
  assert.equal(session.pending.openToolCalls.length, 1);
  assert.equal(session.pending.openToolCalls[0]!.name, "Bash");
  assert.equal(session.pending.interruptedTurn, true);
});

test("a Ctrl-C interrupted call is closed by Claude itself: interrupted, but no open call", async () => {
  const session = await readClaudeSession(claudeFixture("interrupted-tool-call-sigint"));
  assert.equal(session.pending.openToolCalls.length, 0);
  assert.equal(session.pending.interruptedTurn, true);
  assert.equal(
    session.messages.at(-1)!.kind,
    "context",
    "the interruption marker is harness text, not the user's",
  );
});

test("subagent transcripts are read as their own threads and task notifications are harness context", async () => {
  const session = await readClaudeSession(claudeFixture("subagent"));
  const sub = session.threads.filter((t) => t.kind === "subagent");
  assert.equal(sub.length, 1);
  assert.match(JSON.stringify(sub[0]!.messages), /Subagent job/);
  assert.ok(
    session.messages.some((m) =>
      m.kind === "context" && JSON.stringify(m.blocks).includes("task-notification")
    ),
  );
  const subUids = new Set(sub[0]!.messages.map((m) => m.uid));
  assert.ok(
    !session.messages.some((m) => subUids.has(m.uid)),
    "the subagent's own turns stay out of the main thread",
  );
});

test("queue operations replay to nothing pending once every queued prompt was dequeued", async () => {
  const session = await readClaudeSession(claudeFixture("queued-message"));
  assert.deepEqual(session.pending.queuedInput, []);
  const raw = readFileSync(claudeFixture("queued-message"), "utf8");
  assert.match(raw, /"operation":"enqueue"/);
});

test("an enqueued prompt without a dequeue is pending queued input", async () => {
  const path = join(dir, "queued.jsonl");
  copyFileSync(claudeFixture("plain-text"), path);
  appendFileSync(
    path,
    `${
      JSON.stringify({
        type: "queue-operation",
        operation: "enqueue",
        timestamp: "2026-11-29T21:00:00.000Z",
        sessionId: "x",
        content: "also fix the tests",
      })
    }\n`,
  );
  const session = await readClaudeSession(path);
  assert.deepEqual(session.pending.queuedInput.map((q) => q.text), ["also fix the tests"]);
});

test("a truncated last line is skipped and reported as a notice", async () => {
  const path = join(dir, "live.jsonl");
  writeFileSync(path, `${readFileSync(claudeFixture("plain-text"), "utf8")}{"type":"assistant","mess`);
  const session = await readClaudeSession(path);
  assert.equal(countBlocks(session.messages).messages, 4);
  assert.match(session.notices.join(), /incomplete last line/);
});

test("the tool catalog and system prompt come from the newest recorded request shape", async () => {
  const session = await readClaudeSession(claudeFixture("thinking-tool-use"));
  const names = session.tools.map((t) => t.name);
  for (const name of ["Bash", "Edit", "Read", "Write", "Agent"]) assert.ok(names.includes(name), name);
  assert.ok(session.tools.find((t) => t.name === "Bash")?.inputSchema, "schemas kept");
  assert.match(session.meta.systemInstructions ?? "", /Claude agent/);
});

test("after a compaction the live thread is the summary, the preserved message and what followed", async () => {
  const session = await readClaudeSession(claudeFixture("compacted"));
  const [summary, preserved] = session.messages;
  assert.equal(summary!.kind, "summary");
  assert.match(JSON.stringify(summary!.blocks), /COMPACT-SUMMARY/);
  assert.equal(
    preserved!.role,
    "assistant",
    "2.1.x replays the last assistant message verbatim after the summary",
  );
  assert.match(JSON.stringify(session.messages.at(-2)!.blocks), /first turn after compaction/);
  const compacted = session.threads.find((t) => t.kind === "compacted");
  assert.ok(compacted && compacted.messages.length === 3, "what the summary replaced is kept apart");
  assert.ok(!compacted.messages.some((m) => m.uid === preserved!.uid), "no message in two threads");
  assert.equal(session.meta.title, "Compact fixture, turn one before compaction.");
  assert.ok(
    session.messages.filter((m) => m.kind === "context").length >= 3,
    "/compact and its output are harness context",
  );
});

const OLD = "1.0.128";
const oldFixture = (name: string) => claudeFixture(name).replace("/2.1.328/", `/${OLD}/`);

for (
  const name of [
    "plain-text",
    "thinking-tool-use",
    "resumed",
    "compacted",
    "interrupted-tool-call",
    "subagent",
  ]
) {
  test(`reads the real ${OLD} ${name} fixture without drift`, async () => {
    const session = await readClaudeSession(oldFixture(name));
    Session.parse(session);
    assert.equal(session.meta.harnessVersion, OLD);
    assert.ok(session.messages.some((m) => m.role === "user" && m.kind === "turn"));
    assert.deepEqual(session.drift, []);
    assert.ok(!session.meta.models.includes("<synthetic>"), "synthetic filler is not a model");
  });
}

test(`${OLD} compaction: summary first, the rest kept apart, the synthetic filler is context`, async () => {
  const session = await readClaudeSession(oldFixture("compacted"));
  assert.equal(session.messages[0]!.kind, "summary");
  assert.ok(session.threads.some((t) => t.kind === "compacted" && t.messages.length > 0));
  const synthetic = session.messages.filter((m) =>
    m.role === "assistant" && JSON.stringify(m.blocks).includes("No response requested")
  );
  assert.ok(synthetic.every((m) => m.kind === "context"));
});
