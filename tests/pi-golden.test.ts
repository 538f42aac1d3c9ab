/**
 * Goldens for the Pi writer: for each conversation the real Pi 0.73.1 wrote (fixtures/pi/0.73.1/, captured by
 * acceptance/capture-pi-fixtures.ts), the IR is built here from the fixture's entries (its prompts, texts,
 * reasoning, calls, results, usage, models and times), encoded by our writer, and our entries are compared
 * with the binary's, field by field, without our reader on either side. The fields that differ by design are
 * named below, with why; every other must be equal.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { emptySession } from "../lib/ir/session.ts";
import type { Block, Message, Session } from "../lib/ir/schema.ts";
import { encodePi, type ThinkingLevel } from "../lib/harnesses/pi/encode.ts";

const DIR = join(import.meta.dirname!, "..", "fixtures", "pi", "0.73.1");

type Json = Record<string, unknown>;
type Part = Json & { type: string };

const entriesOf = (name: string): Json[] =>
  readFileSync(join(DIR, `${name}.jsonl`), "utf8").split("\n").filter(Boolean).map((l) =>
    JSON.parse(l) as Json
  );

/** The conversation of the fixture as the IR holds it (the writer's input, not its expectation). */
function irOf(entries: Json[]): Session {
  const [header] = entries;
  const session = emptySession({
    harness: "pi-fixture",
    id: String(header!.id),
    cwd: String(header!.cwd),
    models: ["fake/fake-model"],
    createdAt: String(header!.timestamp),
  });
  for (const e of entries) {
    if (e.type !== "message") continue;
    const m = e.message as Json;
    const parts = (Array.isArray(m.content) ? m.content : []) as Part[];
    const base = {
      uid: String(e.id),
      parentUid: null,
      timestamp: String(e.timestamp),
      kind: "turn" as const,
    };
    if (m.role === "user") {
      const blocks = parts.map((p): Block => ({ type: "text", text: String(p.text) }));
      session.messages.push({ ...base, role: "user", blocks });
    } else if (m.role === "toolResult") {
      const content = parts.map((p) => ({ type: "text" as const, text: String(p.text) }));
      const result: Block = {
        type: "tool_result",
        callId: String(m.toolCallId),
        isError: m.isError === true,
        content,
      };
      session.messages.push({ ...base, role: "tool", blocks: [result] });
    } else if (m.role === "assistant") {
      const usage = m.usage as Json;
      const blocks = parts.map((p): Block => {
        if (p.type === "thinking") return { type: "reasoning", text: String(p.thinking), provider: "other" };
        if (p.type === "toolCall") {
          return { type: "tool_call", id: String(p.id), name: String(p.name), input: p.arguments };
        }
        return { type: "text", text: String(p.text) };
      });
      const message: Message = {
        ...base,
        role: "assistant",
        blocks,
        model: `${String(m.provider)}/${String(m.model)}`,
        providerMessageId: String(m.responseId),
        usage: {
          inputTokens: Number(usage.input),
          outputTokens: Number(usage.output),
          cacheReadTokens: Number(usage.cacheRead),
          cacheWriteTokens: Number(usage.cacheWrite),
        },
      };
      session.messages.push(message);
    }
  }
  return session;
}

async function encoded(entries: Json[]): Promise<Json[]> {
  const level = entries.find((e) => e.type === "thinking_level_change")!.thinkingLevel as ThinkingLevel;
  const out: Json[] = [];
  const lines = encodePi(irOf(entries), {
    id: String(entries[0]!.id),
    cwd: String(entries[0]!.cwd),
    now: new Date("2100-01-01T00:00:00Z"),
    stubOpenCalls: false,
  }, {
    model: { provider: "fake", modelId: "fake-model", api: "openai-completions" },
    apiOf: () => "openai-completions",
    thinkingLevel: level,
  });
  for await (const line of lines) out.push(JSON.parse(line) as Json);
  return out;
}

/** The paths (`a.b.c`) at which two values differ: a key on one side only, or a different leaf. */
function differences(ours: unknown, theirs: unknown, path: string, out: Set<string>): Set<string> {
  const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isRecord(ours) && isRecord(theirs)) {
    for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
      differences(ours[key], theirs[key], path ? `${path}.${key}` : key, out);
    }
  } else if (Array.isArray(ours) && Array.isArray(theirs) && ours.length === theirs.length) {
    ours.forEach((o, i) => differences(o, theirs[i], `${path}[]`, out));
  } else if (JSON.stringify(ours) !== JSON.stringify(theirs)) out.add(path);
  return out;
}

/**
 * What differs by design, by entry kind, and why:
 *   timestamp (every entry)  the binary stamps each append with its own clock; ours are the source's message
 *                            times (the IR keeps one per message), a millisecond apart where it has none
 *   message.timestamp        the binary's is when the message was made (a prompt before its entry was written,
 *                            a response when its stream began); the IR keeps one time, the entry's
 *   message.details          what a tool adds for the TUI (edit's diff): not in the IR, which keeps the result
 *                            the model read
 * Entry ids are made afresh: ours are mapped to the binary's by position, so `id` and `parentId` must agree.
 */
const BY_DESIGN: Record<string, string[]> = {
  model_change: ["timestamp"],
  thinking_level_change: ["timestamp"],
  "message/user": ["timestamp", "message.timestamp"],
  "message/assistant": ["timestamp", "message.timestamp"],
  "message/toolResult": ["timestamp", "message.timestamp", "message.details"],
};

const kindOf = (e: Json): string =>
  e.type === "message" ? `message/${String((e.message as Json).role)}` : String(e.type);

for (const name of ["exec", "exec-tools", "reasoning", "killed-mid-tool"]) {
  test(`golden ${name}: our entries are the entries Pi 0.73.1 wrote, but for the fields named by design`, async () => {
    const theirs = entriesOf(name);
    const ours = await encoded(theirs);
    assert.deepEqual(ours.map(kindOf), theirs.map(kindOf));
    assert.deepEqual(ours[0], theirs[0], "the header");
    const ids = new Map(ours.map((e, i) => [e.id, theirs[i]!.id]));
    ours.slice(1).forEach((e, i) => {
      const mapped = { ...e, id: ids.get(e.id), parentId: e.parentId === null ? null : ids.get(e.parentId) };
      const found = differences(mapped, theirs[i + 1], "", new Set());
      const kind = kindOf(e);
      for (const path of found) {
        assert.ok(BY_DESIGN[kind]?.includes(path), `entry ${i + 1} (${kind}): ${path} differs`);
      }
    });
  });
}

test("golden exec-tools: each model call is one assistant message holding its reasoning and its call, as the binary writes it", async () => {
  const theirs = entriesOf("exec-tools");
  const ours = await encoded(theirs);
  const content = (e: Json) => (e.message as Json).content;
  const responses = (list: Json[]) => list.filter((e) => kindOf(e) === "message/assistant").map(content);
  assert.deepEqual(responses(ours), responses(theirs));
  assert.deepEqual((responses(ours)[0] as Part[]).map((p) => p.type), ["thinking", "toolCall"]);
});
