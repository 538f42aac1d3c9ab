/**
 * Drafts the embedded record schemas from captured harness files: reads JSONL records, groups them by kind and
 * writes one draft-07 JSON Schema per kind to `schemas/<harness>/<version>/<kind>.schema.json` (what
 * `lib/schemas/drift.ts` compiles and `scripts/generate.ts` turns into types). A dev tool: review its output.
 *
 *   npx bun scripts/infer-schemas.ts --harness claude-code --version 2.1.328 --kind-field type <files...>
 *   npx bun scripts/infer-schemas.ts --harness codex --version 0.169.0 --kind-field type <rollouts...>
 *   npx bun scripts/infer-schemas.ts --harness codex --version 0.169.0 --table-info <threads.schema.json>
 *   npx bun scripts/infer-schemas.ts --harness hermes --version 0.19.0 --table-info <schema.json> --table sessions \
 *     --kind sessions-row
 *   npx bun scripts/infer-schemas.ts --harness hermes --version 0.14.0 --kind-field role --kind-prefix transcript- <jsonl>
 *   npx bun scripts/infer-schemas.ts --harness hermes --version 0.19.0 --whole-file --kind snapshot <session_*.json>
 *
 * Gemini CLI's schemas (schemas/gemini-cli/) are hand-written: its line kinds (metadata, message, `$set`,
 * `$rewindTo`) share no tag field to group by, and its required sets are the reader's.
 *
 * Options: `--out <dir>` (default `schemas/<harness>/<version>`), `--kind <name>` (the kind written from
 * `--table-info` or `--whole-file`, default `threads-row`), `--table <name>` (pick one table from a file holding
 * `table_info` of several), `--kind-prefix <p>` (prefix the kind read from `--kind-field`), `--whole-file` (each
 * file is one JSON document of kind `--kind`, not JSONL), `--dry-run` (print instead of writing), `--force` (also
 * replace schemas whose `$comment` marks them hand-written).
 *
 * Rules: the record itself (and, for codex, its `payload`) is closed (`additionalProperties: false`), so a new
 * field is drift; nested objects are described one level deep and left open; `required` lists the fields present
 * in every sample (then cut by scripts/required-from-readers.ts to the ones a reader uses); a field only ever null is left untyped. Sample values never reach a schema: the only literals are the record kind and the closed
 * type-tag sets of the harness preset below. Objects whose keys are not identifiers (paths, model names) are
 * written as maps. Codex `response_item` / `event_msg` payloads become one `$defs` entry per payload type
 * behind a `oneOf`, so an unknown payload type fails validation.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };
type JsonType = "null" | "boolean" | "integer" | "number" | "string" | "array" | "object";
type Scalar = string | number | boolean | null;

/** The subset of draft-07 this tool writes. */
export interface Schema {
  $schema?: string;
  $id?: string;
  $comment?: string;
  title?: string;
  description?: string;
  type?: JsonType | JsonType[];
  const?: Json;
  enum?: Scalar[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  discriminator?: { propertyName: string };
  /** json-schema-to-typescript: the TypeScript type to emit (ajv ignores it). */
  tsType?: string;
  $ref?: string;
  $defs?: Record<string, Schema>;
}

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const HAND_WRITTEN = "hand-written";
const DRAFTED = "Drafted by scripts/infer-schemas.ts; re-run it (or change its presets) rather than editing.";
/** Objects below this nesting level are described by their type alone. */
const DESCRIBED_LEVELS = 1;
/** A field only ever null in the samples says nothing about its real type: left open rather than guessed. */
const NULL_ONLY = "Only null in the samples: its type is not known yet.";
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

// ---------------------------------------------------------------------------------------------------------------
// Observation
// ---------------------------------------------------------------------------------------------------------------

/** Everything seen at one position of the records: the JSON types, and for objects and arrays their children. */
class Shape {
  /** Values seen here, and how many of them were objects: `required` compares a child's total with these. */
  total = 0;
  objects = 0;
  readonly types = new Set<JsonType>();
  readonly props = new Map<string, Shape>();
  items: Shape | undefined;
  /** Distinct scalar values, consulted only where the preset names a closed tag set. */
  readonly scalars = new Set<Scalar>();
  /** The objects seen here (references), for the rare object written as a map. */
  private readonly seenObjects: JsonObject[] = [];

