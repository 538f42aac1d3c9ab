/**
 * Engines given an event Session emit the turn's events as the binary prints them: stand-in binaries replay what
 * the real ones printed for one tool-using turn (tests/fixtures/engine-output, captured from Claude Code 2.1.328,
 * Codex 0.169.0, Gemini CLI 0.61.0, Pi 0.73.1, OpenCode 1.18.33 and Copilot CLI 1.0.102), redaction on by default, and the session's graph gets the agent and the
 * tools it called. The expectations are written from the captured lines, by hand.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { ClaudeCodeEngine, HarnessEngine } from "../lib/engines/mod.ts";
import { codex } from "../lib/harnesses/codex/index.ts";
import { geminiCli } from "../lib/harnesses/gemini-cli/index.ts";
import { pi } from "../lib/harnesses/pi/index.ts";
import { openCode } from "../lib/harnesses/opencode/index.ts";
import { copilotCli } from "../lib/harnesses/copilot-cli/index.ts";
import type { Harness } from "../lib/harnesses/types.ts";
import { type ExportedEvent, Session } from "../lib/observe/session.ts";
import { SessionRegistry } from "../lib/registry/registry.ts";
import { tempDir } from "./helpers/tmp.ts";
import { runCli } from "./helpers/cli.ts";
import { lazybridgePython } from "./helpers/lazybridge.ts";
import { receiver, spansOf } from "./helpers/otlp-receiver.ts";

const OUTPUT = fileURLToPath(new URL("./fixtures/engine-output/", import.meta.url));
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };
const TOKEN = `ghp_${"Z".repeat(36)}`;

/** A stand-in that prints `text` on stdout; with `gate`, it first prints `before`, then waits for a line on it. */
function printing(dir: string, text: string, gate?: { fifo: string; before: string }): string {
  const bin = join(dir, `bin-${Math.random().toString(36).slice(2)}`);
  writeFileSync(join(bin + ".out"), text);
  const head = gate ? `cat '${bin}.before'\nread line < '${gate.fifo}'\n` : "";
  if (gate) writeFileSync(`${bin}.before`, gate.before);
  writeFileSync(bin, `#!/bin/sh\n${head}cat '${bin}.out'\n`);
  chmodSync(bin, 0o755);
  return bin;
}

function captured(name: string): string {
  return readFileSync(join(OUTPUT, `${name}.jsonl`), "utf8");
}

type Seen = { type: string; tool?: unknown; call_id?: unknown; content?: unknown; [key: string]: unknown };

function eventsOf(bus: Session): Seen[] {
  return bus.events.query().map((e) => ({ type: e.event_type, ...e.payload }));
}

test("an engine given a Session emits Claude Code's turn as it happens: start, tool call and result, the answer, the turn's usage at Claude's own cost, finish", async () => {
  const dir = tempDir("sb-observed-");
  const fifo = join(dir, "gate");
  spawnSync("mkfifo", [fifo]);
  const lines = captured("claude-code-2.1.328").split("\n");
  const toolUse = lines.findIndex((l) => l.includes('"tool_use"'));
  // The binary stops after the tool call until the exporter has seen it: only an engine that emits while the
  // binary runs gets past this.
  const bin = printing(dir, lines.slice(toolUse + 1).join("\n"), {
    fifo,
    before: `${lines.slice(0, toolUse + 1).join("\n")}\n`,
  });
  const bus = new Session({
    exporters: [{
      name: "gate",
      export: (e: ExportedEvent) => void (e.event_type === "tool_call" && writeFileSync(fifo, "go\n")),
    }],
  });
  const registry = new SessionRegistry({ path: join(dir, "sessions.json") });
  const turn = await new ClaudeCodeEngine({ bin, cwd: dir, env, registry, session: bus, name: "coder" }).run(
    "x",
  );
  assert.equal(turn.ok, true);
  const events = eventsOf(bus);
  assert.deepEqual(events.map((e) => e.type), [
    "agent_start",
    "tool_call",
    "tool_result",
    "model_response",
    "model_response",
    "agent_finish",
  ]);
  const runs = new Set(bus.events.query().map((e) => e.run_id));
  assert.equal(runs.size, 1, "one run id for the turn");
  assert.ok(events.every((e) => e.agent_name === "coder"));
  assert.deepEqual([events[1]!.tool, events[1]!.call_id], ["Bash", "toolu_fake_23d655f5e1ee6fc9c400"]);
  assert.deepEqual(JSON.parse(String(events[1]!.arguments)), {
    command: "echo hi",
    description: "Run the requested command",
  });
  assert.deepEqual([events[2]!.tool, events[2]!.result], ["Bash", "hi"]);
  assert.equal(events[3]!.content, "Tool said: hi");
  assert.equal(events[3]!.model, "claude-opus-5-5");
  const usage = events[4]!;
  assert.deepEqual(
    [usage.input_tokens, usage.output_tokens, usage.cost_usd, usage.cost_basis],
    [5490, 86, 0.02368, "recorded"],
  );
  assert.equal(events[5]!.payload, "Tool said: hi");
  assert.equal(events[5]!.native_session_id, turn.sessionId);
  assert.deepEqual(bus.usageSummary().by_agent.coder, {
    input_tokens: 5490,
    output_tokens: 86,
    cost_usd: 0.02368,
  });
  await bus.close();
});

