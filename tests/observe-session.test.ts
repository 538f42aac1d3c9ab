/**
 * The event bus: default redaction and its opt-outs (unsafeLogPayloads as LazyBridge's), redactor failures,
 * exporters isolated from each other, the structured-log exporter against LazyBridge 1.8.3's, and a close that
 * waits for exporters to shut down.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { setImmediate } from "node:timers";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EventType, type Payload } from "../lib/observe/event-log.ts";
import {
  callbackExporter,
  consoleExporter,
  type ExportedEvent,
  type Exporter,
  filteredExporter,
  jsonlExporter,
  Session,
  structuredLogExporter,
} from "../lib/observe/session.ts";
import { lazybridgePython } from "./helpers/lazybridge.ts";

const TOKEN = `ghp_${"Q".repeat(36)}`;

function collect(): { exporter: Exporter; seen: ExportedEvent[] } {
  const seen: ExportedEvent[] = [];
  return { exporter: callbackExporter((e) => void seen.push(e)), seen };
}

test("events are redacted by default in the log and in every exporter", () => {
  const { exporter, seen } = collect();
  const s = new Session({ sessionId: "s", db: ":memory:", exporters: [exporter] });
  s.emit(EventType.TOOL_CALL, { command: `gh auth login --with-token ${TOKEN}` }, "r1");
  assert.equal(seen[0]?.command, "gh auth login --with-token <redacted:github-token>");
  assert.deepEqual(seen[0] && [seen[0].event_type, seen[0].session_id, seen[0].run_id], [
    "tool_call",
    "s",
    "r1",
  ]);
  assert.equal(s.events?.query()[0]?.payload.command, seen[0]?.command);
  s.close();
  s.close();
});

test("redact: null opts out, and a custom redactor replaces the default instead of stacking on it", () => {
  const a = collect();
  new Session({ sessionId: "s", exporters: [a.exporter], redact: null }).emit("x", { t: TOKEN });
  assert.equal(a.seen[0]?.t, TOKEN);
  const b = collect();
  new Session({ sessionId: "s", exporters: [b.exporter], redact: (p) => ({ ...p, custom: true }) })
    .emit("x", { t: TOKEN });
  assert.deepEqual([b.seen[0]?.t, b.seen[0]?.custom], [TOKEN, true]);
});

test("a failing redactor drops the event everywhere under strict and keeps it under fallback, warning once", () => {
  const boom = () => {
    throw new TypeError("bad");
  };
  const strict = collect();
  const warnings: string[] = [];
  const s = new Session({
    sessionId: "s",
    db: ":memory:",
    exporters: [strict.exporter],
    redact: boom,
    warn: (l) => void warnings.push(l),
  });
  s.emit("x", { a: 1 });
  s.emit("x", { a: 2 });
  assert.deepEqual([strict.seen.length, s.events?.query().length, s.droppedByRedactor], [0, 0, 2]);
  assert.equal(warnings.length, 1);
  const fallback = collect();
  const f = new Session({
    sessionId: "s",
    exporters: [fallback.exporter],
    redact: boom,
    redactOnError: "fallback",
    warn: () => {},
  });
  f.emit("x", { a: 1 });
  assert.equal(fallback.seen[0]?.a, 1);
});

test("a throwing exporter warns once per error kind, is counted, and never stops the others", () => {
  const good = collect();
  const warnings: string[] = [];
  let n = 0;
  const bad: Exporter = {
    name: "bad",
    export: () => {
      throw n++ % 2 ? new RangeError("r") : new TypeError("t");
    },
  };
  const s = new Session({
    sessionId: "s",
    exporters: [bad, good.exporter],
    warn: (l) => void warnings.push(l),
  });
  for (let i = 0; i < 5; i++) s.emit("x", { i });
  assert.equal(good.seen.length, 5);
  assert.equal(warnings.length, 2);
  assert.deepEqual([...s.exporterFailures.values()].sort(), [2, 3]);
});

test("filtered, JSON-lines and console exporters", () => {
  const dir = mkdtempSync(join(tmpdir(), "sb-export-"));
  try {
    const file = join(dir, "events.jsonl");
    const lines: string[] = [];
    const s = new Session({
      sessionId: "s",
      exporters: [
        filteredExporter(jsonlExporter(file), ["tool_error"]),
        consoleExporter((l) => void lines.push(l)),
      ],
    });
    s.emit("tool_call", { x: 1 });
    s.emit("tool_error", { error: "no\u009b[2J" }, "r");
    s.close();
    const written = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as ExportedEvent);
    assert.deepEqual(written.map((e) => e.event_type), ["tool_error"]);
    assert.equal(lines.length, 2);
    assert.ok(!lines.some((l) => l.includes("\u009b")), "a C1 control reached the console line");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("close waits for each exporter's asynchronous shutdown, returns the same promise every time and never rejects", async () => {
  const order: string[] = [];
  let finish!: () => void;
  const slow: Exporter = {
    name: "slow",
    export: () => {},
    close: () => new Promise<void>((resolve) => (finish = () => (order.push("slow closed"), resolve()))),
  };
  const broken: Exporter = {
    name: "broken",
    export: () => {},
    close: () => Promise.reject(new Error("collector gone")),
  };
  const warnings: string[] = [];
  const s = new Session({ sessionId: "s", exporters: [slow, broken], warn: (l) => void warnings.push(l) });
  const closing = s.close();
  assert.equal(s.close(), closing, "a second close is the same shutdown, not another");
  void closing.then(() => order.push("session closed"));
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(order, [], "close resolved before the slow exporter had shut down");
  finish();
  await closing;
  assert.deepEqual(order, ["slow closed", "session closed"]);
  assert.deepEqual(warnings, [
    "session-bridge: exporter broken failed to close (Error: collector gone); continuing",
  ]);
  assert.throws(() => s.emit("x", {}), /closed/);
});

test("unsafeLogPayloads turns the default redactor off for the log and every exporter; a given redactor still wins", () => {
  const lines: string[] = [];
  const logged: string[] = [];
  const exporters = () => [
    consoleExporter((l) => void lines.push(l)),
    structuredLogExporter({ logger: { info: (m) => void logged.push(m) } }),
  ];
  const safe = new Session({ sessionId: "s", db: ":memory:", exporters: exporters() });
  safe.emit(EventType.TOOL_CALL, { command: `echo ${TOKEN}` });
  assert.ok(!lines[0]?.includes(TOKEN) && !logged[0]?.includes(TOKEN), "a secret was logged by default");
  assert.match(String(safe.events?.query()[0]?.payload.command), /<redacted:github-token>/);

  const unsafe = new Session({
    sessionId: "s",
    db: ":memory:",
    exporters: exporters(),
    unsafeLogPayloads: true,
  });
  unsafe.emit(EventType.TOOL_CALL, { command: `echo ${TOKEN}` });
  assert.ok(
    lines[1]?.includes(TOKEN) && logged[1]?.includes(TOKEN),
    "unsafeLogPayloads did not log the payload",
  );
  assert.equal(unsafe.events?.query()[0]?.payload.command, `echo ${TOKEN}`);

  const custom = new Session({
    sessionId: "s",
    exporters: exporters(),
    unsafeLogPayloads: true,
    redact: (p) => ({ ...p, command: "[custom]" }),
  });
  custom.emit(EventType.TOOL_CALL, { command: `echo ${TOKEN}` });
  assert.equal((JSON.parse(logged[2]!) as ExportedEvent).command, "[custom]");
});

test("the structured-log exporter logs each event as one JSON document at info level, on stderr by default", () => {
  const logged: string[] = [];
  const s = new Session({
    sessionId: "s",
    exporters: [structuredLogExporter({ logger: { info: (m) => void logged.push(m) } })],
  });
  s.emit(EventType.MODEL_RESPONSE, { agent_name: "codex", input_tokens: 12, note: "é\u202e" }, "r1");
  assert.deepEqual(logged.map((m) => JSON.parse(m) as unknown), [{
    event_type: "model_response",
    session_id: "s",
    run_id: "r1",
    agent_name: "codex",
    input_tokens: 12,
    note: "é\u202e",
  }]);
  const written: string[] = [];
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string) => (written.push(chunk), true)) as typeof process.stderr.write;
  try {
    structuredLogExporter({ loggerName: "audit" }).export({
      event_type: "agent_start",
      session_id: "s",
      run_id: null,
    });
  } finally {
    process.stderr.write = write;
  }
  assert.equal(written.length, 1);
  assert.ok(written[0]?.endsWith("\n"));
  const record = JSON.parse(written[0]!) as Record<string, string>;
  assert.deepEqual([record.level, record.logger], ["info", "audit"]);
  assert.ok(!Number.isNaN(Date.parse(record.time!)));
  assert.deepEqual(JSON.parse(record.message!), { event_type: "agent_start", session_id: "s", run_id: null });
});

test("console: true adds one console line per event, as LazyBridge's console=True", () => {
  const printed: string[] = [];
  const log = console.log;
  console.log = (line: string) => void printed.push(line);
  try {
    new Session({ sessionId: "s", console: true }).emit(
      EventType.AGENT_START,
      { agent_name: "hermes" },
      "r1",
    );
  } finally {
    console.log = log;
  }
  assert.deepEqual(printed, ["[hermes] agent_start  "]);
});

test("the console line is LazyBridge 1.8.3's ConsoleExporter line: agent, type, key=value pairs as Python's str() writes them, cut at 120", (t) => {
  const py = lazybridgePython();
  if ("skip" in py) return t.skip(py.skip);
  const payloads: Record<string, unknown>[] = [
    {
      agent_name: "reviewer",
      task: "Fix the build",
      n: 3,
      ratio: 0.5,
      tiny: 0.00001,
      ok: true,
      gone: null,
      empty: "",
    },
    {
      name: "planner",
      args: { cmd: "echo 'hi'", list: [1, 2.5, false, null], quote: 'say "x"' },
      both: `it's "x"`,
    },
    { agent_name: "", text: "caf\u00e9 \u2603 ".repeat(30), nested: [{ "k\\": "tab\there" }] },
    { agent_name: ["a"], whole: 2.0, big: 1e16, neg: -7 },
  ];
  const script = String.raw`
import io, json, sys
from lazybridge.exporters import ConsoleExporter
lines = []
for payload in json.loads(sys.stdin.read()):
    out = io.StringIO()
    ConsoleExporter(stream=out).export({"event_type": "tool_call", "session_id": "s", "run_id": "r1", **payload})
    lines.append(out.getvalue().rstrip("\n"))
print(json.dumps(lines))
`;
  const r = spawnSync(py.python, ["-c", script], { input: JSON.stringify(payloads), encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  const ours: string[] = [];
  const exporter = consoleExporter((line) => void ours.push(line));
  for (const payload of payloads) {
    void exporter.export({ event_type: "tool_call", session_id: "s", run_id: "r1", ...payload });
  }
  assert.deepEqual(ours, JSON.parse(r.stdout));
});

test("a console line holds no control or bidi character a session put in a value: each is an escape, the line one line", () => {
  const lines: string[] = [];
  consoleExporter((l) => void lines.push(l)).export({
    event_type: "tool_result",
    session_id: "s",
    run_id: null,
    agent_name: "a\u001b[2J",
    result: "line\nnext\u202eevil\u0007\u009b",
  });
  assert.equal(lines.length, 1);
  assert.ok(
    !/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(lines[0]!),
    JSON.stringify(lines[0]),
  );
  assert.equal(lines[0], "[a\\x1b[2J] tool_result  result=line\\nnext\\u202eevil\\x07\\x9b");
});

test("LazyBridge 1.8.3's StructuredLogExporter logs what ours logs, with and without unsafe_log_payloads and redactors", (t) => {
  const py = lazybridgePython();
  if ("skip" in py) return t.skip(py.skip);
  const payload = { command: `curl -H 'Authorization: Bearer ${"k".repeat(24)}' ${TOKEN}`, n: 3 };
  const cases = [
    { unsafe: null, redact: "default" },
    { unsafe: true, redact: "default" },
    { unsafe: false, redact: "none" },
    { unsafe: true, redact: "custom" },
  ] as const;
  const script = String.raw`
import json, logging, sys
from lazybridge import Session, StructuredLogExporter
request = json.loads(sys.stdin.read())
captured = []
class Keep(logging.Handler):
    def emit(self, record):
        captured.append({"logger": record.name, "level": record.levelname, "message": record.getMessage()})
logger = logging.getLogger("lb-test")
logger.handlers = [Keep()]
logger.setLevel(logging.INFO)
logger.propagate = False
results = []
for case in request["cases"]:
    captured.clear()
    kwargs = {}
    if case["unsafe"] is not None:
        kwargs["unsafe_log_payloads"] = case["unsafe"]
    if case["redact"] == "none":
        kwargs["redact"] = None
    elif case["redact"] == "custom":
        kwargs["redact"] = lambda p: {**p, "command": "[custom]"}
    s = Session(exporters=[StructuredLogExporter(logger_name="lb-test")], **kwargs)
    s.emit("tool_call", request["payload"], run_id="r1")
    s.close()
    results.append(list(captured))
print(json.dumps(results))
`;
  const r = spawnSync(py.python, ["-c", script], {
    input: JSON.stringify({ cases, payload }),
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  const theirs = JSON.parse(r.stdout) as { logger: string; level: string; message: string }[][];
  const withoutSession = (message: string) => {
    const { session_id: _s, ...event } = JSON.parse(message) as ExportedEvent;
    return event;
  };
  cases.forEach((c, i) => {
    const logged: string[] = [];
    const s = new Session({
      sessionId: "ours",
      exporters: [
        structuredLogExporter({ loggerName: "lb-test", logger: { info: (m) => void logged.push(m) } }),
      ],
      ...(c.unsafe !== null ? { unsafeLogPayloads: c.unsafe } : {}),
      ...(c.redact === "none" ? { redact: null } : {}),
      ...(c.redact === "custom" ? { redact: (p) => ({ ...p, command: "[custom]" }) } : {}),
    });
    s.emit("tool_call", payload, "r1");
    void s.close();
    const label = JSON.stringify(c);
    assert.deepEqual(theirs[i]?.map((l) => [l.logger, l.level]), [["lb-test", "INFO"]], label);
    assert.deepEqual(logged.map(withoutSession), theirs[i]?.map((l) => withoutSession(l.message)), label);
  });
  // Independently of both: redacted by default, raw when unsafe or opted out, the custom redactor's otherwise.
  const commands = theirs.map((logs) => String(withoutSession(logs[0]!.message).command));
  assert.ok(commands[0]?.includes("<redacted:github-token>") && !commands[0].includes(TOKEN));
  assert.deepEqual(commands.slice(1), [payload.command, payload.command, "[custom]"]);
});

test("a redactor returning anything but an object is a redaction failure: dropped under strict, unredacted under fallback", () => {
  for (const returned of [null, "a string", 42, ["list"]]) {
    const strict = collect();
    const warnings: string[] = [];
    const s = new Session({
      sessionId: "s",
      exporters: [strict.exporter],
      redact: () => returned as unknown as Payload,
      warn: (l) => void warnings.push(l),
    });
    s.emit("tool_call", { arguments: TOKEN });
    assert.deepEqual(
      strict.seen,
      [],
      `strict drops the event the redactor returned ${JSON.stringify(returned)} for`,
    );
    assert.equal(s.droppedByRedactor, 1);
    assert.match(warnings[0]!, /redactor failed \(TypeError\); dropping the event everywhere \(strict\)/);
    const lenient = collect();
    const f = new Session({
      sessionId: "s",
      exporters: [lenient.exporter],
      redact: () => returned as unknown as Payload,
      redactOnError: "fallback",
      warn: () => {},
    });
    f.emit("tool_call", { arguments: TOKEN });
    assert.equal(
      lenient.seen[0]?.arguments,
      TOKEN,
      "fallback keeps the original payload, not what was returned",
    );
  }
});

test("an unknown redactOnError is an error at construction, as in LazyBridge", () => {
  assert.throws(
    () => new Session({ sessionId: "s", redactOnError: "lenient" as "strict" }),
    /redactOnError must be "strict", "fallback"; got "lenient"/,
  );
});

test("a Session made with nothing has LazyBridge's defaults: a session id of its own and an in-memory log usageSummary reads", () => {
  const a = new Session();
  const b = new Session();
  assert.match(a.sessionId, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.notEqual(a.sessionId, b.sessionId);
  a.emit("agent_start", { agent_name: "main" }, "r1");
  a.emit("model_response", { input_tokens: 10, output_tokens: 2, cost_usd: 0.5 }, "r1");
  assert.deepEqual(a.usageSummary().by_agent.main, { input_tokens: 10, output_tokens: 2, cost_usd: 0.5 });
  assert.equal(b.events.query().length, 0, "each session its own log");
  assert.equal(a.graph.sessionId, a.sessionId);
});

test("the graph takes a router with its routes and default, joined to the agents they lead to, and an agent's provider and model from its engine", () => {
  const s = new Session({ sessionId: "g" });
  const engine = { harness: { name: "codex" }, model: "gpt-5.5", provider: "openai" };
  s.registerAgent({ name: "fixer", engine });
  s.registerAgent({ name: "writer", engine, model: "gpt-5.5-mini" });
  s.graph.addRouter({
    id: "triage",
    name: "triage",
    routes: { bug: "fixer", docs: "writer" },
    default: "fixer",
  });
  assert.deepEqual(
    s.graph.toJSON().nodes,
    [
      {
        id: "fixer",
        name: "fixer",
        kind: "agent",
        harness: "codex",
        engineType: "Object",
        provider: "openai",
        models: ["gpt-5.5"],
      },
      {
        id: "writer",
        name: "writer",
        kind: "agent",
        harness: "codex",
        engineType: "Object",
        provider: "openai",
        models: ["gpt-5.5-mini"],
      },
      {
        id: "triage",
        kind: "router",
        name: "triage",
        routes: { bug: "fixer", docs: "writer" },
        default: "fixer",
      },
    ],
  );
  assert.deepEqual(s.graph.toJSON().edges, [
    { from: "triage", to: "fixer", kind: "routes" },
    { from: "triage", to: "writer", kind: "routes" },
  ]);
});