  add(value: Json): void {
    this.total++;
    const type = jsonType(value);
    this.types.add(type);
    if (type === "object") {
      const object = value as JsonObject;
      this.objects++;
      this.seenObjects.push(object);
      for (const [key, child] of Object.entries(object)) {
        let shape = this.props.get(key);
        if (!shape) this.props.set(key, shape = new Shape());
        shape.add(child);
      }
    } else if (type === "array") {
      const items = this.items ??= new Shape();
      for (const item of value as Json[]) items.add(item);
    } else if (this.scalars.size < 64) {
      this.scalars.add(value as Scalar);
    }
  }

  /** Every property value of every object seen here, as one shape. */
  mapValues(): Shape {
    const shape = new Shape();
    for (const object of this.seenObjects) for (const value of Object.values(object)) shape.add(value);
    return shape;
  }
}

function jsonType(value: Json): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value as "boolean" | "string" | "object";
}

// ---------------------------------------------------------------------------------------------------------------
// Harness presets
// ---------------------------------------------------------------------------------------------------------------

interface Preset {
  product: string;
  /** Type names: `<prefix><Kind><suffix>`, e.g. `ClaudeUserRecord`, `CodexResponseItemLine`. */
  titlePrefix: string;
  titleSuffix: string;
  /** A top-level field described as strictly as the record itself (codex `payload`). */
  bodyField?: string;
  /** Kinds whose body is a union discriminated by this field of the body. */
  discriminate: Record<string, string>;
  /** Top-level fields every kind may carry: always declared, never required. */
  envelope: Record<string, Schema>;
  /** Closed type-tag sets by kind (`*` for all) and dotted path: the only values a schema may hold. */
  enums: Record<string, Record<string, Scalar[]>>;
  /**
   * Optional top-level fields known from public evidence but absent from the samples, by kind: declared so that
   * they are not drift (each says where it is documented).
   */
  known: Record<string, Record<string, Schema>>;
  /** Hand-specified parts by kind and dotted path, with the `$defs` they refer to. */
  overrides: Record<string, Record<string, { schema: Schema; defs: Record<string, Schema> }>>;
}

const CC_TYPES =
  "Not in the fixtures; from UserEntry in github.com/pedropaulovc/claude-code-types index.d.ts.";

const STOP_REASONS: Scalar[] = [
  "end_turn",
  "max_tokens",
  "stop_sequence",
  "tool_use",
  "pause_turn",
  "refusal",
  "model_context_window_exceeded",
  null,
];

function block(title: string, tag: string, required: string[], props: Record<string, Schema>): Schema {
  return {
    title,
    type: "object",
    properties: { type: { const: tag }, ...props },
    required: ["type", ...required],
    additionalProperties: true,
  };
}

/** `message` of Claude `user` / `assistant` records: an Anthropic Messages API message. */
function claudeMessage(role: "user" | "assistant"): { schema: Schema; defs: Record<string, Schema> } {
  const p = role === "user" ? "ClaudeUser" : "ClaudeAssistant";
  const looseArray: Schema = {
    type: "array",
    items: {
      type: "object",
      properties: { type: { type: "string" } },
      required: ["type"],
      additionalProperties: true,
    },
  };
  const blocks: Record<string, Schema> = role === "user"
    ? {
      text: block(`${p}TextBlock`, "text", ["text"], { text: { type: "string" } }),
      image: block(`${p}ImageBlock`, "image", ["source"], {
        source: {
          type: "object",
          properties: {
            type: { type: "string" },
            media_type: { type: "string" },
            data: { type: "string" },
            url: { type: "string" },
          },
          required: ["type"],
          additionalProperties: true,
        },
      }),
      tool_result: block(`${p}ToolResultBlock`, "tool_result", ["tool_use_id"], {
        tool_use_id: { type: "string" },
        content: { anyOf: [{ type: "string" }, looseArray] },
        is_error: { type: "boolean" },
      }),
    }
    : {
      text: block(`${p}TextBlock`, "text", ["text"], { text: { type: "string" } }),
      thinking: block(`${p}ThinkingBlock`, "thinking", ["thinking", "signature"], {
        thinking: { type: "string" },
        signature: { type: "string" },
      }),
      redacted_thinking: block(`${p}RedactedThinkingBlock`, "redacted_thinking", ["data"], {
        data: { type: "string" },
      }),
      tool_use: block(`${p}ToolUseBlock`, "tool_use", ["id", "name", "input"], {
        id: { type: "string" },
        name: { type: "string" },
        input: { type: "object", additionalProperties: true },
      }),
    };
  const defs: Record<string, Schema> = {};
  for (const [tag, schema] of Object.entries(blocks)) defs[`${tag}_block`] = schema;
  defs.content_block = {
    title: `${p}ContentBlock`,
    oneOf: Object.keys(blocks).map((tag) => ({ $ref: `#/$defs/${tag}_block` })),
    discriminator: { propertyName: "type" },
  };
  const content: Schema = {
    anyOf: [{ type: "string" }, { type: "array", items: { $ref: "#/$defs/content_block" } }],
  };
  const message: Schema = role === "user"
    ? {
      title: `${p}Message`,
      type: "object",
      properties: { role: { const: "user" }, content },
      required: ["role", "content"],
      additionalProperties: true,
    }
    : {
      title: `${p}Message`,
      type: "object",
      properties: {
        id: { type: "string" },
        type: { const: "message" },
        role: { const: "assistant" },
        model: { type: "string" },
        content: { type: "array", items: { $ref: "#/$defs/content_block" } },
        stop_reason: { enum: STOP_REASONS },
        stop_sequence: { type: ["string", "null"] },
        stop_details: { type: ["object", "null"] },
        usage: {
          title: `${p}Usage`,
          type: "object",
          properties: {
            input_tokens: { type: "integer" },
            output_tokens: { type: "integer" },
            cache_creation_input_tokens: { type: ["integer", "null"] },
            cache_read_input_tokens: { type: ["integer", "null"] },
            service_tier: { type: ["string", "null"] },
          },
          required: ["input_tokens", "output_tokens"],
          additionalProperties: true,
        },
      },
      required: ["id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"],
      additionalProperties: true,
    };
  defs.message = message;
  return { schema: { $ref: "#/$defs/message" }, defs };
}