test("a live turn's events are redacted by default: a token in a tool's arguments and output never reaches the log or an exporter", async () => {
  const dir = tempDir("sb-observed-");
  const withSecret = captured("claude-code-2.1.328").replaceAll("echo hi", `echo ${TOKEN}`).replaceAll(
    '"content":"hi"',
    `"content":"${TOKEN}"`,
  );
  const exported: string[] = [];
  const bus = new Session({
    exporters: [{ name: "list", export: (e) => void exported.push(JSON.stringify(e)) }],
  });
  const registry = new SessionRegistry({ path: join(dir, "sessions.json") });
  await new ClaudeCodeEngine({ bin: printing(dir, withSecret), cwd: dir, env, registry, session: bus }).run(
    `use ${TOKEN}`,
  );
  const logged = JSON.stringify(bus.events.query());
  assert.ok(logged.includes("<redacted:github-token>"), logged.slice(0, 400));
  assert.ok(!logged.includes(TOKEN) && !exported.join("\n").includes(TOKEN));
  await bus.close();
});

test("the session graph fills itself: the engine is an agent (harness, engine type, model) and each tool it calls a node it uses, counted", async () => {
  const dir = tempDir("sb-observed-");
  const bus = new Session({ sessionId: "graphed" });
  const registry = new SessionRegistry({ path: join(dir, "sessions.json") });
  const engine = new ClaudeCodeEngine({
    bin: printing(dir, captured("claude-code-2.1.328")),
    cwd: dir,
    env,
    registry,
    session: bus,
    alias: "reviewer",
    model: "claude-opus-5-5",
  });
  await engine.run("one");
  await engine.run("two");
  assert.deepEqual(bus.graph.toJSON(), {
    sessionId: "graphed",
    nodes: [
      {
        id: "reviewer",
        kind: "agent",
        name: "reviewer",
        harness: "claude-code",
        engineType: "ClaudeCodeEngine",
        models: ["claude-opus-5-5"],
      },
      { id: "tool:Bash", kind: "tool", name: "Bash" },
    ],
    edges: [{ from: "reviewer", to: "tool:Bash", kind: "uses", calls: 2 }],
  });
  bus.registerToolEdge({ name: "reviewer" }, { name: "planner" }, { label: "ask" });
  bus.registerToolEdge({ name: "reviewer" }, { name: "planner" }, { label: "ask" });
  assert.deepEqual(bus.graph.toJSON().edges.at(-1), {
    from: "reviewer",
    to: "planner",
    kind: "tool",
    label: "ask",
  });
  assert.equal(bus.graph.toJSON().edges.length, 2, "the same tool edge again is no new edge");
  bus.graph.clear();
  assert.deepEqual(bus.graph.toJSON(), { sessionId: "graphed", nodes: [], edges: [] });
  await bus.close();
});

