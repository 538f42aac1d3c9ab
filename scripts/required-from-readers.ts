/**
 * The rule for `required` in the embedded record schemas of the harnesses whose schemas are drafted from
 * captures (Codex, Claude Code): a field is required only where session-bridge's reader uses it
 * (scripts/reader-usage.ts) and every capture had it. A field the reader never reads is optional whatever the
 * captures showed: another configuration of the same version may leave it out (Codex 0.169.0's `exec`
 * sessions write `world_state` without `tools`), and its absence changes nothing session-bridge does. Types,
 * closed record and payload levels and record kinds stay as they are, so a new record type, a new field
 * there, and a known field of another type are still drift. Row schemas (SQLite tables) are not records and
 * keep theirs.
 *
 *   npx bun scripts/required-from-readers.ts          rewrites the schemas' required sets by the rule
 *   npx bun scripts/required-from-readers.ts --check  exits 1 naming every required field no reader uses
 *
 * Then `npm run generate`. tests/drift-required.test.ts checks the rule on every schema.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { PROBED, type Probed, readerUsage, type Usage } from "./reader-usage.ts";

const SCHEMAS = fileURLToPath(new URL("../schemas/", import.meta.url));

interface Node {
  type?: unknown;
  properties?: Record<string, Node>;
  required?: string[];
  items?: Node;
  anyOf?: Node[];
  oneOf?: Node[];
  $ref?: string;
  $defs?: Record<string, Node>;
  const?: unknown;
}

/** Codex lines whose payload types each have a schema of their own (a `$defs` entry, usage kind `line:type`). */
const PAYLOAD_KINDS = new Set(["response_item", "event_msg"]);

/** Whether a reader of one of `kinds` reads `path` or anything under it. */
function read(usage: Usage, kinds: readonly string[], path: string): boolean {
  return kinds.some((kind) => {
    const used = usage.get(kind);
    if (!used) return false;
    if (used.has(path)) return true;
    for (const p of used) if (p.startsWith(`${path}.`) || p.startsWith(`${path}[]`)) return true;
    return false;
  });
}

/**
 * Calls `visit` for every required field of `schema` (a record kind's), with whether its readers use it. A
 * `$defs` entry is visited once, in every place that refers to it.
 */
function eachRequired(
  schema: Node,
  kind: string,
  usage: Usage,
  visit: (node: Node, field: string, used: boolean, at: string) => void,
): void {
  // Each definition's places (kinds and paths), gathered first: a field is used if used in any of them.
  const places = new Map<string, { kinds: string[]; path: string }[]>();
  const nodes: { node: Node; kinds: string[]; path: string }[] = [];
  const walk = (node: Node, kinds: string[], path: string) => {
    if (node.$ref?.startsWith("#/$defs/")) {
      const name = node.$ref.slice("#/$defs/".length);
      const def = schema.$defs?.[name];
      const tag = def?.properties?.type?.const;
      // A Codex payload definition is its payload type's own kind.
      const own = PAYLOAD_KINDS.has(kind) && path === "payload" && typeof tag === "string"
        ? [`${kind}:${tag}`]
        : kinds;
      const seen = places.get(name);
      if (seen?.some((p) => p.path === path && p.kinds.join() === own.join())) return;
      places.set(name, [...(seen ?? []), { kinds: own, path }]);
      if (def) walk(def, own, path);
      return;
    }
    if (node.required) nodes.push({ node, kinds, path });
    for (const [name, child] of Object.entries(node.properties ?? {})) {
      walk(child, kinds, path ? `${path}.${name}` : name);
    }
    if (node.items) walk(node.items, kinds, `${path}[]`);
    for (const child of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) walk(child, kinds, path);
  };
  const kinds = PAYLOAD_KINDS.has(kind) ? [...usage.keys()].filter((k) => k.startsWith(`${kind}:`)) : [kind];
  walk(schema, [...kinds, kind], "");
  // A definition reached from several places is one node: its field counts as used if any place uses it.
  const byNode = new Map<Node, { kinds: string[]; path: string }[]>();
  for (const n of nodes) byNode.set(n.node, [...(byNode.get(n.node) ?? []), n]);
  for (const [node, at] of byNode) {
    for (const field of node.required ?? []) {
      const used = at.some((p) => read(usage, p.kinds, p.path ? `${p.path}.${field}` : field));
      visit(node, field, used, at[0]!.path);
    }
  }
}

/** Record schemas of a harness version (row schemas describe tables, not records). */
function recordSchemas(harness: Probed, version: string): { kind: string; path: string }[] {
  const dir = join(SCHEMAS, harness, version);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".schema.json") && !f.endsWith("-row.schema.json"))
    .map((f) => ({ kind: f.slice(0, -".schema.json".length), path: join(dir, f) }));
}

/**
 * The record schemas of kinds the readers met in the captures: a kind no capture holds (written from other
 * evidence) shows nothing of what the readers use, and keeps its required set.
 */
function readSchemas(harness: Probed, version: string, usage: Usage): { kind: string; path: string }[] {
  const met = new Set([...usage.keys()].map((k) => k.split(":")[0]));
  return recordSchemas(harness, version).filter((s) => met.has(s.kind));
}

/** Every harness version whose schemas the rule covers, with what its readers use. */
export async function* coveredVersions(): AsyncGenerator<{ harness: Probed; version: string; usage: Usage }> {
  for (const harness of PROBED) {
    for (const version of readdirSync(join(SCHEMAS, harness)).sort()) {
      yield { harness, version, usage: await readerUsage(harness, version) };
    }
  }
}

/** Required fields no reader uses, as `harness version kind: path.field`. */
export function requiredNotRead(harness: Probed, version: string, usage: Usage): string[] {
  const out: string[] = [];
  for (const { kind, path } of readSchemas(harness, version, usage)) {
    const schema = JSON.parse(readFileSync(path, "utf8")) as Node;
    eachRequired(schema, kind, usage, (_node, field, used, at) => {
      if (!used) out.push(`${harness} ${version} ${kind}: ${at ? `${at}.` : ""}${field}`);
    });
  }
  return out;
}

/** Rewrites a version's record schemas with only the required fields a reader uses. */
function applyRule(harness: Probed, version: string, usage: Usage): number {
  let dropped = 0;
  for (const { kind, path } of readSchemas(harness, version, usage)) {
    const schema = JSON.parse(readFileSync(path, "utf8")) as Node;
    const unread = new Map<Node, Set<string>>();
    eachRequired(schema, kind, usage, (node, field, used) => {
      if (!used) unread.set(node, (unread.get(node) ?? new Set()).add(field));
    });
    if (!unread.size) continue;
    for (const [node, fields] of unread) {
      node.required = node.required!.filter((f) => !fields.has(f));
      if (!node.required.length) delete node.required;
      dropped += fields.size;
    }
    writeFileSync(path, `${JSON.stringify(schema, null, 2)}\n`);
  }
  return dropped;
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { check: { type: "boolean" } } });
  let findings = 0;
  for await (const { harness, version, usage } of coveredVersions()) {
    if (values.check) {
      const unread = requiredNotRead(harness, version, usage);
      for (const line of unread) console.log(line);
      findings += unread.length;
    } else {console.log(
        `${harness} ${version}: ${applyRule(harness, version, usage)} required field(s) no reader uses`,
      );}
  }
  if (findings) process.exitCode = 1;
}
