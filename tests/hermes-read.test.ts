import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { readHermesSession } from "../lib/harnesses/hermes/read.ts";
import { sessionLocator } from "../lib/harnesses/hermes/profiles.ts";
import type { Block, Message } from "../lib/ir/schema.ts";
import { capturedIds, HERMES_VERSIONS, hermesFixture } from "./helpers/hermes.ts";
import { runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir();
const blocksOf = (messages: Message[], type: Block["type"]) =>
  messages.flatMap((m) => m.blocks.filter((b) => b.type === type));

for (const version of HERMES_VERSIONS) {
  test(`${version}: a tool turn reads as user, assistant (reasoning + call), tool result, answer`, async () => {
    const [id] = capturedIds(version, "tool-call");
    const s = await readHermesSession(sessionLocator(hermesFixture(version, "tool-call.state.db"), id!));
    assert.deepEqual(s.messages.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
    const [reasoning] = blocksOf(s.messages, "reasoning");
    assert.deepEqual(reasoning, {
      type: "reasoning",
      text: "REASONING: the user wants a shell command run; calling terminal.",
      provider: "other",
    });
    const [call] = blocksOf(s.messages, "tool_call");
    assert.deepEqual(call, {
      type: "tool_call",
      id: "call_fake0001",
      name: "terminal",
      input: { command: "echo fixture-tool-output" },
    });
    const [result] = blocksOf(s.messages, "tool_result");
    assert.equal(result?.type === "tool_result" && result.callId, "call_fake0001");
    assert.deepEqual(s.meta.models, ["fake-model-1"]);
    assert.equal(s.meta.cwd, "/home/user/project");
    assert.equal(s.meta.source, "cli");
    assert.equal(s.meta.title, "TOOL: echo fixture-tool-output");
    assert.ok(s.meta.usage && s.meta.usage.inputTokens > 0, "token counts");
    assert.match(s.meta.createdAt!, /^2026-11-29T21:07/);
    assert.deepEqual(s.pending.openToolCalls, []);
    assert.deepEqual(s.drift, []);
    const timestamps = s.messages.map((m) => Date.parse(m.timestamp!));
    assert.deepEqual(timestamps, [...timestamps].sort((a, b) => a - b), "in Hermes's (id) order");
  });

  test(`${version}: a compression chain is one conversation: the live tip, the root kept apart as compacted`, async () => {
    const [root, tip] = capturedIds(version, "compressed");
    const db = hermesFixture(version, "compressed.state.db");
    for (const ref of [root!, tip!]) {
      const s = await readHermesSession(sessionLocator(db, ref));
      assert.equal(s.meta.id, tip, `${ref} resolves to the live tip, as hermes --resume does`);
      assert.deepEqual(s.threads.map((t) => [t.id, t.kind]), [[root, "compacted"]]);
      assert.ok(s.threads[0]!.messages.length >= 6);
      assert.ok(s.messages.some((m) => m.kind === "summary"), "the compaction summary is marked");
      const rootFirst = Date.parse(s.threads[0]!.messages[0]!.timestamp!);
      assert.ok(Date.parse(s.meta.createdAt!) <= rootFirst, "the conversation starts when the root did");
    }
    const { json } = await runCliJson(["inspect", sessionLocator(db, root!)]);
    const inspected = json.session as { threads: { kind: string }[] };
    assert.deepEqual(inspected.threads.map((t) => t.kind), ["compacted"]);
  });

  test(`${version}: a JSON snapshot reads with its tool catalog; the id is the stem without session_`, async () => {
    const [id] = capturedIds(version, "snapshot");
    const s = await readHermesSession(hermesFixture(version, `snapshot/sessions/session_${id}.json`));
    assert.equal(s.meta.id, id);
    assert.ok(s.tools.length > 5 && s.tools.some((t) => t.name === "terminal"), "tool catalog");
    assert.ok(blocksOf(s.messages, "tool_call").length === 1);
    assert.deepEqual(s.drift, []);
  });
}

test("a database session takes its tool catalog from the JSON snapshot beside the database", async () => {
  const home = join(dir, "with-snapshot");
  const [id] = capturedIds("0.19.0", "snapshot");
  mkdirSync(join(home, "sessions"), { recursive: true });
  copyFileSync(hermesFixture("0.19.0", "snapshot.state.db"), join(home, "state.db"));
  const without = await readHermesSession(sessionLocator(join(home, "state.db"), id!));
  assert.deepEqual(without.tools, []);
  const name = `session_${id}.json`;
  copyFileSync(hermesFixture("0.19.0", `snapshot/sessions/${name}`), join(home, "sessions", name));
  const withTools = await readHermesSession(sessionLocator(join(home, "state.db"), id!));
  assert.ok(withTools.tools.some((t) => t.name === "terminal"));
});

test("0.19.0: rows compacted in place are kept apart; only active rows are live", async () => {
  const [id] = capturedIds("0.19.0", "compressed-inplace");
  const s = await readHermesSession(
    sessionLocator(hermesFixture("0.19.0", "compressed-inplace.state.db"), id!),
  );
  assert.equal(s.messages.length, 8);
  assert.deepEqual(s.threads.map((t) => [t.id, t.kind, t.messages.length]), [[
    `${id}:compacted`,
    "compacted",
    9,
  ]]);
});

test("0.14.0: a legacy gateway transcript reads whole: id = file stem, tools, tool name from `name`", async () => {
  const [id] = capturedIds("0.14.0", "gateway-legacy");
  const s = await readHermesSession(hermesFixture("0.14.0", `gateway-legacy/sessions/${id}.jsonl`));
  assert.equal(s.meta.id, id);
  assert.equal(s.meta.source, "webhook");
  assert.ok(s.tools.length > 5);
  assert.deepEqual(s.messages.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
  assert.deepEqual(s.drift, []);
});

test("0.14.0: the gateway's session_meta row in state.db is not a message", async () => {
  const [id] = capturedIds("0.14.0", "gateway-legacy");
  const s = await readHermesSession(sessionLocator(hermesFixture("0.14.0", "gateway-legacy.state.db"), id!));
  assert.deepEqual(s.messages.map((m) => m.role), ["user", "assistant", "tool", "assistant"]);
});

test("foreign rows: a system row is harness context; a session with only a child resolves to the child", async () => {
  const db = hermesFixture("0.19.0", "foreign.state.db");
  const rich = await readHermesSession(sessionLocator(db, "claude-3f1c9a52-7d2e-4b8a-9c11-5e0f2b6a7d33"));
  assert.equal(rich.messages[0]!.role, "system");
  assert.equal(rich.messages[0]!.kind, "context");
  assert.equal(rich.meta.title, "Imported from Claude Code");
  const empty = await readHermesSession(sessionLocator(db, "20260101_000300_f00004"));
  assert.equal(empty.meta.id, "20260101_000400_f00005");
});

test("multimodal content, Anthropic signatures and Responses items come back typed, with their provider", async () => {
  const db = join(dir, "rich.db");
  copyFileSync(hermesFixture("0.19.0", "tool-call.state.db"), db);
  const [id] = capturedIds("0.19.0", "tool-call");
  const conn = new DatabaseSync(db);
  const parts = [{ type: "text", text: "look" }, {
    type: "image_url",
    image_url: { url: "data:image/png;base64,iVBO" },
  }];
  conn.prepare("UPDATE messages SET content = ? WHERE id = 1").run(`\u0000json:${JSON.stringify(parts)}`);
  const details = [{ type: "thinking", thinking: "signed thought", signature: "sig-abc" }];
  const items = [{
    type: "reasoning",
    summary: [{ type: "summary_text", text: "codex thought" }],
    encrypted_content: "enc",
  }];
  conn.prepare("UPDATE messages SET reasoning_details = ?, codex_reasoning_items = ? WHERE id = 2")
    .run(JSON.stringify(details), JSON.stringify(items));
  conn.close();
  const s = await readHermesSession(sessionLocator(db, id!));
  assert.deepEqual(s.messages[0]!.blocks, [
    { type: "text", text: "look" },
    { type: "image", mediaType: "image/png", data: "iVBO" },
  ]);
  assert.deepEqual(blocksOf(s.messages, "reasoning"), [
    { type: "reasoning", text: "signed thought", signature: "sig-abc", provider: "anthropic" },
    { type: "reasoning", text: "codex thought", encrypted: "enc", provider: "openai" },
  ]);
});

test("a column Hermes added after our captures is drift, reported by inspect, never a crash", async () => {
  const db = join(dir, "drift.db");
  copyFileSync(hermesFixture("0.19.0", "tool-call.state.db"), db);
  const conn = new DatabaseSync(db);
  conn.exec("ALTER TABLE sessions ADD COLUMN future_flag TEXT");
  conn.close();
  const [id] = capturedIds("0.19.0", "tool-call");
  const r = await runCliJson(["inspect", sessionLocator(db, id!)]);
  assert.equal(r.code, 0, r.stderr);
  const drift = (r.json.session as { drift: { where: string }[] }).drift;
  assert.deepEqual(drift.map((d) => d.where), ["column:sessions.future_flag"]);
});

test("a bare state.db path names its session only when it holds one conversation", async () => {
  const one = await runCliJson(["inspect", hermesFixture("0.19.0", "tool-call.state.db")]);
  assert.equal(one.code, 0, one.stderr);
  const several = await runCliJson(["inspect", hermesFixture("0.19.0", "foreign.state.db")]);
  assert.equal(several.code, 2);
  assert.match(several.stderr, /holds several sessions: name one as .*#<id>/);
});
