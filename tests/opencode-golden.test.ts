/**
 * Goldens for the OpenCode writer: for each conversation the real OpenCode 1.18.33 held in its database
 * (fixtures/opencode/1.18.33/writer-golden/, acceptance/capture-opencode-golden.ts), the IR is built here from
 * the fixture's rows (its prompts, texts, reasoning, calls, results, usage and times), encoded by our writer,
 * and our rows are compared with the binary's, column by column and field by field inside `data`, without our
 * reader on either side. The fields that differ by design are named below, with why; every other must be equal.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { emptySession } from "../lib/ir/session.ts";
import type { Block, Message, Session } from "../lib/ir/schema.ts";
import { type EncodedMessage, encodeOpenCode } from "../lib/harnesses/opencode/encode.ts";

const DIR = join(import.meta.dirname!, "..", "fixtures", "opencode", "1.18.33", "writer-golden");

type Json = Record<string, unknown>;

interface Rows {
  cwd: string;
  session: Json;
  messages: (Json & { data: Json })[];
  parts: (Json & { data: Json })[];
}

const load = (name: string): Rows => JSON.parse(readFileSync(join(DIR, `${name}.rows.json`), "utf8")) as Rows;

const iso = (ms: unknown): string => new Date(Number(ms)).toISOString();

/** The conversation of the fixture as the IR holds it (the writer's input, not its expectation). */
function irOf(rows: Rows): Session {
  const session = emptySession({
    harness: "opencode",
    id: String(rows.session.id),
    cwd: rows.cwd,
    models: ["fake/fake-model"],
    createdAt: iso(rows.session.time_created),
  });
  for (const m of rows.messages) {
    const parts = rows.parts.filter((p) => p.message_id === m.id).map((p) => p.data);
    const base = { uid: String(m.id), parentUid: null, timestamp: iso(m.time_created) };
    if (m.data.role === "user") {
      const blocks = parts.map((p): Block => ({ type: "text", text: String(p.text) }));
      session.messages.push({ ...base, role: "user", kind: "turn", blocks });
      continue;
    }
    const tokens = m.data.tokens as { input: number; output: number; cache: { read: number; write: number } };
    const blocks: Block[] = [];
    const results: Block[] = [];
    for (const p of parts) {
      if (p.type === "text") blocks.push({ type: "text", text: String(p.text) });
      if (p.type === "reasoning") {
        blocks.push({ type: "reasoning", text: String(p.text), provider: "openai" });
      }
      if (p.type !== "tool") continue;
      const state = p.state as Json;
      blocks.push({ type: "tool_call", id: String(p.callID), name: String(p.tool), input: state.input });
      results.push({
        type: "tool_result",
        callId: String(p.callID),
        isError: state.status === "error",
        content: [{ type: "text", text: String(state.output ?? state.error) }],
      });
    }
    const usage = {
      inputTokens: tokens.input,
      outputTokens: tokens.output,
      cacheReadTokens: tokens.cache.read,
      cacheWriteTokens: tokens.cache.write,
    };
    session.messages.push({ ...base, role: "assistant", kind: "turn", blocks, usage });
    if (results.length) {
      const time = (parts.find((p) => p.type === "tool")!.state as { time: { end: number } }).time.end;
      const result: Message = {
        ...base,
        uid: `${m.id}-results`,
        role: "tool",
        kind: "turn",
        timestamp: iso(time),
        blocks: results,
      };
      session.messages.push(result);
    }
  }
  return session;
}

async function encoded(rows: Rows) {
  const out = encodeOpenCode(irOf(rows), {
    id: String(rows.session.id),
    cwd: rows.cwd,
    title: String(rows.session.title),
    now: new Date("2100-01-01T00:00:00Z"),
    stubOpenCalls: false,
  }, {
    projectId: "global",
    worktree: "/",
    version: "1.18.33",
    model: { providerID: "fake", modelID: "fake-model" },
  });
  const messages: EncodedMessage[] = [];
  for await (const m of out.messages) messages.push(m);
  return { session: out.session(), messages };
}

/** The paths (`a.b.c`) at which two values differ: a key on one side only, or a different leaf. */
function differences(ours: unknown, theirs: unknown, path: string, out: Set<string>): Set<string> {
  const isRecord = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
  if (isRecord(ours) && isRecord(theirs)) {
    for (const key of new Set([...Object.keys(ours), ...Object.keys(theirs)])) {
      differences(ours[key], theirs[key], path ? `${path}.${key}` : key, out);
    }
  } else if (JSON.stringify(ours) !== JSON.stringify(theirs)) out.add(path);
  return out;
}

