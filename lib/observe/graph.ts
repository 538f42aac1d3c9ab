/**
 * GraphSchema: who did what in a run, as LazyBridge's graph does it: agent, router and tool nodes joined by
 * typed edges, as plain data (`toJSON`), YAML, or a Mermaid flowchart, saved as JSON or YAML by file extension.
 */
import { writeFileSync } from "node:fs";
import { extname } from "node:path";
import { stringify as yamlStringify } from "yaml";
import { InputError } from "../errors.ts";

export type NodeKind = "agent" | "router" | "tool";

export interface GraphNode {
  id: string;
  kind: NodeKind;
  name: string;
  /** Agents: the harness that ran it, its provider and the models it answered with. */
  harness?: string;
  sessionId?: string;
  provider?: string;
  models?: string[];
  /** Agents kept apart from the main thread: `subagent` or `sidechain`. */
  role?: string;
  /** Agents: the kind of engine that runs it (its class, as LazyBridge's `engine_type`). */
  engineType?: string;
  /** Routers: the agent each route leads to, and the one taken when none matches. */
  routes?: Record<string, string>;
  default?: string;
}

/** What an engine tells the graph about itself (lib/engines' HarnessEngine is one). */
export interface EngineLike {
  readonly harness: { readonly name: string };
  readonly model?: string | undefined;
  readonly provider?: string | undefined;
}

/** An agent as LazyBridge's graph takes it: a name (its node id unless `id` is given) and its engine. */
export interface AgentLike {
  name: string;
  id?: string;
  engine?: EngineLike;
  provider?: string;
  model?: string;
}

/**
 * `uses`: an agent called a tool; `spawns`: an agent started a subagent; `handoff`: a session moved on;
 * `tool`: an agent called another agent as a tool (LazyBridge's `EdgeType.TOOL`); `routes`: a router's branch.
 */
export type EdgeKind = "uses" | "spawns" | "handoff" | "routes" | "tool";

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  /** `uses`: how many calls. */
  calls?: number;
  /** `handoff`: when, and whether it was undone since. */
  at?: string;
  undone?: boolean;
  /** `tool`: what the call was, when said. */
  label?: string;
}

