/**
 * The OpenTelemetry exporter against a real OTLP/HTTP receiver on 127.0.0.1: what a collector gets is spans with
 * the GenAI attributes, nested runs under their parent run's span, no span left open at close, and no secret.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { EventType } from "../lib/observe/event-log.ts";
import { otelExporter, tracesUrl } from "../lib/observe/otel.ts";
import { Session } from "../lib/observe/session.ts";
import { jsonLines, seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { emptyHomes, runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { attr, receiver, spansOf } from "./helpers/otlp-receiver.ts";

const SECRET = `sk-ant-api03-${"Zq7".repeat(30)}`;

/** A Claude Code session as the replay gives it: a turn with a tool call and a subagent run nested in it. */
function replay(bus: Session): void {
  const t0 = 1_764_580_000;
  const agent = { agent_name: "claude-code", provider: "anthropic", model: "claude-sonnet-4-5" };
  bus.emit(EventType.AGENT_START, { ...agent, task: "fix the build", ts: t0 }, "s1:turn-1");
  bus.emit(EventType.MODEL_RESPONSE, {
    agent_name: "claude-code",
    model: "claude-sonnet-4-5",
    input_tokens: 1200,
    output_tokens: 345,
    cache_read_tokens: 1000,
    cache_write_tokens: 0,
    ts: t0 + 2,
  }, "s1:turn-1");
  bus.emit(EventType.TOOL_CALL, {
    tool: "Bash",
    call_id: "toolu_01",
    arguments: JSON.stringify({ command: `ANTHROPIC_API_KEY=${SECRET} npm test` }),
    ts: t0 + 3,
  }, "s1:turn-1");
  bus.emit(EventType.TOOL_ERROR, { call_id: "toolu_01", error: "exit 1", ts: t0 + 4 }, "s1:turn-1");
  bus.emit(EventType.AGENT_START, { ...agent, parent_run_id: "s1:turn-1", ts: t0 + 5 }, "s1:subagent-1");
  bus.emit(
    EventType.MODEL_RESPONSE,
    { ...agent, input_tokens: 50, output_tokens: 7, ts: t0 + 6 },
    "s1:subagent-1",
  );
  // Left open: the session ended mid-tool-call, as an interrupted harness leaves it.
  bus.emit(EventType.TOOL_CALL, { tool: "Read", call_id: "toolu_02", ts: t0 + 7 }, "s1:subagent-1");
  bus.emit(EventType.AGENT_FINISH, { ...agent, ts: t0 + 8 }, "s1:turn-1");
}

