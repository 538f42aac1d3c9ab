/**
 * Hermes's export line holds a whole session, so it is written in parts (lib/io/rendered.ts): from a streamed
 * thread it is read twice (to count, then to write) and never held. Whatever path makes the line, the bytes
 * written are those of the line made whole: held or streamed thread, redacted or not, a copy of Hermes rows
 * with stubs and the handshake, and a compression chain's lineage shape.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { closeSync, openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hermes } from "../lib/harnesses/hermes/index.ts";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { readHermesSession } from "../lib/harnesses/hermes/read.ts";
import type { Message, Session } from "../lib/ir/schema.ts";
import { type SessionStream, streamedMessages } from "../lib/ir/stream.ts";
import type { RenderOptions } from "../lib/harnesses/types.ts";
import { publishFile, writeLines } from "../lib/io/publish.ts";
import { linePart, type Rendered, wholeLines } from "../lib/io/rendered.ts";
import { redactingLines, type RedactionTally, redactJsonLine } from "../lib/observe/redact-transcript.ts";
import { RefusedError } from "../lib/errors.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { capturedIds, hermesFixture, preparedForHermes } from "./helpers/hermes.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const now = new Date("2026-12-01T03:00:00Z");
const id = "20261201_030000_abcdef";
const SECRET = "AKIAIOSFODNN7EXAMPLE";
let n = 0;

/** The thread streamed: read again from the start on every iteration. */
function streamed(session: SessionStream, held: Message[]): SessionStream {
  return {
    ...session,
    messages: streamedMessages(async function* () {
      yield* structuredClone(held);
    }),
  };
}

async function items<T>(rendered: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of rendered) out.push(item);
  return out;
}

/** What publishing `rendered` writes. */
async function published(rendered: AsyncIterable<Rendered>): Promise<string> {
  const path = join(root, `out-${n++}.jsonl`);
  await publishFile(path, rendered, false);
  return readFileSync(path, "utf8");
}

async function* replayed(list: Rendered[]): AsyncGenerator<Rendered> {
  yield* list;
}

/** A Claude Code session with a secret planted in its first user words, prepared for Hermes. */
async function foreign(): Promise<{ session: Session; options: RenderOptions }> {
  const source = await readClaudeSession(claudeFixture("interrupted-tool-call"));
  const first = source.messages.find((m) => m.role === "user" && m.blocks.some((b) => b.type === "text"))!;
  first.blocks.push({ type: "text", text: `deploy with ${SECRET} "quoted", then go` });
  return await preparedForHermes(source, id, now);
}

test("a Hermes export line from a streamed thread is written in parts, byte for byte the held one's", async () => {
  const { session, options } = await foreign();
  const held = await items(hermes.store.render(session, options));
  const fromStream = await items(hermes.store.render(streamed(session, session.messages), options));
  // The row's head, then each message, the line ended by the row's tail.
  assert.ok(held.length > 2 && typeof held[0] === "object" && typeof held.at(-1) === "string");
  assert.deepEqual(fromStream, held);
  const [line] = await items(wholeLines(replayed(held)));
  const parsed = JSON.parse(line!) as { message_count: number; messages: { content: unknown }[] };
  assert.equal(parsed.message_count, parsed.messages.length);
  assert.equal(parsed.messages.at(-1)!.content, options.handshake);
  assert.equal(await published(replayed(held)), `${line}\n`);
});

test("--redact on a line in parts redacts as on the whole line, the count included", async () => {
  const { session, options } = await foreign();
  const whole = (await items(wholeLines(hermes.store.render(session, options))))[0]!;
  assert.ok(whole.includes(SECRET));
  const expected: RedactionTally = { count: 0 };
  const redacted = redactJsonLine(whole, expected);
  assert.ok(expected.count > 0 && !redacted.includes(SECRET));
  for (const s of [session, streamed(session, session.messages)]) {
    const tally: RedactionTally = { count: 0 };
    assert.equal(await published(redactingLines(hermes.store.render(s, options), tally)), `${redacted}\n`);
    assert.equal(tally.count, expected.count);
  }
});

test("a thread that changes between the two reads is refused, not written with a row that miscounts it", async () => {
  const { session, options } = await foreign();
  let reads = 0;
  const growing = streamedMessages(async function* () {
    yield* structuredClone(session.messages);
    if (reads++) yield structuredClone(session.messages.find((m) => m.role === "user")!);
  });
  await assert.rejects(
    () => published(hermes.store.render({ ...session, messages: growing }, options)),
    (e: unknown) => e instanceof RefusedError && /changed while it was written/.test(e.message),
  );
});

/** Hermes rows exported as stored, with a new id, title and cwd, the open calls stubbed and the handshake. */
async function copied(source: string): Promise<{ lines: string[]; parts: number }> {
  const session = await readHermesSession(source);
  const options: RenderOptions = {
    id,
    cwd: "/elsewhere",
    title: "Copied",
    now,
    stubOpenCalls: true,
    handshake: "<session-bridge-handoff>\ncontinue\n</session-bridge-handoff>",
  };
  const list = await items(hermes.store.render(session, options));
  assert.deepEqual(await items(hermes.store.render(streamed(session, session.messages), options)), list);
  return { lines: await items(wholeLines(replayed(list))), parts: list.length };
}

test("Hermes rows exported as stored come in parts: the stubs and the handshake numbered after the stored ids", async () => {
  const scenario = "open-call-resumed";
  const { lines, parts } = await copied(
    `${hermesFixture("0.19.0", `${scenario}.state.db`)}#${capturedIds("0.19.0", scenario)[0]}`,
  );
  assert.equal(lines.length, 1);
  assert.ok(parts > 2);
  const line = JSON.parse(lines[0]!) as {
    id: string;
    title: string;
    message_count: number;
    messages: { id: number; role: string; tool_call_id: string | null; content: unknown }[];
  };
  assert.equal(line.id, id);
  assert.equal(line.title, "Copied");
  const ids = line.messages.map((m) => m.id);
  assert.equal(new Set(ids).size, ids.length, "every message has its own id");
  assert.match(String(line.messages.at(-1)!.content), /continue/);
  assert.ok(line.messages.at(-1)!.id === Math.max(...ids), "the handshake takes the id after the highest");
});

test("a compression chain exports in its lineage shape: every segment's messages, then each segment with its own", async () => {
  const scenario = "compressed";
  const live = capturedIds("0.19.0", scenario).at(-1)!;
  const { lines } = await copied(`${hermesFixture("0.19.0", `${scenario}.state.db`)}#${live}`);
  const line = JSON.parse(lines[0]!) as {
    message_count: number;
    messages: unknown[];
    segments: { messages: unknown[] }[];
    lineage_session_ids: string[];
  };
  assert.ok(line.segments.length > 1);
  assert.equal(line.lineage_session_ids.length, line.segments.length);
  assert.equal(line.message_count, line.messages.length);
  assert.deepEqual(line.segments.flatMap((s) => s.messages), line.messages);
});

test("writeLines: parts are written with no newline, a line ends them, a part longer than the buffer in slices", async () => {
  const long = `"${"é".repeat(1_500_000)}"`;
  const path = join(root, "parts.txt");
  const fd = openSync(path, "w");
  try {
    await writeLines(fd, replayed(["first", linePart("[1, "), linePart(long), ", 2]", linePart("{"), "}"]));
  } finally {
    closeSync(fd);
  }
  assert.equal(readFileSync(path, "utf8"), `first\n[1, ${long}, 2]\n{}\n`);
  assert.deepEqual(await items(wholeLines(replayed([linePart("a"), linePart("b"), "c", "d"]))), ["abc", "d"]);
});
