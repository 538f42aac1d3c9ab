/**
 * Goldens for the Gemini CLI writer: for each conversation captured from the real binary
 * (fixtures/gemini-cli/0.61.0/), the IR is built from the fixture's messages here (its words, calls, results,
 * thoughts, usage and times), rendered by our writer, and our records are compared with the ones Gemini CLI
 * 0.61.0 wrote, field by field, without our reader on the output side. The fields that differ by design are
 * named below, with why; every other field must be equal.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { emptySession } from "../lib/ir/session.ts";
import type { Block, Message, Session } from "../lib/ir/schema.ts";
import { encodeGemini, projectHash } from "../lib/harnesses/gemini-cli/encode.ts";

const DIR = join(import.meta.dirname!, "..", "fixtures", "gemini-cli", "0.61.0");
const CWD = "/home/user/project";

type Json = Record<string, unknown>;

/** The file's messages as Gemini's loader keeps them: a later line with the same id replaces the earlier. */
function finalMessages(records: Json[]): Json[] {
  const byId = new Map<string, Json>();
  for (const r of records) if (typeof r.id === "string") byId.set(r.id, r);
  return [...byId.values()];
}

const read = (name: string): Json[] =>
  readFileSync(join(DIR, `${name}.jsonl`), "utf8").split("\n").filter(Boolean).map((l) =>
    JSON.parse(l) as Json
  );

type Part = { text?: string; functionResponse?: { id: string; name: string; response: Json } };

/**
 * The id the model gave a call: the binary records `<tool>__<API id>` and sends the model the API id back
 * (fixtures' requests.jsonl), so the IR holds that.
 */
const apiId = (recorded: string, tool: string): string => {
  assert.ok(recorded.startsWith(`${tool}__`), recorded);
  return recorded.slice(tool.length + 2);
};

/** The conversation of the fixture as the IR holds it (the input of the writer, not its expectation). */
function irOf(messages: Json[]): Session {
  const ir: Message[] = messages.map((m, i): Message => {
    const base = { uid: String(m.id), parentUid: null, timestamp: String(m.timestamp) };
    const parts = (Array.isArray(m.content) ? m.content : []) as Part[];
    if (m.type === "info") {
      return { ...base, role: "system", kind: "turn", blocks: [{ type: "text", text: String(m.content) }] };
    }
    if (m.type === "user") {
      const results = parts.filter((p) => p.functionResponse);
      if (results.length) {
        return {
          ...base,
          role: "tool",
          kind: "turn",
          blocks: results.map(({ functionResponse: r }): Block => ({
            type: "tool_result",
            callId: apiId(r!.id, r!.name),
            isError: "error" in r!.response,
            content: [{ type: "text", text: String(r!.response.output ?? r!.response.error) }],
          })),
        };
      }
      const text = parts.map((p) => p.text ?? "").join("");
      return {
        ...base,
        role: "user",
        kind: text.startsWith("<session_context>") ? "context" : "turn",
        blocks: [{ type: "text", text }],
      };
    }
    const tokens = m.tokens as Json | undefined;
    const blocks: Block[] = [
      ...((m.thoughts ?? []) as Json[]).map((t): Block => ({
        type: "reasoning",
        text: `**${t.subject}** ${t.description}`,
        provider: "google",
      })),
      ...(m.content ? [{ type: "text" as const, text: String(m.content) }] : []),
      ...((m.toolCalls ?? []) as Json[]).map((c): Block => ({
        type: "tool_call",
        id: apiId(String(c.id), String(c.name)),
        name: String(c.name),
        input: c.args,
      })),
    ];
    return {
      ...base,
      uid: `${m.id}#${i}`,
      role: "assistant",
      kind: "turn",
      ...(typeof m.model === "string" ? { model: m.model } : {}),
      ...(tokens
        ? {
          usage: {
            inputTokens: Number(tokens.input) - Number(tokens.cached),
            outputTokens: Number(tokens.output),
            cacheReadTokens: Number(tokens.cached),
            cacheWriteTokens: 0,
          },
        }
        : {}),
      blocks,
    };
  });
  const meta = {
    harness: "gemini-cli-fixture",
    id: "source",
    models: [],
    createdAt: String(messages[0]!.timestamp),
  };
  return { ...emptySession(meta), messages: ir };
}