/** An amount of money: any number, never only the integers a free model's samples show. */
const DOLLARS = { schema: { type: "number" } satisfies Schema, defs: {} };

const PRESETS: Record<string, Preset> = {
  "claude-code": {
    product: "Claude Code",
    titlePrefix: "Claude",
    titleSuffix: "Record",
    discriminate: {},
    envelope: {},
    enums: {
      "queue-operation": { operation: ["enqueue", "dequeue", "remove", "popAll"] },
    },
    known: {
      user: {
        isMeta: {
          type: "boolean",
          description:
            `Harness-made message, not the user's words (also written by lib/harnesses/claude-code). ${CC_TYPES}`,
        },
        isCompactSummary: {
          type: "boolean",
          description: `The summary that follows a compact_boundary system record. ${CC_TYPES}`,
        },
        isVisibleInTranscriptOnly: {
          type: "boolean",
          description: `Shown, never sent to the API. ${CC_TYPES}`,
        },
      },
    },
    overrides: {
      user: { message: claudeMessage("user") },
      assistant: { message: claudeMessage("assistant") },
    },
  },
  codex: {
    product: "Codex CLI",
    titlePrefix: "Codex",
    titleSuffix: "Line",
    bodyField: "payload",
    discriminate: { response_item: "type", event_msg: "type" },
    envelope: {
      ordinal: { type: "integer" },
      metadata: { type: "object", additionalProperties: true },
    },
    known: {},
    enums: {
      response_item: { "payload.role": ["user", "assistant", "developer", "system"] },
    },
    overrides: {},
  },
  hermes: {
    product: "Hermes Agent",
    titlePrefix: "Hermes",
    titleSuffix: "Record",
    discriminate: {},
    envelope: {},
    enums: {},
    known: {
      "transcript-assistant": hermesKnown([
        "reasoning_details",
        "codex_reasoning_items",
        "codex_message_items",
      ]),
      "transcript-tool": hermesKnown(["tool_name"]),
      "transcript-user": hermesKnown(["message_id"]),
    },
    overrides: {},
  },
  // OpenCode keeps JSON in SQLite columns: the drafts are of `message.data` by role, `part.data` by type, the
  // session row and the `opencode export` file, each fed in as JSONL (or one file) by the capture's dumps.
  opencode: {
    product: "OpenCode",
    titlePrefix: "OpenCode",
    titleSuffix: "Record",
    discriminate: {},
    envelope: {},
    // A tool part holds its call's whole lifecycle; the four states are the tool state union of 1.18.33's
    // binary (a captured store may lack some: a pending or running part is only left by a killed run).
    enums: {
      "part-tool": { "state.status": ["pending", "running", "completed", "error"] },
      "message-user": { role: ["user"] },
      "message-assistant": { role: ["assistant"] },
    },
    known: {
      "message-assistant": {
        error: {
          type: "object",
          description: "Not in the exec fixtures: an aborted turn (Esc in the TUI) writes " +
            '{name: "MessageAbortedError", data: {message}} (checked on 1.18.33).',
        },
        summary: {
          type: "boolean",
          description: "A compaction's summary message (`/compact`, checked on 1.18.33).",
        },
      },
    },
    // Costs are dollars (the session's `cost` is a REAL column); the fake model's are all 0, which a draft
    // would type as integers.
    overrides: {
      "message-assistant": { cost: DOLLARS },
      "part-step-finish": { cost: DOLLARS },
      "session-row": { cost: DOLLARS },
    },
  },
};