test("a collector receives the session's spans with GenAI attributes, nested runs as children, no secret", async () => {
  const collector = await receiver();
  try {
    // The replay's times ride in the payload here; the events command hands them over the same way (timeOf).
    const exporter = otelExporter({
      url: collector.url,
      timeOf: (e) => typeof e.ts === "number" ? e.ts : undefined,
    });
    const bus = new Session({ sessionId: "s1", exporters: [exporter] });
    replay(bus);
    bus.close();
    await exporter.close();

    assert.ok(collector.received.length > 0, "the collector got no request");
    for (const r of collector.received) {
      assert.equal(r.path, "/v1/traces");
      assert.match(String(r.headers["content-type"]), /application\/json/);
      assert.ok(!r.body.includes(SECRET.slice(0, 24)), "the API key reached the collector");
    }
    const spans = spansOf(collector.received);
    const byName = (name: string) => spans.filter((s) => s.name === name);
    assert.deepEqual(spans.map((s) => s.name).sort(), [
      "chat claude-sonnet-4-5",
      "chat claude-sonnet-4-5",
      "execute_tool Bash",
      "execute_tool Read",
      "invoke_agent claude-code",
      "invoke_agent claude-code",
    ]);

    const [turn, subagent] = byName("invoke_agent claude-code").sort((a, b) =>
      a.startTimeUnixNano.localeCompare(b.startTimeUnixNano)
    );
    assert.equal(turn?.parentSpanId ?? "", "", "a top-level run is a root span");
    assert.equal(attr(turn, "gen_ai.operation.name"), "invoke_agent");
    assert.equal(attr(turn, "gen_ai.agent.name"), "claude-code");
    assert.equal(attr(turn, "gen_ai.request.model"), "claude-sonnet-4-5");
    assert.equal(attr(turn, "gen_ai.conversation.id"), "s1");
    assert.equal(subagent?.parentSpanId, turn?.spanId, "the nested run is a child of its parent run");
    assert.equal(subagent?.traceId, turn?.traceId);
    assert.equal(attr(subagent, "session_bridge.run_id"), "s1:subagent-1");

    const [chat, subChat] = byName("chat claude-sonnet-4-5").sort((a, b) =>
      a.startTimeUnixNano.localeCompare(b.startTimeUnixNano)
    );
    assert.equal(chat?.parentSpanId, turn?.spanId);
    assert.equal(attr(chat, "gen_ai.operation.name"), "chat");
    assert.equal(attr(chat, "gen_ai.system"), "anthropic");
    assert.equal(attr(chat, "gen_ai.usage.input_tokens"), 1200);
    assert.equal(attr(chat, "gen_ai.usage.output_tokens"), 345);
    assert.equal(attr(chat, "gen_ai.usage.cache_read.input_tokens"), 1000);
    assert.equal(subChat?.parentSpanId, subagent?.spanId);
    assert.equal(attr(subChat, "gen_ai.usage.output_tokens"), 7);

    const [bash] = byName("execute_tool Bash");
    assert.equal(bash?.parentSpanId, turn?.spanId);
    assert.equal(attr(bash, "gen_ai.operation.name"), "execute_tool");
    assert.equal(attr(bash, "gen_ai.tool.name"), "Bash");
    assert.equal(attr(bash, "gen_ai.tool.call.id"), "toolu_01");
    assert.equal(bash?.status?.code, 2, "a failed tool call is an error span");
    assert.match(
      String(attr(bash, "gen_ai.tool.call.arguments")),
      /ANTHROPIC_API_KEY=<redacted:[a-z-]+> npm test/,
    );
    // Span times are when the harness did it, not when it was replayed.
    assert.equal(bash?.startTimeUnixNano, `${1_764_580_003}000000000`);

    const [read] = byName("execute_tool Read");
    assert.equal(read?.parentSpanId, subagent?.spanId);
    assert.ok(BigInt(read!.endTimeUnixNano) > 0n, "the span left open was ended at close");
    assert.ok(
      BigInt(subagent!.endTimeUnixNano) >= BigInt(read!.endTimeUnixNano),
      "no child outlives its run",
    );
  } finally {
    await collector.stop();
  }
});

test("await session.close() alone delivers the spans: the bus waits for the exporter's shutdown", async () => {
  const collector = await receiver();
  try {
    const bus = new Session({ sessionId: "s4", exporters: [otelExporter({ url: collector.url })] });
    bus.emit(EventType.AGENT_START, { agent_name: "codex", provider: "openai", model: "gpt-5" }, "r1");
    bus.emit(EventType.MODEL_RESPONSE, { agent_name: "codex", model: "gpt-5", output_tokens: 9 }, "r1");
    await bus.close();
    const spans = spansOf(collector.received);
    assert.deepEqual(spans.map((s) => s.name).sort(), ["chat gpt-5", "invoke_agent codex"]);
    assert.equal(attr(spans.find((s) => s.name === "chat gpt-5"), "gen_ai.system"), "openai");
    await bus.close();
    assert.equal(spansOf(collector.received).length, 2, "a second close sends nothing again");
  } finally {
    await collector.stop();
  }
});

test("await using a session delivers the spans of a batched bus", async () => {
  const collector = await receiver();
  try {
    {
      await using bus = new Session({
        sessionId: "s5",
        exporters: [otelExporter({ url: collector.url })],
        batched: true,
      });
      await bus.emit(EventType.AGENT_START, { agent_name: "hermes" }, "r1");
    }
    assert.deepEqual(spansOf(collector.received).map((s) => s.name), ["invoke_agent hermes"]);
  } finally {
    await collector.stop();
  }
});