async function render(session: Session): Promise<Json[]> {
  const lines: Json[] = [];
  const options = {
    id: "0f6a8bb3-2ce0-4dcc-8a37-6ffe0f5a86ad",
    cwd: CWD,
    now: new Date("2027-01-01T00:00:00.000Z"),
    stubOpenCalls: true,
  };
  for await (const l of encodeGemini(session, options, (m) => m.model)) lines.push(JSON.parse(l) as Json);
  return lines;
}

/**
 * Fields that differ by design, by record type:
 *   id              message ids are fresh UUIDs (the binary's are its own random ones)
 *   tokens.output, tokens.thoughts, tokens.total
 *                   the IR's usage has no thought-token count: thoughts are 0, output and total without them
 *   toolCalls[].resultDisplay
 *                   what the TUI shows of a result: the binary's shell tool shows the raw output (or ANSI runs),
 *                   ours the result text the model read
 *   toolCalls[].timestamp
 *                   ours is when the result was recorded in the conversation, the binary's when the call ended
 *   thoughts[].timestamp
 *                   the IR's reasoning has no time of its own: a thought gets its message's (the binary's is
 *                   when the thought streamed in, a millisecond or so earlier)
 */
const BY_DESIGN = [
  "id",
  "tokens.output",
  "tokens.thoughts",
  "tokens.total",
  "toolCalls.resultDisplay",
  "toolCalls.timestamp",
  "thoughts.timestamp",
];

/** Every field of `value` flattened to `path: json`, arrays of tool calls under one name per field. */
function fields(value: unknown, path = ""): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (v: unknown, p: string, index: string) => {
    if (v && typeof v === "object" && !Array.isArray(v) && p.split(".").length < 3) {
      for (const [k, x] of Object.entries(v as Json)) walk(x, p ? `${p}.${k}` : k, index);
      return;
    }
    if ((p === "toolCalls" || p === "thoughts") && Array.isArray(v)) {
      v.forEach((c, i) => walk(c, p, `[${i}]`));
      if (!v.length) out.set(p, "[]");
      return;
    }
    out.set(`${p}${index}`, JSON.stringify(v));
  };
  walk(value, path, "");
  return out;
}

const designed = (key: string) => BY_DESIGN.includes(key.replace(/\[\d+\]/, ""));

/** Our message records against the binary's, field by field; the differences not named above are returned. */
function compare(ours: Json[], theirs: Json[]): string[] {
  const problems: string[] = [];
  assert.equal(ours.length, theirs.length, `messages: ours ${ours.length}, the binary's ${theirs.length}`);
  theirs.forEach((expected, i) => {
    const a = fields(ours[i]);
    const b = fields(expected);
    for (const key of new Set([...a.keys(), ...b.keys()])) {
      if (designed(key.replace(/^(toolCalls|thoughts)\.(\w+)\[\d+\]$/, "$1.$2"))) continue;
      if (a.get(key) !== b.get(key)) {
        problems.push(
          `message ${i} (${expected.type}) ${key}: ours ${a.get(key)}, the binary's ${b.get(key)}`,
        );
      }
    }
  });
  return problems;
}

/**
 * What we write for the fixture's conversation, against what the binary wrote: the messages a resumed run
 * loads (the `<session_context>` the binary writes at each start and the user message repeating tool results
 * are not written, by design: see lib/harnesses/gemini-cli/encode.ts), then each line kind.
 */
async function golden(name: string): Promise<void> {
  const records = read(name);
  const messages = finalMessages(records);
  const conversation = messages.filter((m) =>
    !(m.type === "user" && JSON.stringify(m.content).startsWith('[{"text":"<session_context>')) &&
    !(m.type === "user" && JSON.stringify(m.content).startsWith('[{"functionResponse"'))
  );
  const rendered = await render(irOf(messages));
  const ours = rendered.filter((r) => typeof r.id === "string");
  assert.deepEqual(compare(ours, conversation), []);
  // One metadata line, as the first line, in the binary's shape (its fields and kind).
  const metadata = records[0]!;
  assert.deepEqual(Object.keys(rendered[0]!), Object.keys(metadata));
  assert.equal(rendered[0]!.kind, metadata.kind);
  assert.equal(
    rendered[0]!.projectHash,
    metadata.projectHash,
    "sha256 of the project's path, as the binary's",
  );
  assert.equal(rendered[0]!.projectHash, projectHash(CWD));
  // After every message the binary appends {$set: {lastUpdated}}; so do we, with the newest time it holds
  // (its calls end after it starts).
  rendered.forEach((r, i) => {
    if (typeof r.id !== "string") return;
    const times = [r.timestamp, ...((r.toolCalls ?? []) as Json[]).map((c) => c.timestamp)] as string[];
    assert.deepEqual(
      rendered[i + 1],
      { $set: { lastUpdated: times.sort().at(-1) } },
      `after message ${r.id}`,
    );
  });
}

