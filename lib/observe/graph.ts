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
}

/** `uses`: an agent called a tool; `spawns`: an agent started a subagent; `handoff`: a session moved on. */
export type EdgeKind = "uses" | "spawns" | "handoff" | "routes";

export interface GraphEdge {
  from: string;
  to: string;
  kind: EdgeKind;
  /** `uses`: how many calls. */
  calls?: number;
  /** `handoff`: when, and whether it was undone since. */
  at?: string;
  undone?: boolean;
}

export interface GraphJson {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export class GraphSchema {
  readonly #nodes = new Map<string, GraphNode>();
  readonly #edges: GraphEdge[] = [];

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

  addRouter(node: Omit<GraphNode, "kind">): GraphNode {
    return this.addNode({ kind: "router", ...node });
  }

  addTool(name: string): GraphNode {
    return this.addNode({ id: `tool:${name}`, kind: "tool", name });
  }

  /** Adds an edge; a repeated `uses` edge counts one more call instead. */
  addEdge(edge: GraphEdge): void {
    for (const end of [edge.from, edge.to]) {
      if (!this.#nodes.has(end)) throw new Error(`graph edge names an unknown node ${end}`);
    }
    if (edge.kind === "uses") {
      const same = this.#edges.find((e) => e.kind === "uses" && e.from === edge.from && e.to === edge.to);
      if (same) {
        same.calls = (same.calls ?? 0) + (edge.calls ?? 1);
        return;
      }
      this.#edges.push({ ...edge, calls: edge.calls ?? 1 });
      return;
    }
    this.#edges.push(edge);
  }

  toJSON(): GraphJson {
    return { nodes: [...this.#nodes.values()], edges: [...this.#edges] };
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
        : edge.kind;
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
