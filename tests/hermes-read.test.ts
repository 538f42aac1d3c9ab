import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { readHermesSession } from "../lib/harnesses/hermes/read.ts";
import { sessionLocator } from "../lib/harnesses/hermes/profiles.ts";
import type { Block, Message } from "../lib/ir/schema.ts";
import { capturedIds, HERMES_VERSIONS, hermesFixture, seedHermesHome } from "./helpers/hermes.ts";
import { hermesFileComponent } from "../lib/harnesses/hermes/ids.ts";
import { listHermes } from "../lib/harnesses/hermes/list.ts";
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

/** Renames session `from` to `to` in every table that names a session, as a Hermes gateway may have named it. */
function renameSession(db: string, from: string, to: string): void {
  const conn = new DatabaseSync(db);
  try {
    conn.exec("PRAGMA foreign_keys = OFF");
    const columns = conn.prepare(
      "SELECT m.name AS t, p.name AS c FROM sqlite_master m, pragma_table_info(m.name) p " +
        "WHERE m.type = 'table' AND p.name IN ('session_id', 'parent_session_id')",
    ).all() as { t: string; c: string }[];
    for (const { t, c } of columns) {
      conn.prepare(`UPDATE "${t}" SET "${c}" = ? WHERE "${c}" = ?`).run(to, from);
    }
    conn.prepare("UPDATE sessions SET id = ? WHERE id = ?").run(to, from);
  } finally {
    conn.close();
  }
}

test("Hermes ids with a space or colon are read: by id, as <db>#<id>, in list, inspect and handoff", async () => {
  const home = join(dir, "odd-ids");
  const db = seedHermesHome(home, "0.19.0", "snapshot");
  const [captured] = capturedIds("0.19.0", "snapshot");
  const id = "gw:tg dm 42";
  renameSession(db, captured!, id);
  // Hermes names the snapshot of such a session by its own safe form of the id (run_agent.py).
  mkdirSync(join(home, "sessions"));
  copyFileSync(
    hermesFixture("0.19.0", `snapshot/sessions/session_${captured}.json`),
    join(home, "sessions", "session_gw_tg_dm_42_a5bb2e45f05a.json"),
  );
  const env = { SESSION_BRIDGE_HOME: join(dir, "odd-ids-bridge") };
  const homes = [
    "--hermes-home",
    home,
    "--claude-home",
    join(dir, "odd-ids-claude"),
    "--codex-home",
    join(dir, "none"),
  ];
  const listed = await runCliJson(["list", "--from", "hermes", ...homes], env);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual((listed.json.sessions as { id: string }[]).map((s) => s.id), [id]);
  for (const ref of [id, `${db}#${id}`, "gw:tg dm"]) {
    const r = await runCliJson(["inspect", ref, ...homes], env);
    assert.equal(r.code, 0, `${ref}: ${r.stderr}`);
    assert.equal((r.json.session as { id: string }).id, id, ref);
    assert.ok(
      (r.json.session as { tools: number }).tools > 5,
      "the snapshot's tool catalog, found by Hermes's file name",
    );
  }
  const cwd = join(dir, "odd-ids-cwd");
  mkdirSync(cwd);
  const handed = await runCliJson(["handoff", id, "--to", "claude", "--cwd", cwd, ...homes], env);
  assert.equal(handed.code, 0, handed.stderr);
  assert.match(handed.stdout, /"resumeCommand"/);
  assert.equal(
    (await runCliJson(["inspect", (handed.json.target as { path: string }).path, ...homes], env)).code,
    0,
  );
});

test("the file name Hermes gives any session id is its own: path-safe, and the id itself when already safe", () => {
  // Computed by Hermes 0.19.0's own run_agent._safe_session_filename_component.
  const golden: Record<string, string> = {
    "20261129_202528_a1b2c3": "20261129_202528_a1b2c3",
    "gw:tg dm 42": "gw_tg_dm_42_a5bb2e45f05a",
    "../../etc/passwd": "etc_passwd_3754d6cb3a38",
    "café 1": "café_1_0a61b4044a8a",
    "a.b": "a_b_2e7336dc8eba",
    "__x__": "x_a917b03b1e3e",
    "": "session_e3b0c44298fc",
    ["x".repeat(120)]: `${"x".repeat(96)}_13f05a0b5947`,
  };
  for (const [id, name] of Object.entries(golden)) assert.equal(hermesFileComponent(id), name, id);
});

test("a state.db session names the Hermes release its schema was captured from, not its schema number", async () => {
  const [id] = capturedIds("0.19.0", "tool-call");
  const locator = sessionLocator(hermesFixture("0.19.0", "tool-call.state.db"), id!);
  const s = await readHermesSession(locator);
  assert.equal(s.meta.harnessVersion, "0.19.0");
  const { json } = await runCliJson(["inspect", locator]);
  assert.equal((json.session as { version: string }).version, "0.19.0");
});

test("a state.db newer than every captured schema names the release it is newer than", async () => {
  const [id] = capturedIds("0.19.0", "tool-call");
  const db = join(dir, "newer-schema.state.db");
  copyFileSync(hermesFixture("0.19.0", "tool-call.state.db"), db);
  const writable = new DatabaseSync(db);
  writable.exec("UPDATE schema_version SET version = 99");
  writable.close();
  const s = await readHermesSession(sessionLocator(db, id!));
  assert.equal(s.meta.harnessVersion, "newer than 0.19.0");
});

test("a listed session's preview passes over a multimodal user message to the first one in words", () => {
  const home = join(dir, "preview-home");
  mkdirSync(home, { recursive: true });
  const db = join(home, "state.db");
  copyFileSync(hermesFixture("0.19.0", "tool-call.state.db"), db);
  const [id] = capturedIds("0.19.0", "tool-call");
  const conn = new DatabaseSync(db);
  const image = [{ type: "image_url", image_url: { url: "data:image/png;base64,iVBO" } }];
  conn.prepare("UPDATE messages SET content = ? WHERE id = 1").run(`\u0000json:${JSON.stringify(image)}`);
  conn.prepare(
    `INSERT INTO messages (session_id, role, content, timestamp)
     SELECT session_id, 'user', 'Describe the picture', timestamp + 0.001 FROM messages WHERE id = 1`,
  ).run();
  conn.close();
  const listed = listHermes(home).find((s) => s.id === id);
  assert.equal(listed?.title, "Describe the picture");
});