test("exec-tool: a shell call with its thought, result and answer, as Gemini CLI 0.61.0 records it", async () => {
  await golden("exec-tool");
});

test("exec-resumed: three one-shot turns, as Gemini CLI 0.61.0 records them", async () => {
  await golden("exec-resumed");
});

test("interactive: typed turns and a shell call, as Gemini CLI 0.61.0 records them", async () => {
  await golden("interactive");
});

test("interrupted: a cancelled shell call, the note of it and the queued message, as Gemini CLI 0.61.0 records them", async () => {
  await golden("interrupted");
});

test("compressed: a compacted history is written before Gemini CLI 0.61.0's own compression checkpoint (the snapshot and its acknowledgement), then the turns after it, as the binary records them", async () => {
  const records = read("compressed");
  // The first run's compression: the checkpoint whose list holds the snapshot; the second run (a resume) ends
  // at its new metadata line.
  const at = records.findIndex((r) =>
    JSON.stringify((r.$set as Json | undefined)?.messages ?? "").includes("<state_snapshot>")
  );
  const resumed = records.findIndex((r, i) => i > at && typeof r.sessionId === "string");
  const checkpoint = records[at]!.$set as { messages: Json[]; lastUpdated: string };
  const history = finalMessages(records.slice(0, at));
  const after = finalMessages(records.slice(at + 1, resumed));
  const conversation = (messages: Json[]) =>
    messages.filter((m) =>
      !(m.type === "user" && JSON.stringify(m.content).startsWith('[{"text":"<session_context>')) &&
      !(m.type === "user" && JSON.stringify(m.content).startsWith('[{"functionResponse"'))
    );
  type Listed = { id: string; timestamp: string; content: { text: string }[] };
  const [snapshot, ack] = checkpoint.messages.slice(1) as Listed[];
  const session = irOf(after.filter((m) => m.type !== "info"));
  const earlier = irOf(history);
  session.meta.createdAt = earlier.meta.createdAt;
  session.threads.push({ id: "compacted", kind: "compacted", messages: earlier.messages });
  session.messages.unshift({
    uid: "summary",
    parentUid: null,
    role: "user",
    kind: "summary",
    timestamp: snapshot!.timestamp,
    blocks: [{ type: "text", text: snapshot!.content[0]!.text }],
  });
  const rendered = await render(session);
  const ours = rendered.findIndex((r) => isCheckpoint(r));
  assert.deepEqual(
    compare(rendered.slice(0, ours).filter((r) => typeof r.id === "string"), conversation(history)),
    [],
  );
  // The checkpoint: the binary's fields; its list the snapshot and the acknowledgement as the binary lists them
  // (ids fresh). The binary's list also holds the <session_context> it writes at each start (not written, as
  // for every session) and copies of the turns it kept, under new ids: the IR's live thread is written after
  // the checkpoint instead, which the loader appends to the same list.
  const written = rendered[ours]!.$set as { messages: Json[]; lastUpdated: string };
  assert.deepEqual(Object.keys(written), Object.keys(checkpoint));
  assert.equal(written.lastUpdated, checkpoint.lastUpdated, "the compression's time");
  const withoutId = ({ id: _, ...m }: Json) => m;
  assert.deepEqual(written.messages.map(withoutId), [snapshot!, ack!].map(withoutId));
  assert.deepEqual(compare(rendered.slice(ours + 1).filter((r) => typeof r.id === "string"), after), []);
});

const isCheckpoint = (r: Json) => Array.isArray((r.$set as Json | undefined)?.messages);