/** What a captured turn must come out as, written by hand from the captured lines: each event's type and fields. */
type Expected = [string, Record<string, unknown>][];

const RESPONSE = "model_response";
const CAPTURED_TURNS: [Harness, string, Expected][] = [
  [codex, "codex-0.169.0", [
    ["tool_call", { tool: "shell", arguments: JSON.stringify({ command: "/bin/bash -lc 'echo hi'" }) }],
    ["tool_result", { result: "hi\n" }],
    [RESPONSE, {
      content: "Tool said: Chunk ID: c7d792\nWall time: 0.0777 seconds\nProcess exited with code 0\n" +
        "Original token count: 1\nOutput:\nhi",
    }],
    [RESPONSE, { input_tokens: 14049, output_tokens: 238 }],
  ]],
  [geminiCli, "gemini-cli-0.61.0", [
    ["tool_call", { tool: "run_shell_command" }],
    ["tool_result", { result: "hi" }],
    [RESPONSE, {
      content: "Tool said: <untrusted_context>\nOutput: hi\nProcess Group PGID: 2507\n</untrusted_context>",
    }],
    [RESPONSE, { input_tokens: 540, output_tokens: 66 }],
  ]],
  // Pi: each assistant message is one model call with its usage; the first asks for bash.
  [pi, "pi-0.73.1", [
    [RESPONSE, { model: "fake-model", input_tokens: 641, output_tokens: 15 }],
    ["tool_call", { tool: "bash", call_id: "call_fake0001", arguments: '{"command":"echo hi"}' }],
    ["tool_result", { tool: "bash", call_id: "call_fake0001", result: "hi\n" }],
    [RESPONSE, { model: "fake-model", content: "Tool said: hi", input_tokens: 717, output_tokens: 4 }],
  ]],
  // OpenCode: the tool part comes whole once it ran; each step's words and tokens at its finish.
  [openCode, "opencode-1.18.33", [
    ["tool_call", { tool: "bash", call_id: "call_fake0002", arguments: '{"command":"echo hi"}' }],
    ["tool_result", { tool: "bash", call_id: "call_fake0002", result: "hi\n" }],
    [RESPONSE, { input_tokens: 2443, output_tokens: 15 }],
    [RESPONSE, { content: "Tool said: hi", input_tokens: 2519, output_tokens: 4 }],
  ]],
  // Copilot CLI prints no usage; the first message asks for bash and says nothing.
  [copilotCli, "copilot-cli-1.0.102", [
    ["tool_call", {
      tool: "bash",
      call_id: "call_fake0001",
      arguments: '{"command":"echo hi","description":"Run the command the user asked for"}',
    }],
    ["tool_result", { tool: "bash", result: "hi\n<shellId: 0 completed with exit code 0>" }],
    [RESPONSE, { model: "fake-model", content: "Tool said: hi\n<shellId: 0 completed with exit code 0>" }],
  ]],
];

for (const [harness, file, expected] of CAPTURED_TURNS) {
  test(`an engine given a Session emits ${harness.title}'s turn from its own output: tool call and result, the answers and the usage it prints`, async () => {
    const dir = tempDir("sb-observed-");
    const bus = new Session();
    const registry = new SessionRegistry({ path: join(dir, "sessions.json") });
    const engine = new HarnessEngine(harness, {
      bin: printing(dir, captured(file)),
      cwd: dir,
      env,
      registry,
      session: bus,
    });
    const turn = await engine.run("TOOL: echo hi");
    const events = eventsOf(bus);
    assert.deepEqual(events.map((e) => e.type), [
      "agent_start",
      ...expected.map(([type]) => type),
      "agent_finish",
    ]);
    expected.forEach(([, fields], i) => {
      const seen = events[i + 1]!;
      for (const [key, value] of Object.entries(fields)) {
        assert.deepEqual(seen[key], value, `${seen.type}.${key}`);
      }
    });
    assert.equal(events.at(-1)!.payload, turn.reply);
    assert.ok(turn.reply.length > 0);
    await bus.close();
  });
}