/**
 * Message fields the legacy gateway transcript can carry beyond the captured sample: it writes the agent's
 * message dict whole (`SessionStore.append_to_transcript` in hermes-agent 0.14.0 gateway/session.py, which
 * also stores these in state.db).
 */
function hermesKnown(fields: string[]): Record<string, Schema> {
  const where = "Not in the fixtures; written by SessionStore.append_to_transcript (hermes-agent 0.14.0).";
  return Object.fromEntries(fields.map((f) => [f, { description: where }]));
}

// ---------------------------------------------------------------------------------------------------------------
// Shape -> schema
// ---------------------------------------------------------------------------------------------------------------

interface Context {
  harness: string;
  kind: string;
  preset: Preset;
  defs: Record<string, Schema>;
  warnings: string[];
}

function pascal(name: string): string {
  return name.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
}

function typesOf(shape: Shape): JsonType[] {
  const types = [...shape.types];
  return shape.types.has("number") ? types.filter((t) => t !== "integer") : types;
}

function closedSet(ctx: Context, path: string): Scalar[] | undefined {
  return ctx.preset.enums[ctx.kind]?.[path] ?? ctx.preset.enums["*"]?.[path];
}

/**
 * The schema of one position. `level` 0 is the record (or its body): closed. Level 1 objects (a field of the
 * record, or an element of an array there) list their fields but stay open; deeper objects are described by
 * their type alone.
 */
function schemaOf(shape: Shape, path: string[], level: number, ctx: Context): Schema {
  const dotted = path.join(".");
  const override = ctx.preset.overrides[ctx.kind]?.[dotted];
  if (override) {
    Object.assign(ctx.defs, structuredClone(override.defs));
    return structuredClone(override.schema);
  }
  const known = closedSet(ctx, dotted);
  if (known) {
    const extra = [...shape.scalars].filter((v) => !known.includes(v));
    if (extra.length || shape.types.has("object") || shape.types.has("array")) {
      ctx.warnings.push(`${ctx.kind}: ${dotted} holds values outside its closed set; check the preset`);
    }
    return { enum: [...known, ...extra] };
  }
  const types = typesOf(shape);
  if (types.length === 1 && types[0] === "null") return { description: NULL_ONLY, tsType: "unknown" };
  const out: Schema = types.length === 1 ? { type: types[0]! } : types.length ? { type: types } : {};
  if (shape.types.has("object") && level <= DESCRIBED_LEVELS) {
    Object.assign(out, objectSchema(shape, path, level, ctx));
  }
  if (shape.types.has("array") && shape.items && shape.items.types.size) {
    out.items = schemaOf(shape.items, [...path, "[]"], level, ctx);
  }
  return out;
}

function objectSchema(shape: Shape, path: string[], level: number, ctx: Context): Schema {
  const keys = [...shape.props.keys()];
  if (level > 0 && keys.some((k) => !IDENTIFIER.test(k))) {
    return { additionalProperties: schemaOf(shape.mapValues(), [...path, "*"], level + 1, ctx) };
  }
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const key of keys) {
    const child = shape.props.get(key)!;
    properties[key] = schemaOf(child, [...path, key], level + 1, ctx);
    if (child.total === shape.objects) required.push(key);
  }
  const out: Schema = { properties };
  if (required.length) out.required = required;
  out.additionalProperties = level > 0;
  return out;
}

