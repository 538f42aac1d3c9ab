/**
 * The event log: one transaction per recordMany, refused once closed, and LazyBridge 1.8.3's own EventLog and
 * usage_summary reading our events.db and agreeing with us to the token and cent.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventLog, type EventRecord, EventType, usageSummary } from "../lib/observe/event-log.ts";
import { lazybridgePython } from "./helpers/lazybridge.ts";

function withDb(run: (path: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), "sb-events-"));
  try {
    run(join(dir, "events.db"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Two runs of two agents with token counts and one response attributed only through its run's AGENT_START. */
const EVENTS: EventRecord[] = [
  { eventType: EventType.AGENT_START, runId: "run-1", payload: { agent_name: "claude-code" } },
  {
    eventType: EventType.MODEL_RESPONSE,
    runId: "run-1",
    payload: { agent_name: "claude-code", input_tokens: 1200, output_tokens: 300, cost_usd: 0.0081 },
  },
  { eventType: EventType.MODEL_RESPONSE, runId: "run-1", payload: { input_tokens: 50, output_tokens: 7 } },
  { eventType: EventType.TOOL_CALL, runId: "run-1", payload: { tool: "Bash", arguments: { command: "ls" } } },
  { eventType: EventType.AGENT_FINISH, runId: "run-1", payload: { agent_name: "claude-code" } },
  { eventType: EventType.AGENT_START, runId: "run-2", payload: { agent_name: "codex" } },
  {
    eventType: EventType.MODEL_RESPONSE,
    runId: "run-2",
    payload: { agent_name: "codex", input_tokens: 900, output_tokens: 120, cost_usd: 0.0042 },
  },
  {
    eventType: EventType.MODEL_RESPONSE,
    payload: { agent_name: "hermes", input_tokens: 10, output_tokens: 2 },
  },
];

test("recordMany writes all of its events in one transaction or none of them", () => {
  withDb((path) => {
    const log = new EventLog(path, "s1");
    log.recordMany(EVENTS.slice(0, 2));
    const bad = { eventType: EventType.TOOL_CALL, payload: { n: 1 }, ts: Number.NaN };
    assert.throws(() => log.recordMany([EVENTS.slice(3, 4)[0]!, bad as EventRecord]));
    assert.equal(log.query().length, 2);
    assert.deepEqual(log.query({ eventType: EventType.MODEL_RESPONSE }).map((e) => e.payload.input_tokens), [
      1200,
    ]);
    log.close();
    log.close();
    assert.throws(() => log.recordMany(EVENTS), /closed/);
  });
});

test("LazyBridge's EventLog reads our events.db and its usage_summary equals ours", (t) => {
  const py = lazybridgePython();
  if ("skip" in py) return t.skip(py.skip);
  withDb((path) => {
    const log = new EventLog(path, "session-a");
    log.recordMany(EVENTS);
    new EventLog(path, "session-b").recordMany(EVENTS.slice(1, 2));
    const ours = usageSummary(log);
    const stored = log.query();
    log.close();
    const script = [
      "import json, sys",
      "from lazybridge.session import Session, EventLog",
      "path = sys.argv[1]",
      "s = Session(db=path)",
      "s.session_id = 'session-a'",
      "s.events = EventLog('session-a', db=path)",
      "print(json.dumps({'summary': s.usage_summary(), 'events': s.events.query()}))",
    ].join("\n");
    const r = spawnSync(py.python, ["-c", script, path], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const theirs = JSON.parse(r.stdout) as { summary: unknown; events: unknown[] };
    assert.deepEqual(theirs.events, stored);
    assert.deepEqual(theirs.summary, ours);
    // Independently: 1200 + 50 + 900 + 10 input tokens in session-a, the unlabelled run-1 response counted
    // for claude-code through its AGENT_START.
    assert.deepEqual(ours.total.input_tokens, 2160);
    assert.deepEqual(ours.by_agent["claude-code"]?.output_tokens, 307);
  });
});
