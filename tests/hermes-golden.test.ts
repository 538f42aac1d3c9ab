/**
 * Goldens: what our Hermes writer puts into state.db, compared field by field with what the real Hermes 0.19.0
 * wrote for the same conversation (fixtures/hermes/0.19.0, typed into its TUI and run with -q), after
 * normalizing ids and times. The real rows are read with SQL, never with our reader, so a mistake shared by
 * reader and writer cannot hide here. Every column that differs is named below with the reason it differs.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hermes } from "../lib/harnesses/hermes/index.ts";
import type { Message, Session } from "../lib/ir/schema.ts";
import { emptySession } from "../lib/ir/session.ts";
import { capturedIds, query, seedHermesHome } from "./helpers/hermes.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
let n = 0;

type Row = Record<string, unknown>;

/** A foreign (Claude Code) session holding exactly the conversation the real Hermes had. */
function conversation(messages: Omit<Message, "parentUid">[]): Session {
  const session = emptySession({
    harness: "claude-code",
    id: "0b6e4a52-9c1d-4f7e-8a3b-2d5c6e7f8a9b",
    cwd: "/home/user/project",
    models: ["fake-model-1"],
    createdAt: "2026-12-01T02:46:39.358Z",
  });
  session.messages = messages.map((m, i) => ({ ...m, parentUid: i ? messages[i - 1]!.uid : null }));
  return session;
}

/** Writes `session` with our writer into a home holding the real fixture's state.db; returns both sessions' rows. */
async function writtenBeside(scenario: string, session: Session) {
  const home = join(root, `g${n++}`);
  mkdirSync(home, { recursive: true });
  const db = seedHermesHome(home, "0.19.0", scenario);
  const now = new Date("2026-12-01T03:00:00Z");
  const id = "20261201_030000_abcdef";
  const options = { id, cwd: "/home/user/project", now, stubOpenCalls: false };
  const plan = await hermes.store.plan(
    session,
    options,
    home,
    false,
  );
  assert.equal(plan.refusal, undefined);
  await plan.commit({ backup: false, force: false, backupFolder: join(tempDir(), "backups", "b") });
  const [real] = capturedIds("0.19.0", scenario);
  const rows = (sessionId: string) => ({
    session: query(db, "SELECT * FROM sessions WHERE id = ?", sessionId)[0]!,
    messages: query(db, "SELECT * FROM messages WHERE session_id = ? ORDER BY id", sessionId),
  });
  return { ours: rows(id), real: rows(real!) };
}

const IDS_AND_TIMES = {
  sessions: ["id", "started_at", "ended_at"],
  messages: ["id", "session_id", "timestamp"],
};

/**
 * Columns ours leaves for Hermes to fill, with why: Hermes writes them about its own API calls and its own
 * process (config at session start, counters, billing, the end of the CLI run), and fills them again from
 * the next turn it makes on the resumed session.
 */
const SESSION_COLUMNS_HERMES_FILLS = {
  model_config:
    "Hermes's run settings at session start (max_iterations...): written by the run that makes it",
  system_prompt: "Hermes builds its own on resume; a foreign prompt would replace it",
  end_reason: "'cli_close' when the TUI exited; a handed-off session has not ended",
  input_tokens: "usage of Hermes's own API calls",
  output_tokens: "usage of Hermes's own API calls",
  api_call_count: "Hermes's own API calls",
  billing_provider: "the route of Hermes's own API calls",
  billing_base_url: "the route of Hermes's own API calls",
  estimated_cost_usd: "cost of Hermes's own API calls",
  cost_status: "cost of Hermes's own API calls",
  cost_source: "cost of Hermes's own API calls",
};

function without(row: Row, columns: string[]): Row {
  return Object.fromEntries(Object.entries(row).filter(([k]) => !columns.includes(k)));
}

/** `tool_calls` text, parsed, without the Responses-API twins Hermes keeps beside each call's id. */
function calls(text: unknown): unknown {
  if (typeof text !== "string") return text;
  return (JSON.parse(text) as Row[]).map(({ call_id: _c, response_item_id: _r, ...call }) => call);
}