test("the standard OTEL_EXPORTER_OTLP_* variables choose the endpoint and add headers", async () => {
  const collector = await receiver();
  const saved = [
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
    "OTEL_EXPORTER_OTLP_HEADERS",
  ]
    .map((name) => [name, process.env[name]] as const);
  try {
    process.env.OTEL_EXPORTER_OTLP_ENDPOINT = "http://127.0.0.1:9/unused";
    process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = `${collector.url}/custom/traces`;
    process.env.OTEL_EXPORTER_OTLP_HEADERS = "x-team=observability";
    const exporter = otelExporter();
    const bus = new Session({ sessionId: "s2", exporters: [exporter] });
    bus.emit(EventType.AGENT_START, { agent_name: "codex", provider: "openai" }, "r1");
    bus.close();
    await exporter.close();
    assert.deepEqual(collector.received.map((r) => r.path), ["/custom/traces"]);
    assert.equal(collector.received[0]?.headers["x-team"], "observability");
    assert.equal(spansOf(collector.received)[0]?.name, "invoke_agent codex");
  } finally {
    for (const [name, value] of saved) {
      value === undefined ? delete process.env[name] : process.env[name] = value;
    }
    await collector.stop();
  }
});

test("a collector that cannot be reached makes close reject, naming the failure", async () => {
  const collector = await receiver();
  await collector.stop();
  const exporter = otelExporter({ url: collector.url });
  exporter.export({ event_type: "agent_start", session_id: "s3", run_id: "r1", agent_name: "hermes" });
  await assert.rejects(exporter.close(), /OpenTelemetry export failed/);
});

test("a collector base URL gets the standard traces path; a full traces URL is kept", () => {
  assert.equal(tracesUrl("http://localhost:4318"), "http://localhost:4318/v1/traces");
  assert.equal(tracesUrl("http://localhost:4318/otlp/"), "http://localhost:4318/otlp/v1/traces");
  assert.equal(tracesUrl("http://localhost:4318/v1/traces"), "http://localhost:4318/v1/traces");
});

test("events --otel: a real Claude session with a subagent reaches a collector as nested GenAI spans, its API key redacted", async () => {
  const root = tempDir("sb-otel-");
  const claudeHome = join(root, "claude");
  const seeded = seedClaudeHome(claudeHome, "subagent");
  // The typed prompt carries a key, as a user pasting a command would.
  const prompt = "Please delegate this. AGENT: go";
  writeFileSync(
    seeded.path,
    readFileSync(seeded.path, "utf8").replaceAll(prompt, `${prompt} ANTHROPIC_API_KEY=${SECRET}`),
  );
  // The main thread's records and the subagent's, each response's usage counted once per message id.
  const subagents = join(dirname(seeded.path), seeded.id, "subagents");
  const files = readdirSync(subagents).filter((f) => f.endsWith(".jsonl")).map((f) => join(subagents, f));
  const raw = [seeded.path, ...files].flatMap((f) => jsonLines(f)) as {
    type?: string;
    message?: { id?: string; usage?: Record<string, number> };
  }[];
  const outputTokens = new Map<string, number>();
  for (const r of raw) {
    if (r.type === "assistant" && r.message?.id && r.message.usage) {
      outputTokens.set(r.message.id, r.message.usage.output_tokens ?? 0);
    }
  }
  const collector = await receiver();
  try {
    const r = await runCli(["events", seeded.id, ...emptyHomes(root, claudeHome), "--otel", collector.url]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "", "--otel names the output: no console lines");
    for (const received of collector.received) assert.ok(!received.body.includes(SECRET.slice(0, 24)));
    const spans = spansOf(collector.received);
    const agents = spans.filter((s) => attr(s, "gen_ai.operation.name") === "invoke_agent");
    const turn = agents.find((s) => String(attr(s, "session_bridge.run_id")).endsWith(":turn-1"));
    const nested = agents.filter((s) => !String(attr(s, "session_bridge.run_id")).includes(":turn-"));
    assert.ok(turn, "the first turn is a run span");
    assert.match(String(attr(turn, "session_bridge.task")), /ANTHROPIC_API_KEY=<redacted:[a-z-]+>/);
    assert.equal(attr(turn, "gen_ai.agent.name"), "claude-code");
    assert.equal(nested.length, 1, "the subagent is a run of its own");
    assert.equal(
      nested[0]?.parentSpanId,
      turn?.spanId,
      "the subagent's run is a child of the turn it ran in",
    );
    const chats = spans.filter((s) => attr(s, "gen_ai.operation.name") === "chat");
    assert.ok(chats.every((s) => typeof attr(s, "gen_ai.request.model") === "string"));
    // Claude Code names no provider; its claude-* ids without Bedrock's or Vertex's marks are Anthropic's API.
    for (const s of [...agents, ...chats]) assert.equal(attr(s, "gen_ai.system"), "anthropic", s.name);
    const output = chats.reduce((sum, s) => sum + Number(attr(s, "gen_ai.usage.output_tokens") ?? 0), 0);
    assert.equal(output, [...outputTokens.values()].reduce((a, b) => a + b, 0));
    const ids = new Set(spans.map((s) => s.spanId));
    for (const s of spans) {
      assert.ok(!s.parentSpanId || ids.has(s.parentSpanId), `${s.name} has no parent span`);
    }
    const tools = spans.filter((s) => attr(s, "gen_ai.operation.name") === "execute_tool");
    assert.ok(tools.length > 0 && tools.every((s) => s.parentSpanId), "tool spans sit under their run");
  } finally {
    await collector.stop();
  }
});

