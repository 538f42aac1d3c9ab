/**
 * What session-bridge's readers use of each record kind: the real decoder runs over a harness version's captured
 * fixtures with every record wrapped in a recording proxy, and each field path it reads (or asks after with
 * `in`) is noted under the record's kind. Drift validation's own reads are not use (it reads everything).
 * `scripts/required-from-readers.ts` makes each embedded schema's `required` these paths alone, and
 * tests/drift-required.test.ts holds every schema to that rule.
 *
 * Paths are dotted from the record's root, an array's elements as `[]` (`message.content[].type`). A kind is
 * the record's type, and for Codex `response_item` / `event_msg` lines also the payload's (`response_item:
 * function_call`), since each payload type is its own schema.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { JsonlLine } from "../lib/io/jsonl.ts";
import { readJsonl } from "../lib/io/jsonl.ts";
import { DriftCollector } from "../lib/schemas/drift.ts";
import { decodeCodex } from "../lib/harnesses/codex/decode.ts";
import { decodeClaude } from "../lib/harnesses/claude-code/decode.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

/** The harnesses whose schemas are drafted from captures (Gemini CLI's are hand-written, Hermes's are rows). */
export const PROBED = ["codex", "claude-code"] as const;
export type Probed = typeof PROBED[number];

export type Usage = Map<string, Set<string>>;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null;

/** The kind a record's schema is chosen by (see lib/schemas/drift.ts callers). */
export function kindOf(harness: Probed, record: Json): string {
  const type = typeof record.type === "string" ? record.type : "";
  const payload = record.payload;
  if (harness === "codex" && (type === "response_item" || type === "event_msg") && isObject(payload)) {
    return `${type}:${String(payload.type)}`;
  }
  return type;
}

/** A record that notes each path read from it under `used`, unless validation is reading. */
function recording(value: Json, path: string, used: Set<string>, paused: () => boolean): Json {
  const child = (prop: string) => (Array.isArray(value) ? `${path}[]` : path ? `${path}.${prop}` : prop);
  return new Proxy(value, {
    get(target, prop, receiver) {
      const got: unknown = Reflect.get(target, prop, receiver);
      if (typeof prop !== "string" || (Array.isArray(target) && !/^\d+$/.test(prop))) return got;
      if (!paused()) used.add(child(prop));
      return isObject(got) ? recording(got, child(prop), used, paused) : got;
    },
    has(target, prop) {
      if (typeof prop === "string" && !paused()) used.add(child(prop));
      return Reflect.has(target, prop);
    },
  });
}

/** Every fixture file of a harness version that holds one session's records. */
function sessionFiles(harness: Probed, version: string): string[] {
  const dir = join(FIXTURES, harness, version);
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl") && !f.endsWith(".requests.jsonl") && !f.includes("subagents"))
    .map((f) => join(dir, f));
}

/** The lines with each record behind a recording proxy, noting into its kind's paths in `usage`. */
async function* probed(
  harness: Probed,
  lines: AsyncIterable<JsonlLine>,
  usage: Usage,
  paused: () => boolean,
): AsyncGenerator<JsonlLine> {
  for await (const line of lines) {
    if (!isObject(line.value)) {
      yield line;
      continue;
    }
    const kind = kindOf(harness, line.value);
    if (!usage.has(kind)) usage.set(kind, new Set());
    yield { ...line, value: recording(line.value, "", usage.get(kind)!, paused) };
  }
}

/** Each line as a batch of its own, as the Claude Code reader takes them (so each is probed as it is read). */
async function* oneByOne(lines: AsyncIterable<JsonlLine>): AsyncGenerator<JsonlLine[]> {
  for await (const line of lines) yield [line];
}

/** What the readers of `harness` use of each kind, over every fixture of `version`. */
export async function readerUsage(harness: Probed, version: string): Promise<Usage> {
  const usage: Usage = new Map();
  let validating = 0;
  const paused = () => validating > 0;
  const check = DriftCollector.prototype.check;
  DriftCollector.prototype.check = function (this: DriftCollector, ...args: Parameters<typeof check>) {
    validating++;
    try {
      return check.apply(this, args);
    } finally {
      validating--;
    }
  };
  try {
    for (const path of sessionFiles(harness, version)) {
      const tail = {};
      const lines = probed(harness, readJsonl(path, tail), usage, paused);
      if (harness === "codex") await decodeCodex({ path, lines, tail });
      else await decodeClaude({ path, lines: oneByOne(lines), tail }, []);
    }
  } finally {
    DriftCollector.prototype.check = check;
  }
  return usage;
}