export interface GraphJson {
  /** The event session the graph belongs to, when it belongs to one. */
  sessionId?: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export class GraphSchema {
  readonly #nodes = new Map<string, GraphNode>();
  readonly #edges: GraphEdge[] = [];
  readonly #edgeByKey = new Map<string, GraphEdge>();

  /** `sessionId`: the event session whose agents the graph shows (kept by `clear()`, as LazyBridge's). */
  constructor(readonly sessionId = "") {}

  /** Drops every node and edge (a Session reused for another run starts its graph empty). */
  clear(): void {
    this.#nodes.clear();
    this.#edges.length = 0;
    this.#edgeByKey.clear();
  }

  /**
   * An agent from what it runs on, as LazyBridge's `add_agent`: provider and model given on the agent win over
   * its engine's; the engine's harness and class are recorded.
   */
  addAgentFrom(agent: AgentLike): GraphNode {
    const { engine } = agent;
    const model = agent.model ?? engine?.model;
    const provider = agent.provider ?? engine?.provider;
    return this.addAgent({
      id: agent.id ?? agent.name,
      name: agent.name,
      ...(engine ? { harness: engine.harness.name, engineType: engine.constructor.name } : {}),
      ...(provider ? { provider } : {}),
      models: model ? [model] : [],
    });
  }

  /** Adds a node, or returns the one already there under that id. */
  addNode(node: GraphNode): GraphNode {
    const existing = this.#nodes.get(node.id);
    if (existing) return existing;
    this.#nodes.set(node.id, node);
    return node;
  }

  addAgent(node: Omit<GraphNode, "kind">): GraphNode {
    return this.addNode({ kind: "agent", ...node });
  }

  /** A router, with the agent each route leads to and the default one; an edge to each of them. */
  addRouter(node: Omit<GraphNode, "kind">): GraphNode {
    const router = this.addNode({ kind: "router", ...node });
    const targets = new Set([...Object.values(node.routes ?? {}), ...(node.default ? [node.default] : [])]);
    for (const to of targets) if (this.#nodes.has(to)) this.addEdge({ from: router.id, to, kind: "routes" });
    return router;
  }

  addTool(name: string): GraphNode {
    return this.addNode({ id: `tool:${name}`, kind: "tool", name });
  }

  /**
   * Adds an edge; a repeated `uses` edge counts one more call instead, and any other edge given again is no
   * new edge (as LazyBridge's add_edge). Found by key, so a run of many calls stays linear.
   */
  addEdge(edge: GraphEdge): void {
    for (const end of [edge.from, edge.to]) {
      if (!this.#nodes.has(end)) throw new Error(`graph edge names an unknown node ${end}`);
    }
    const key = JSON.stringify(
      edge.kind === "uses"
        ? [edge.kind, edge.from, edge.to]
        : [edge.kind, edge.from, edge.to, edge.label, edge.at],
    );
    const same = this.#edgeByKey.get(key);
    if (same) {
      if (edge.kind === "uses") same.calls = (same.calls ?? 0) + (edge.calls ?? 1);
      return;
    }
    const added = edge.kind === "uses" ? { ...edge, calls: edge.calls ?? 1 } : edge;
    this.#edgeByKey.set(key, added);
    this.#edges.push(added);
  }

  toJSON(): GraphJson {
    return {
      ...(this.sessionId ? { sessionId: this.sessionId } : {}),
      nodes: [...this.#nodes.values()],
      edges: [...this.#edges],
    };
  }

  toYAML(): string {
    return yamlStringify(this.toJSON());
  }

  /** A Mermaid flowchart: agents as rounded boxes, routers as diamonds, tools as boxes. */
  toMermaid(): string {
    const ids = new Map([...this.#nodes.keys()].map((id, i) => [id, `n${i}`]));
    const lines = ["flowchart LR"];
    for (const node of this.#nodes.values()) {
      const label = mermaidText(nodeLabel(node));
      const id = ids.get(node.id)!;
      lines.push(
        node.kind === "agent"
          ? `  ${id}("${label}")`
          : node.kind === "router"
          ? `  ${id}{"${label}"}`
          : `  ${id}["${label}"]`,
      );
    }
    for (const edge of this.#edges) {
      const label = edge.kind === "uses"
        ? `uses ×${edge.calls ?? 1}`
        : edge.kind === "handoff"
        ? `handoff${edge.undone ? " (undone)" : ""}`
        : edge.label ?? edge.kind;
      const arrow = edge.kind === "handoff" ? "==>" : "-->";
      lines.push(`  ${ids.get(edge.from)} ${arrow}|"${mermaidText(label)}"| ${ids.get(edge.to)}`);
    }
    return `${lines.join("\n")}\n`;
  }

  /** Saves as JSON (`.json`) or YAML (`.yaml`, `.yml`), chosen by the file's extension. */
  save(path: string): void {
    const ext = extname(path).toLowerCase();
    if (ext === ".json") writeFileSync(path, `${JSON.stringify(this.toJSON(), null, 2)}\n`);
    else if (ext === ".yaml" || ext === ".yml") writeFileSync(path, this.toYAML());
    else throw new InputError(`${path}: a graph is saved as .json, .yaml or .yml`);
  }
}

function nodeLabel(node: GraphNode): string {
  if (node.kind !== "agent") return node.name;
  const where = [node.harness, node.provider].filter(Boolean).join(" · ");
  const models = node.models?.length ? `\n${node.models.join(", ")}` : "";
  return `${node.name}${where ? `\n${where}` : ""}${models}`;
}

/** Mermaid labels are quoted strings: quotes and markup become entities, newlines line breaks. */
function mermaidText(text: string): string {
  return text.replace(/[#"<>]/g, (c) => `#${c.codePointAt(0)};`).replace(/\n/g, "<br/>");
}
