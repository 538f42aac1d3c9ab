/**
 * A session as a graph: its main agent and the subagents and sidechains it kept apart, each with provider and
 * models, the tools each called, and its handoff lineage: where it came from (the ledger entry that wrote it,
 * or the handshake an earlier hop left, remembered in provenance) and where it went (ledger entries that read it).
 */
import type { Message, Session } from "../ir/schema.ts";
import { operationHistory } from "../store/ledger.ts";
import { GraphSchema } from "./graph.ts";

function agentId(harness: string, id: string, thread?: string): string {
  return `agent:${harness}:${id}${thread ? `/${thread}` : ""}`;
}

function modelsOf(messages: Message[]): string[] {
  return [...new Set(messages.flatMap((m) => (m.model ? [m.model] : [])))];
}

function addToolUses(graph: GraphSchema, agent: string, messages: Message[]): void {
  for (const m of messages) {
    for (const b of m.blocks) {
      if (b.type !== "tool_call") continue;
      graph.addTool(b.name);
      graph.addEdge({ from: agent, to: `tool:${b.name}`, kind: "uses" });
    }
  }
}

export function sessionGraph(session: Session, bridgeHome: string): GraphSchema {
  const graph = new GraphSchema();
  const { harness, id, provider } = session.meta;
  const main = agentId(harness, id);
  const models = session.meta.models.length ? session.meta.models : modelsOf(session.messages);
  graph.addAgent({
    id: main,
    name: "main",
    harness,
    sessionId: id,
    ...(provider ? { provider } : {}),
    models,
  });
  addToolUses(graph, main, session.messages);
  for (const thread of session.threads) {
    if (thread.kind !== "subagent" && thread.kind !== "sidechain") continue;
    const sub = agentId(harness, id, thread.id);
    graph.addAgent({
      id: sub,
      name: thread.id,
      role: thread.kind,
      harness,
      sessionId: id,
      ...(provider ? { provider } : {}),
      models: modelsOf(thread.messages),
    });
    graph.addEdge({ from: main, to: sub, kind: "spawns" });
    addToolUses(graph, sub, thread.messages);
  }
  let cameFromLedger = false;
  for (const entry of operationHistory(bridgeHome)) {
    const edge = { kind: "handoff" as const, at: entry.at, undone: entry.undone };
    if (entry.target.harness === harness && entry.target.id === id) {
      cameFromLedger = true;
      const from = agentId(entry.source.harness, entry.source.id);
      graph.addAgent({ id: from, name: "main", harness: entry.source.harness, sessionId: entry.source.id });
      graph.addEdge({ from, to: main, ...edge });
    } else if (entry.source.harness === harness && entry.source.id === id) {
      const to = agentId(entry.target.harness, entry.target.id);
      graph.addAgent({ id: to, name: "main", harness: entry.target.harness, sessionId: entry.target.id });
      graph.addEdge({ from: main, to, ...edge });
    }
  }
  // A handshake remembered without a ledger entry here (another machine's or another home's handoff).
  const earlier = session.earlierHandoff;
  if (earlier && !cameFromLedger) {
    const from = "agent:earlier-hop";
    graph.addAgent({ id: from, name: "earlier hop (not in this ledger)" });
    graph.addEdge({ from, to: main, kind: "handoff", at: earlier.at });
  }
  return graph;
}