/**
 * Row ids are made afresh (time and random letters) and the binary's times are those of its own writes:
 * messages and parts are compared with their ids mapped, ours to the binary's, by position.
 */
function mapIds(text: string, ours: string[], theirs: string[]): string {
  return ours.reduce((t, id, i) => t.replaceAll(id, theirs[i]!), text);
}

/** What differs by design, and why. */
const SESSION_BY_DESIGN = [
  // A random `adjective-noun` name in both; it only names the session (share links).
  "slug",
  // `opencode run` records the rules of its non-interactive mode (no questions, no plan mode); a handoff writes
  // none, so the user's own OpenCode configuration applies (the posture is the resume command's to state).
  "permission",
  // The agent's variant OpenCode picked at run time; the handoff names the model alone.
  "model",
  // The binary's last write to the row (after the turn's last part): ours is the conversation's last row.
  "time_updated",
].sort();

const MESSAGE_BY_DESIGN = [
  // The binary stamps its own writes (after streaming, after the title); ours are the source's times.
  "time_updated",
  "data.time.completed",
];

const PART_BY_DESIGN = [
  "time_created",
  "time_updated",
  // When each part streamed in: the IR keeps one time per message.
  "data.time.start",
  "data.time.end",
  "data.state.time.start",
  "data.state.time.end",
  // The exit code and truncation of the shell's run are not in the IR; the output is.
  "data.state.metadata.exit",
  "data.state.metadata.truncated",
];

/**
 * A compaction asked for (/compact: `auto` false, no `overflow`, as OpenCode's summarize route makes it) where
 * the capture's was forced by the window (`auto` true, `overflow` false).
 */
const COMPACTION_BY_DESIGN = ["data.auto", "data.overflow"];

for (const name of ["tool-call", "two-prompts"]) {
  test(`golden ${name}: our rows are the rows OpenCode 1.18.33 wrote, but for the fields named by design`, async () => {
    const rows = load(name);
    const ours = await encoded(rows);
    assert.deepEqual([...differences(ours.session, rows.session, "", new Set())].sort(), SESSION_BY_DESIGN);

    const ourParts = ours.messages.flatMap((m) => m.parts);
    assert.equal(ours.messages.length, rows.messages.length);
    assert.equal(ourParts.length, rows.parts.length);
    const ids = [...ours.messages.map((m) => m.message.id), ...ourParts.map((p) => p.id)];
    const theirIds = [...rows.messages.map((m) => String(m.id)), ...rows.parts.map((p) => String(p.id))];
    const mapped = <T>(value: T): T => JSON.parse(mapIds(JSON.stringify(value), ids, theirIds)) as T;

    ours.messages.forEach((m, i) => {
      const found = differences(mapped(m.message), rows.messages[i], "", new Set());
      for (const path of found) assert.ok(MESSAGE_BY_DESIGN.includes(path), `message ${i}: ${path} differs`);
    });
    ourParts.forEach((p, i) => {
      const found = differences(mapped(p), rows.parts[i], "", new Set());
      for (const path of found) {
        assert.ok(
          PART_BY_DESIGN.includes(path),
          `part ${i} (${String(rows.parts[i]!.data.type)}): ${path} differs`,
        );
      }
    });
  });
}

test("golden tool-call: the call and its result are one completed tool part, as the binary keeps them", async () => {
  const rows = load("tool-call");
  const ours = await encoded(rows);
  const tool = ours.messages.flatMap((m) => m.parts).find((p) => p.data.type === "tool")!;
  const theirs = rows.parts.find((p) => p.data.type === "tool")!;
  assert.equal((tool.data.state as Json).status, "completed");
  assert.equal((tool.data.state as Json).output, (theirs.data.state as Json).output);
  assert.deepEqual((tool.data.state as Json).input, { command: "echo golden-mark" });
});

/** A captured session's rows as the store held them (`data` a JSON string), `data` parsed. */
function storedRows(name: string): Rows {
  const file = join(DIR, "..", `${name}.rows.json`);
  const raw = JSON.parse(readFileSync(file, "utf8")) as {
    session: Json[];
    message: (Json & { data: string })[];
    part: (Json & { data: string })[];
  };
  const parsed = <T extends { data: string }>(row: T) => ({ ...row, data: JSON.parse(row.data) as Json });
  const session = raw.session[0]!;
  return {
    cwd: String(session.directory),
    session,
    messages: raw.message.map(parsed),
    parts: raw.part.map(parsed),
  };
}

