/**
 * `session-bridge events`: a real Claude Code session replayed as LazyBridge events, checked against the raw
 * records of the fixture (parsed here, not through the reader): one run per typed prompt, every tool call and
 * result, and the token usage counted once per provider message.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonLines, seedClaudeHome } from "./helpers/fixtures.ts";
import { emptyHomes, runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { EventLog, usageSummary } from "../lib/observe/event-log.ts";

const root = tempDir("sb-events-");
const claudeHome = join(root, "claude");
const seeded = seedClaudeHome(claudeHome, "edit-tool");
const homes = emptyHomes(root, claudeHome);

type Raw = {
  type?: string;
  isSidechain?: boolean;
  message?: { id?: string; content?: unknown; usage?: Record<string, number> };
};
const raw = jsonLines(seeded.path) as Raw[];
const blocks = (
  r: Raw,
) => (Array.isArray(r.message?.content)
  ? r.message.content as { type: string; id?: string; tool_use_id?: string }[]
  : []);

/** Claude repeats a response's usage on each record it splits the response into: count each message id once. */
function rawUsage(): { input: number; output: number } {
  const seen = new Map<string, Record<string, number>>();
  for (const r of raw) {
    if (r.type === "assistant" && r.message?.usage && r.message.id) seen.set(r.message.id, r.message.usage);
  }
  let [input, output] = [0, 0];
  for (const u of seen.values()) {
    input += (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0);
    output += u.output_tokens ?? 0;
  }
  return { input, output };
}

test("events replays a Claude session: every tool call and result, usage as the harness recorded it", async () => {
  const r = await runCliJson(["events", seeded.id, ...homes]);
  assert.equal(r.code, 0, r.stderr);
  const events = r.json.events as { event_type: string; run_id: string | null; call_id?: string }[];
  const callIds = raw.flatMap((x) =>
    x.type === "assistant" ? blocks(x).filter((b) => b.type === "tool_use").map((b) => b.id) : []
  );
  const resultIds = raw.flatMap((x) =>
    x.type === "user" ? blocks(x).filter((b) => b.type === "tool_result").map((b) => b.tool_use_id) : []
  );
  assert.ok(callIds.length > 0);
  assert.deepEqual(events.filter((e) => e.event_type === "tool_call").map((e) => e.call_id), callIds);
  assert.deepEqual(
    events.filter((e) => e.event_type === "tool_result" || e.event_type === "tool_error").map((e) =>
      e.call_id
    ),
    resultIds,
  );
  const starts = events.filter((e) => e.event_type === "agent_start");
  const finishes = events.filter((e) => e.event_type === "agent_finish");
  assert.ok(starts.length >= 1);
  assert.deepEqual(
    finishes.map((e) => e.run_id),
    starts.map((e) => e.run_id),
    "every run that starts finishes",
  );
  for (const e of events.filter((e) => e.event_type.startsWith("tool_"))) {
    assert.ok(starts.some((s) => s.run_id === e.run_id), "a tool event belongs to a run");
  }
  const usage = r.json.usage as { total: { input_tokens: number; output_tokens: number } };
  const expected = rawUsage();
  assert.ok(expected.output > 0);
  assert.deepEqual([usage.total.input_tokens, usage.total.output_tokens], [expected.input, expected.output]);
});

test("events --db writes LazyBridge's events table with the session's own times; --jsonl one line per event", async () => {
  const db = join(root, "events.db");
  const jsonl = join(root, "events.jsonl");
  const r = await runCli(["events", seeded.id, ...homes, "--db", db, "--jsonl", jsonl]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "", "no console output unless asked when a file is named");
  const log = new EventLog(db, seeded.id);
  try {
    const rows = log.query();
    assert.equal(readFileSync(jsonl, "utf8").trim().split("\n").length, rows.length);
    const firstTs = Date.parse(
      (raw.find((x) => (x as { timestamp?: string }).timestamp) as { timestamp: string }).timestamp,
    ) / 1000;
    assert.ok(rows[0]!.ts >= firstTs && rows[0]!.ts < firstTs + 3600, "ts is when it happened, not now");
    const expected = rawUsage();
    assert.equal(usageSummary(log).total.output_tokens, expected.output);
  } finally {
    log.close();
  }
});

test("events prints one neutral line per event on the console by default", async () => {
  const r = await runCli(["events", seeded.id, ...homes]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trim().split("\n");
  // LazyBridge's console line: the agent, then the event type.
  assert.match(lines[0]!, /^\[[^\]]+\] agent_start {2}/, lines[0]);
  assert.ok(lines.some((l) => /^(\[[^\]]+\] )?tool_call {2}tool=/.test(l)), lines.join("\n"));
});

test("a subagent's work is a run of its own, nested under the turn that spawned it, with its own answer", async () => {
  const home = join(root, "claude-subagent");
  const s = seedClaudeHome(home, "subagent");
  const r = await runCliJson(["events", s.id, ...emptyHomes(root, home)]);
  assert.equal(r.code, 0, r.stderr);
  type E = {
    event_type: string;
    run_id: string | null;
    thread_kind?: string;
    parent_run_id?: string;
    call_id?: string;
  };
  const events = r.json.events as E[];
  const turns = events.filter((e) => e.event_type === "agent_start" && !e.thread_kind).map((e) => e.run_id);
  const sub = events.find((e) => e.event_type === "agent_start" && e.thread_kind === "subagent");
  assert.ok(sub, "the subagent is a run");
  assert.ok(turns.includes(sub.parent_run_id!), "its parent is a turn of the main thread");
  // The subagent's own answer, read from its transcript on disk, belongs to its run.
  const dir = join(home, "projects", readdirSync(join(home, "projects"))[0]!, s.id, "subagents");
  const answers = readdirSync(dir).filter((f) => f.endsWith(".jsonl")).flatMap((f) =>
    jsonLines(join(dir, f)) as Raw[]
  )
    .filter((x) => x.type === "assistant").map((x) =>
      blocks(x).filter((b) => b.type === "text").map((b) => (b as unknown as { text: string }).text).join(
        "\n",
      )
    );
  assert.ok(answers.length > 0);
  assert.deepEqual(
    events.filter((e) => e.event_type === "model_response" && e.run_id === sub.run_id).map((e) =>
      (e as unknown as { content: string }).content
    ),
    answers,
  );
});
