/**
 * `session-bridge graph`: a captured session's agents and the tools each used (checked against what the
 * capture's raw records hold), the GraphSchema's JSON/YAML saving, and a handoff's lineage from both ends.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseYaml } from "yaml";
import { GraphSchema } from "../lib/observe/graph.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { homeFlags, runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir();

// The capture `subagent`: the main thread calls the Agent tool once, and Claude Code keeps the subagent's
// transcript in subagents/agent-a36eb314a6d531438.jsonl; every assistant record of both says claude-opus-5-5.
const SESSION = "597e1fc6-d0c1-40b8-bb55-aafeed26a320";
const MAIN = `agent:claude-code:${SESSION}`;
const SUB = `${MAIN}/agent-a36eb314a6d531438`;

test("graph: the main agent, its subagent with their model, and the tool the main agent called", async () => {
  const home = join(dir, "subagent");
  const { id } = seedClaudeHome(home, "subagent");
  assert.equal(id, SESSION);
  const r = await runCliJson(["graph", id, "--claude-home", home]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json.nodes, [
    {
      kind: "agent",
      id: MAIN,
      name: "main",
      harness: "claude-code",
      // Claude Code names no provider: an Anthropic model id without Bedrock's or Vertex's marks is Anthropic's API.
      provider: "anthropic",
      sessionId: SESSION,
      models: ["claude-opus-5-5"],
    },
    { kind: "tool", id: "tool:Agent", name: "Agent" },
    {
      kind: "agent",
      id: SUB,
      name: "agent-a36eb314a6d531438",
      role: "subagent",
      harness: "claude-code",
      provider: "anthropic",
      sessionId: SESSION,
      models: ["claude-opus-5-5"],
    },
  ]);
  assert.deepEqual(r.json.edges, [
    { from: MAIN, to: "tool:Agent", kind: "uses", calls: 1 },
    { from: MAIN, to: SUB, kind: "spawns" },
  ]);

  const mermaid = await runCli(["graph", id, "--format", "mermaid", "--claude-home", home]);
  assert.equal(mermaid.code, 0, mermaid.stderr);
  assert.equal(
    mermaid.stdout,
    [
      "flowchart LR",
      '  n0("main<br/>claude-code · anthropic<br/>claude-opus-5-5")',
      '  n1["Agent"]',
      '  n2("agent-a36eb314a6d531438<br/>claude-code · anthropic<br/>claude-opus-5-5")',
      '  n0 -->|"uses ×1"| n1',
      '  n0 -->|"spawns"| n2',
      "",
    ].join("\n"),
  );

  const yaml = await runCli(["graph", id, "--format", "yaml", "--claude-home", home]);
  assert.equal(yaml.code, 0, yaml.stderr);
  assert.deepEqual(parseYaml(yaml.stdout), { nodes: r.json.nodes, edges: r.json.edges });

  const bad = await runCli(["graph", id, "--format", "dot", "--claude-home", home]);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--format must be one of json, yaml, mermaid/);
});

test("GraphSchema: router nodes, repeated tool uses counted, saved as JSON or YAML by extension", () => {
  const graph = new GraphSchema();
  graph.addRouter({ id: "router:triage", name: "triage" });
  graph.addAgent({ id: "agent:a", name: "a", provider: "anthropic", models: ["m"] });
  graph.addTool("Bash");
  graph.addEdge({ from: "router:triage", to: "agent:a", kind: "routes" });
  graph.addEdge({ from: "agent:a", to: "tool:Bash", kind: "uses" });
  graph.addEdge({ from: "agent:a", to: "tool:Bash", kind: "uses" });
  const expected = {
    nodes: [
      { kind: "router", id: "router:triage", name: "triage" },
      { kind: "agent", id: "agent:a", name: "a", provider: "anthropic", models: ["m"] },
      { kind: "tool", id: "tool:Bash", name: "Bash" },
    ],
    edges: [
      { from: "router:triage", to: "agent:a", kind: "routes" },
      { from: "agent:a", to: "tool:Bash", kind: "uses", calls: 2 },
    ],
  };
  assert.deepEqual(graph.toJSON(), expected);
  graph.save(join(dir, "g.json"));
  graph.save(join(dir, "g.yml"));
  assert.deepEqual(JSON.parse(readFileSync(join(dir, "g.json"), "utf8")), expected);
  assert.deepEqual(parseYaml(readFileSync(join(dir, "g.yml"), "utf8")), expected);
  assert.throws(() => graph.save(join(dir, "g.txt")), /saved as \.json, \.yaml or \.yml/);
  assert.throws(() => graph.addEdge({ from: "agent:a", to: "agent:nobody", kind: "spawns" }), /unknown node/);
});

test("graph after a handoff: the source shows where it went, the target where it came from, undo marked", async () => {
  const claudeHome = join(dir, "lineage-claude");
  const codexHome = join(dir, "lineage-codex");
  const bridgeHome = join(dir, "lineage-bridge");
  makeCodexHome(codexHome);
  const source = seedClaudeHome(claudeHome, "subagent");
  const env = { SESSION_BRIDGE_HOME: bridgeHome };
  const homes = homeFlags({ "claude-code": claudeHome, codex: codexHome }, dir);
  const handoff = await runCliJson(["handoff", source.id, "--to", "codex", "--cwd", dir, ...homes], env);
  assert.equal(handoff.code, 0, handoff.stderr);
  const target = handoff.json.target as { id: string };
  const TARGET = `agent:codex:${target.id}`;

  const from = await runCliJson(["graph", source.id, ...homes], env);
  assert.equal(from.code, 0, from.stderr);
  const went = (from.json.edges as { kind: string }[]).filter((e) => e.kind === "handoff");
  assert.equal(went.length, 1);
  assert.deepEqual({ ...went[0], at: undefined }, {
    from: MAIN,
    to: TARGET,
    kind: "handoff",
    at: undefined,
    undone: false,
  });
  assert.ok((from.json.nodes as { id: string }[]).some((n) => n.id === TARGET));

  const to = await runCliJson(["graph", target.id, "--from", "codex", ...homes], env);
  assert.equal(to.code, 0, to.stderr);
  const came = (to.json.edges as { kind: string; from: string; to: string }[]).filter((e) =>
    e.kind === "handoff"
  );
  assert.equal(came.length, 1);
  assert.equal(came[0]?.from, MAIN);
  assert.equal(came[0]?.to, TARGET);
  const main = (to.json.nodes as { id: string; harness?: string; name: string }[]).find((n) =>
    n.id === TARGET
  );
  assert.equal(main?.name, "main");
  assert.equal(main?.harness, "codex");

  const undo = await runCli(["undo", "--last", ...homes], env);
  assert.equal(undo.code, 0, undo.stderr);
  const after = await runCliJson(["graph", source.id, ...homes], env);
  const undone = (after.json.edges as { kind: string; undone?: boolean }[]).filter((e) =>
    e.kind === "handoff"
  );
  assert.deepEqual(undone.map((e) => e.undone), [true]);
});