/**
 * The compaction OpenCode made in the `compacted` capture was an automatic one (the model's window overflowed):
 * it adds a synthetic "Continue" prompt and its answer, which a compaction asked for (/compact) does not; those
 * two are left out of the binary's rows, and the IR is built from the rest: the history before the compaction
 * request as a compacted thread, the summary (with the usage of its model call) opening the live thread.
 */
function compactedIr(rows: Rows): { session: Session; theirs: Rows } {
  const continued = rows.parts.find((p) => (p.data.metadata as Json | undefined)?.compaction_continue)!;
  const answer = rows.messages.find((m) => m.data.parentID === continued.message_id)!;
  const dropped = new Set([String(continued.message_id), String(answer.id)]);
  const theirs = {
    ...rows,
    messages: rows.messages.filter((m) => !dropped.has(String(m.id))),
    parts: rows.parts.filter((p) => !dropped.has(String(p.message_id))),
  };
  const request = theirs.messages.findIndex((m) =>
    theirs.parts.some((p) => p.message_id === m.id && p.data.type === "compaction")
  );
  const summary = theirs.messages[request + 1]!;
  const plain = {
    ...theirs,
    messages: theirs.messages.filter((m) => m !== summary && m !== theirs.messages[request]),
  };
  const session = irOf(plain);
  // Each message before the request is one IR message (no tool calls there).
  const history = request;
  const [text] = theirs.parts.filter((p) => p.message_id === summary.id && p.data.type === "text");
  const tokens = summary.data.tokens as { input: number; output: number };
  session.threads.push({ id: "compacted", kind: "compacted", messages: session.messages.slice(0, history) });
  session.messages = [
    {
      uid: String(summary.id),
      parentUid: null,
      role: "user",
      kind: "summary",
      timestamp: iso(summary.time_created),
      blocks: [{ type: "text", text: String(text!.data.text) }],
      usage: {
        inputTokens: tokens.input,
        outputTokens: tokens.output,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      },
    },
    ...session.messages.slice(history),
  ];
  return { session, theirs };
}

test("golden compacted: a compacted history is written before OpenCode's own compaction request and summary, field by field as the binary wrote them", async () => {
  const { session, theirs } = compactedIr(storedRows("compacted"));
  const out = encodeOpenCode(session, {
    id: String(theirs.session.id),
    cwd: theirs.cwd,
    now: new Date("2100-01-01T00:00:00Z"),
    stubOpenCalls: false,
  }, {
    projectId: "global",
    worktree: "/",
    version: "1.18.33",
    model: { providerID: "fake", modelID: "fake-model" },
  });
  const messages: EncodedMessage[] = [];
  for await (const m of out.messages) messages.push(m);
  const ourParts = messages.flatMap((m) => m.parts);
  assert.equal(messages.length, theirs.messages.length);
  assert.deepEqual(ourParts.map((p) => p.data.type), theirs.parts.map((p) => p.data.type));
  const ids = [...messages.map((m) => m.message.id), ...ourParts.map((p) => p.id)];
  const theirIds = [...theirs.messages.map((m) => String(m.id)), ...theirs.parts.map((p) => String(p.id))];
  const mapped = <T>(value: T): T => JSON.parse(mapIds(JSON.stringify(value), ids, theirIds)) as T;
  messages.forEach((m, i) => {
    const found = differences(mapped(m.message), theirs.messages[i], "", new Set());
    // The request is not in the IR (only the summary is, with its time): it is stamped after the history.
    const byDesign = theirs.parts.some((p) =>
        p.message_id === theirs.messages[i]!.id && p.data.type === "compaction"
      )
      ? [...MESSAGE_BY_DESIGN, "time_created", "data.time.created"]
      : MESSAGE_BY_DESIGN;
    for (const path of found) assert.ok(byDesign.includes(path), `message ${i}: ${path} differs`);
  });
  ourParts.forEach((p, i) => {
    const found = differences(mapped(p), theirs.parts[i], "", new Set());
    for (const path of found) {
      assert.ok(
        [...PART_BY_DESIGN, ...(p.data.type === "compaction" ? COMPACTION_BY_DESIGN : [])].includes(path),
        `part ${i} (${String(theirs.parts[i]!.data.type)}): ${path} differs`,
      );
    }
  });
});