test("golden: a typed Hermes conversation with a shell call, written by us, matches Hermes's own rows", async () => {
  const reasoning = "REASONING: the user wants a shell command run; calling terminal.";
  const session = conversation([
    {
      uid: "u1",
      role: "user",
      kind: "turn",
      blocks: [{ type: "text", text: "Please describe the weather patterns of coastal regions." }],
    },
    {
      uid: "a1",
      role: "assistant",
      kind: "turn",
      blocks: [{ type: "text", text: "ASSISTANT-REPLY: acknowledged, turn 1, digest c2a20279." }],
    },
    {
      uid: "u2",
      role: "user",
      kind: "turn",
      blocks: [{ type: "text", text: "TOOL: echo interactive-tool-output" }],
    },
    {
      uid: "a2",
      role: "assistant",
      kind: "turn",
      blocks: [
        { type: "reasoning", text: reasoning, provider: "other" },
        {
          type: "tool_call",
          id: "call_fake0001",
          name: "terminal",
          input: { command: "echo interactive-tool-output" },
        },
      ],
    },
    {
      uid: "t2",
      role: "tool",
      kind: "turn",
      blocks: [{
        type: "tool_result",
        callId: "call_fake0001",
        isError: false,
        content: [{
          type: "text",
          text: '{"output": "interactive-tool-output", "exit_code": 0, "error": null}',
        }],
      }],
    },
    {
      uid: "a3",
      role: "assistant",
      kind: "turn",
      blocks: [{ type: "text", text: "Tool said: interactive-tool-output" }],
    },
  ]);
  const { ours, real } = await writtenBeside("interactive", session);

  // Messages: every column equal once ids and times are set aside; tool_calls compared parsed (see calls()).
  assert.equal(ours.messages.length, 6);
  assert.equal(real.messages.length, 6);
  ours.messages.forEach((mine, i) => {
    const theirs = real.messages[i]!;
    assert.deepEqual(
      { ...without(mine, IDS_AND_TIMES.messages), tool_calls: calls(mine.tool_calls) },
      { ...without(theirs, IDS_AND_TIMES.messages), tool_calls: calls(theirs.tool_calls) },
      `message ${i + 1} (${String(theirs.role)})`,
    );
  });
  // What calls() sets aside, literally: Hermes keeps the Responses-API twins of the call id; ours does not
  // write them (Hermes reads `id` first, _get_tool_call_id_static).
  assert.deepEqual(JSON.parse(String(real.messages[3]!.tool_calls))[0], {
    id: "call_fake0001",
    call_id: "call_fake0001",
    response_item_id: "fc_fake0001",
    type: "function",
    function: { name: "terminal", arguments: '{"command":"echo interactive-tool-output"}' },
  });
  assert.deepEqual(JSON.parse(String(ours.messages[3]!.tool_calls))[0], {
    id: "call_fake0001",
    type: "function",
    function: { name: "terminal", arguments: '{"command":"echo interactive-tool-output"}' },
  });
  // Times: ours are monotonic, like Hermes's.
  for (const rows of [ours.messages, real.messages]) {
    for (let i = 1; i < rows.length; i++) {
      assert.ok(Number(rows[i]!.timestamp) > Number(rows[i - 1]!.timestamp));
    }
  }

  // The sessions row: equal but for ids, times and what Hermes fills from its own run.
  const hermesFills = Object.keys(SESSION_COLUMNS_HERMES_FILLS);
  assert.deepEqual(
    without(ours.session, [...IDS_AND_TIMES.sessions, ...hermesFills]),
    without(real.session, [...IDS_AND_TIMES.sessions, ...hermesFills]),
  );
  assert.deepEqual(
    Object.fromEntries(hermesFills.map((c) => [c, ours.session[c]])),
    {
      model_config: null,
      system_prompt: null,
      end_reason: null,
      input_tokens: 0,
      output_tokens: 0,
      api_call_count: 0,
      billing_provider: null,
      billing_base_url: null,
      estimated_cost_usd: null,
      cost_status: null,
      cost_source: null,
    },
  );
  assert.equal(ours.session.ended_at, null, "an open session, as Hermes leaves one it is still running");
});

test("golden: a -q Hermes conversation of two text turns, written by us, matches Hermes's own rows", async () => {
  const session = conversation([
    {
      uid: "u1",
      role: "user",
      kind: "turn",
      blocks: [{ type: "text", text: "Please describe the weather patterns of coastal regions." }],
    },
    {
      uid: "a1",
      role: "assistant",
      kind: "turn",
      blocks: [{ type: "text", text: "ASSISTANT-REPLY: acknowledged, turn 1, digest c2a20279." }],
    },
    {
      uid: "u2",
      role: "user",
      kind: "turn",
      blocks: [{ type: "text", text: "And what about mountain areas?" }],
    },
    {
      uid: "a2",
      role: "assistant",
      kind: "turn",
      blocks: [{ type: "text", text: "ASSISTANT-REPLY: acknowledged, turn 2, digest a297e3a3." }],
    },
  ]);
  const { ours, real } = await writtenBeside("text-turns", session);
  assert.deepEqual(
    ours.messages.map((m) => without(m, IDS_AND_TIMES.messages)),
    real.messages.map((m) => without(m, IDS_AND_TIMES.messages)),
  );
  const hermesFills = Object.keys(SESSION_COLUMNS_HERMES_FILLS);
  assert.deepEqual(
    without(ours.session, [...IDS_AND_TIMES.sessions, ...hermesFills]),
    without(real.session, [...IDS_AND_TIMES.sessions, ...hermesFills]),
  );
});

test("golden: a Hermes to Hermes copy of the interrupted TUI session keeps every row Hermes wrote", async () => {
  const home = join(root, `g${n++}`);
  const db = seedHermesHome(home, "0.19.0", "interrupted");
  writeFileSync(join(home, "config.yaml"), 'model:\n  default: "fake-model-1"\n  provider: custom\n');
  const [real] = capturedIds("0.19.0", "interrupted");
  const session = await hermes.store.read(`${db}#${real}`);
  const now = new Date("2026-12-01T03:00:00Z");
  const id = "20261201_030000_c0ffee";
  const plan = await hermes.store.plan(
    session,
    { id, cwd: "/home/user/project", now, stubOpenCalls: false },
    home,
    false,
  );
  await plan.commit({ backup: false, force: false, backupFolder: join(tempDir(), "backups", "b") });
  const rows = (sessionId: string) =>
    query(db, "SELECT * FROM messages WHERE session_id = ? ORDER BY id", sessionId).map((m) =>
      without(m, ["id", "session_id"])
    );
  assert.deepEqual(rows(id), rows(real!), "every column, times included");
  assert.deepEqual(rows(real!).slice(6, 11).map((m) => [m.role, m.content]), [
    ["user", "TOOL: sleep 600; echo never-printed"],
    ["assistant", ""],
    ["tool", '{"output": "[Command interrupted]", "exit_code": 130, "error": null}'],
    ["assistant", "Operation interrupted."],
    ["user", "Typed while it ran: keep the coastal notes short."],
  ]);
});