test("two engines continuing one conversation by its id in one process take turns: each turn finishes before the next starts", async () => {
  const dir = tempDir("sb-observed-");
  const bus = new Session();
  const registry = new SessionRegistry({ path: join(dir, "sessions.json") });
  const bin = printing(dir, captured("claude-code-2.1.328"));
  const engines = ["a", "b"].map((name) =>
    new ClaudeCodeEngine({ bin, cwd: dir, env, registry, session: bus, name, sessionId: "shared-id" })
  );
  await Promise.all(engines.map((e) => e.run("x")));
  const order = eventsOf(bus).filter((e) => e.type === "agent_start" || e.type === "agent_finish").map((e) =>
    `${e.type} ${e.agent_name}`
  );
  assert.deepEqual(order, ["agent_start a", "agent_finish a", "agent_start b", "agent_finish b"]);
  await bus.close();
});

const lazybridge = lazybridgePython();

/** LazyBridge 1.8.3's own EventLog and usage_summary over the events of `sessionId` in `db`. */
const LAZYBRIDGE_READS = [
  "import json, sys",
  "from lazybridge.session import Session, EventLog",
  "s = Session(db=sys.argv[1])",
  "s.session_id = sys.argv[2]",
  "s.events = EventLog(sys.argv[2], db=sys.argv[1])",
  "print(json.dumps({'summary': s.usage_summary(), 'types': [e['event_type'] for e in s.events.query()]}))",
].join("\n");

test(
  "run --events DB --otel URL: the live turn's events land in the log LazyBridge's EventLog reads, and as spans at the collector",
  { skip: "skip" in lazybridge ? lazybridge.skip : false },
  async () => {
    const python = "python" in lazybridge ? lazybridge.python : "";
    const dir = tempDir("sb-observed-");
    const db = join(dir, "events.db");
    const collector = await receiver();
    try {
      const r = await runCli(
        [
          "run",
          "claude-code",
          "--bin",
          printing(dir, captured("claude-code-2.1.328")),
          "--events",
          db,
          "--otel",
          collector.url,
          `TOOL: echo hi ${TOKEN}`,
        ],
        { LAZYBRIDGE_SESSIONS_FILE: join(dir, "sessions.json") },
        dir,
      );
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), "Tool said: hi");
      const ids = new DatabaseSync(db).prepare("SELECT DISTINCT session_id FROM events").all();
      assert.equal(ids.length, 1);
      const read = spawnSync(python, ["-c", LAZYBRIDGE_READS, db, String(ids[0]!.session_id)], {
        encoding: "utf8",
      });
      assert.equal(read.status, 0, read.stderr);
      const theirs = JSON.parse(read.stdout) as {
        summary: { total: Record<string, number> };
        types: string[];
      };
      assert.deepEqual(theirs.types, [
        "agent_start",
        "tool_call",
        "tool_result",
        "model_response",
        "model_response",
        "agent_finish",
      ]);
      assert.deepEqual(theirs.summary.total, { input_tokens: 5490, output_tokens: 86, cost_usd: 0.02368 });
      assert.ok(!readFileSync(db).includes(TOKEN), "the task's token was redacted before the log");
      const spans = spansOf(collector.received);
      assert.deepEqual(
        spans.map((s) => s.name).sort(),
        // The answer, then the turn's usage: two model responses, two chat spans.
        ["chat claude-opus-5-5", "chat claude-opus-5-5", "execute_tool Bash", "invoke_agent claude-code"],
      );
      assert.ok(!collector.received.some((q) => q.body.includes(TOKEN)), "no secret reached the collector");
    } finally {
      await collector.stop();
    }
  },
);

test("run --events with a log that cannot be opened is bad input, said in one line naming it", async () => {
  const dir = tempDir("sb-observed-");
  const r = await runCli(
    ["run", "claude-code", "--bin", printing(dir, ""), "--events", join(dir, "missing", "events.db"), "x"],
    { LAZYBRIDGE_SESSIONS_FILE: join(dir, "sessions.json") },
    dir,
  );
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--events .*missing\/events\.db: cannot open the event log/);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
});