/** Root schema of one kind: the record's own fields closed, the codex body closed or a discriminated union. */
function recordSchema(
  harness: string,
  version: string,
  kind: string,
  samples: JsonObject[],
  files: string[],
  kindField: string,
) {
  const preset = PRESETS[harness]!;
  const ctx: Context = { harness, kind, preset, defs: {}, warnings: [] };
  const shape = new Shape();
  for (const s of samples) shape.add(s);
  const body = preset.bodyField;
  const tag = preset.discriminate[kind];
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [key, child] of shape.props) {
    if (key === kindField) properties[key] = { const: samples[0]![key] ?? kind };
    else if (key === body && tag) properties[key] = unionBody(samples, body, tag, ctx);
    else if (key === body) {
      properties[key] = {
        title: `${preset.titlePrefix}${pascal(kind)}Payload`,
        ...schemaOf(child, [key], 0, ctx),
      };
    } else properties[key] = schemaOf(child, [key], 1, ctx);
    if (child.total === shape.objects && !(key in preset.envelope)) required.push(key);
  }
  for (const [key, schema] of Object.entries(preset.envelope)) properties[key] ??= structuredClone(schema);
  for (const [key, schema] of Object.entries(preset.known[kind] ?? {})) {
    properties[key] ??= structuredClone(schema);
  }
  const schema: Schema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: `session-bridge/${harness}/${version}/${kind}`,
    $comment: DRAFTED,
    title: `${preset.titlePrefix}${pascal(kind)}${preset.titleSuffix}`,
    description: `${preset.product} ${version} \`${kind}\` ${body ? "line" : "record"}, inferred from ${
      describeSources(samples.length, files)
    }. Unknown top-level fields${body ? " and payload fields" : ""} are drift.`,
    type: "object",
    properties,
    required,
    additionalProperties: false,
  };
  if (Object.keys(ctx.defs).length) schema.$defs = ctx.defs;
  return { schema, warnings: ctx.warnings };
}

function describeSources(count: number, files: string[]): string {
  const dirs = [...new Set(files.map((f) => relative(root, dirname(f))))].sort();
  return `${count} record(s) in ${files.length} file(s) under ${dirs.join(", ")}`;
}

/** A body discriminated by `tag`: one closed `$defs` entry per tag value seen, no branch for anything else. */
function unionBody(samples: JsonObject[], body: string, tag: string, ctx: Context): Schema {
  const groups = new Map<string, Shape>();
  for (const s of samples) {
    const value = s[body];
    const key = value && typeof value === "object" && !Array.isArray(value) ? value[tag] : undefined;
    if (typeof key !== "string") {
      ctx.warnings.push(`${ctx.kind}: a ${body} without a string ${tag} was skipped`);
      continue;
    }
    let shape = groups.get(key);
    if (!shape) groups.set(key, shape = new Shape());
    shape.add(value as JsonObject);
  }
  const branches: Schema[] = [];
  for (const [key, shape] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const branch = schemaOf(shape, [body], 0, ctx);
    branch.properties![tag] = { const: key };
    ctx.defs[key] = { title: `${ctx.preset.titlePrefix}${pascal(ctx.kind)}${pascal(key)}`, ...branch };
    branches.push({ $ref: `#/$defs/${key}` });
  }
  return { oneOf: branches, discriminator: { propertyName: tag } };
}

// ---------------------------------------------------------------------------------------------------------------
// SQLite rows
// ---------------------------------------------------------------------------------------------------------------

interface Column {
  name: string;
  type: string;
  notnull: number;
  dflt_value: string | null;
  pk: number;
}