test("events --otel: a real Codex session's spans name the provider its session_meta records as gen_ai.system", async () => {
  const root = tempDir("sb-otel-codex-");
  const codexHome = join(root, "codex");
  makeCodexHome(codexHome);
  const thread = seedCodexThread(codexHome, "0.169.0", "tool-call");
  const meta = jsonLines(thread.path).find((r) => (r as { type?: string }).type === "session_meta") as {
    payload: { model_provider: string };
  };
  const collector = await receiver();
  try {
    const homes = [
      "--claude-home",
      join(root, "c"),
      "--codex-home",
      codexHome,
      "--hermes-home",
      join(root, "h"),
    ];
    const r = await runCli(["events", thread.id, "--from", "codex", ...homes, "--otel", collector.url]);
    assert.equal(r.code, 0, r.stderr);
    const spans = spansOf(collector.received).filter((s) =>
      ["invoke_agent", "chat"].includes(String(attr(s, "gen_ai.operation.name")))
    );
    assert.ok(spans.some((s) => attr(s, "gen_ai.operation.name") === "chat"), "no chat span");
    for (const s of spans) {
      assert.equal(attr(s, "gen_ai.system"), meta.payload.model_provider, s.name);
      assert.equal(attr(s, "gen_ai.provider.name"), meta.payload.model_provider, s.name);
    }
  } finally {
    await collector.stop();
  }
});

test("a Claude Code session on Bedrock or Vertex names that provider, as its model ids show", async () => {
  const root = tempDir("sb-provider-");
  for (
    const [model, provider] of [
      ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", "aws.bedrock"],
      ["claude-sonnet-4-5@20250929", "gcp.vertex_ai"],
    ] as const
  ) {
    const home = join(root, provider);
    const seeded = seedClaudeHome(home, "edit-tool");
    writeFileSync(
      seeded.path,
      readFileSync(seeded.path, "utf8").replaceAll('"claude-opus-5-5"', JSON.stringify(model)),
    );
    const r = await runCliJson(["events", seeded.id, ...emptyHomes(root, home)]);
    assert.equal(r.code, 0, r.stderr);
    const starts = (r.json.events as { event_type: string; provider?: string }[]).filter((e) =>
      e.event_type === "agent_start"
    );
    assert.ok(starts.length > 0);
    for (const e of starts) assert.equal(e.provider, provider, model);
  }
});

test("events --otel to a collector that cannot be reached fails (exit 1), naming the failure once", async () => {
  const root = tempDir("sb-otel-down-");
  const claudeHome = join(root, "claude");
  const seeded = seedClaudeHome(claudeHome, "edit-tool");
  const collector = await receiver();
  await collector.stop();
  const r = await runCli(["events", seeded.id, ...emptyHomes(root, claudeHome), "--otel", collector.url]);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stdout, "");
  assert.equal(r.stderr.match(/OpenTelemetry export failed/g)?.length, 1, r.stderr);
});