/** A row of a SQLite table as `SELECT *` returns it, from `PRAGMA table_info` output. */
function rowSchema(harness: string, version: string, kind: string, file: string, table?: string): Schema {
  const parsed = JSON.parse(readFileSync(file, "utf8")) as
    | { tableInfo?: Column[]; table_info?: Record<string, Column[]>; database?: string }
    | Column[];
  const columns = Array.isArray(parsed)
    ? parsed
    : table
    ? parsed.table_info?.[table] ?? []
    : parsed.tableInfo ?? [];
  if (!columns.length) throw new Error(`${file}: no table_info columns${table ? ` for ${table}` : ""}`);
  const properties: Record<string, Schema> = {};
  for (const c of columns) {
    const affinity = c.type.toUpperCase();
    const base: JsonType = /INT|BOOL/.test(affinity)
      ? "integer"
      : /REAL|FLOA|DOUB|NUMERIC/.test(affinity)
      ? "number"
      : "string";
    const nullable = !c.notnull && !c.pk;
    const notes = [c.type || "untyped", c.pk ? "PRIMARY KEY" : c.notnull ? "NOT NULL" : "NULL"];
    if (c.dflt_value !== null) notes.push(`DEFAULT ${c.dflt_value}`);
    properties[c.name] = { type: nullable ? [base, "null"] : base, description: notes.join(" ") };
  }
  const preset = PRESETS[harness];
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    $id: `session-bridge/${harness}/${version}/${kind}`,
    $comment: DRAFTED,
    title: `${preset?.titlePrefix ?? pascal(harness)}${pascal(kind)}`,
    description: `${preset?.product ?? harness} ${version}: one row of the table described in ${
      relative(root, file)
    } (PRAGMA table_info), every column. A new column is drift.`,
    type: "object",
    properties,
    required: columns.map((c) => c.name),
    additionalProperties: false,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// CLI
// ---------------------------------------------------------------------------------------------------------------

function readRecords(files: string[], kindField: string, kindPrefix: string) {
  const byKind = new Map<string, { samples: JsonObject[]; files: Set<string> }>();
  let skipped = 0;
  for (const file of files) {
    for (const text of readFileSync(file, "utf8").split("\n")) {
      if (!text.trim()) continue;
      let value: Json;
      try {
        value = JSON.parse(text) as Json;
      } catch {
        skipped++;
        continue;
      }
      const kind = value && typeof value === "object" && !Array.isArray(value) ? value[kindField] : undefined;
      if (typeof kind !== "string" || !kind) {
        skipped++;
        continue;
      }
      let group = byKind.get(`${kindPrefix}${kind}`);
      if (!group) byKind.set(`${kindPrefix}${kind}`, group = { samples: [], files: new Set() });
      group.samples.push(value as JsonObject);
      group.files.add(file);
    }
  }
  return { byKind, skipped };
}

/** Each file is one JSON document (a snapshot, not a JSONL stream), all of one kind. */
function wholeFileRecords(files: string[], kind: string) {
  const samples = files.map((f) => JSON.parse(readFileSync(f, "utf8")) as JsonObject);
  return { byKind: new Map([[kind, { samples, files: new Set(files) }]]), skipped: 0 };
}

function write(out: string, kind: string, schema: Schema, opts: { dryRun: boolean; force: boolean }): void {
  const path = join(out, `${kind}.schema.json`);
  const text = `${JSON.stringify(schema, null, 2)}\n`;
  if (opts.dryRun) {
    console.log(`// ${relative(root, path)}\n${text}`);
    return;
  }
  if (existsSync(path) && !opts.force) {
    const current = JSON.parse(readFileSync(path, "utf8")) as Schema;
    if (current.$comment?.startsWith(HAND_WRITTEN)) {
      console.warn(`kept ${relative(root, path)} (hand-written; --force replaces it): compare by hand`);
      return;
    }
  }
  mkdirSync(out, { recursive: true });
  writeFileSync(path, text);
  console.log(`wrote ${relative(root, path)}`);
}

function main(): void {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      harness: { type: "string" },
      version: { type: "string" },
      "kind-field": { type: "string", default: "type" },
      "table-info": { type: "string" },
      kind: { type: "string", default: "threads-row" },
      table: { type: "string" },
      "kind-prefix": { type: "string", default: "" },
      "whole-file": { type: "boolean", default: false },
      out: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      force: { type: "boolean", default: false },
    },
  });
  const harness = values.harness;
  const version = values.version;
  if (!harness || !version || !PRESETS[harness] || (!positionals.length && !values["table-info"])) {
    console.error(
      `usage: infer-schemas.ts --harness <${Object.keys(PRESETS).join("|")}> --version <v> ` +
        "[--kind-field type] [--kind-prefix p] [--out dir] [--dry-run] [--force] " +
        "(<file.jsonl>... | --whole-file --kind k <file.json>... | --table-info <file> [--table t] [--kind k])",
    );
    process.exitCode = 2;
    return;
  }
  const out = values.out ?? join(root, "schemas", harness, version);
  const opts = { dryRun: values["dry-run"], force: values.force };
  if (values["table-info"]) {
    write(
      out,
      values.kind,
      rowSchema(harness, version, values.kind, values["table-info"], values.table),
      opts,
    );
  }
  if (!positionals.length) return;
  const kindField = values["kind-field"];
  const { byKind, skipped } = values["whole-file"]
    ? wholeFileRecords(positionals, values.kind)
    : readRecords(positionals, kindField, values["kind-prefix"]);
  if (skipped) console.warn(`skipped ${skipped} line(s) without a string "${kindField}"`);
  for (const [kind, group] of [...byKind].sort(([a], [b]) => a.localeCompare(b))) {
    const { schema, warnings } = recordSchema(
      harness,
      version,
      kind,
      group.samples,
      [...group.files],
      kindField,
    );
    for (const w of warnings) console.warn(`warning: ${w}`);
    write(out, kind, schema, opts);
  }
}

if (import.meta.main) main();
