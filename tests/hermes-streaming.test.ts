/**
 * The Hermes writer takes a streamed thread (lib/ir/stream.ts): rendering reads it twice (the export line's
 * row, which counts the messages, comes before them), planning not at all, committing once, and the lines and
 * rows are exactly those of the same session held whole. Real fixtures (a Claude Code session with an
 * interrupted call, a Hermes session copied) into homes seeded with the real Hermes store; the rows are read
 * back with plain SQL.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { hermes } from "../lib/harnesses/hermes/index.ts";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { readHermesSession } from "../lib/harnesses/hermes/read.ts";
import type { Message, Session } from "../lib/ir/schema.ts";
import { type SessionStream, streamedMessages } from "../lib/ir/stream.ts";
import type { RenderOptions } from "../lib/harnesses/types.ts";
import { wholeLines } from "../lib/io/rendered.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { capturedIds, hermesFixture, preparedForHermes, query, seedHermesHome } from "./helpers/hermes.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const now = new Date("2026-12-01T03:00:00Z");
const id = "20261201_030000_abcdef";
let n = 0;

/** The same thread streamed: every iteration reads it again from the start, one message at a time, counted. */
function streamed(held: Message[]): { messages: SessionStream["messages"]; reads: () => number } {
  let reads = 0;
  const messages = streamedMessages(async function* () {
    reads++;
    for (const m of held) yield structuredClone(m);
  });
  return { messages, reads: () => reads };
}

/** A session prepared for Hermes (handshake, stubs, fitting), its thread held. */
const prepared = (source: Session) => preparedForHermes(source, id, now);

async function rendered(session: SessionStream, options: RenderOptions): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of wholeLines(hermes.store.render(session, options))) lines.push(line);
  return lines;
}

/** Plans and commits into a fresh home seeded with the real store; returns the rows and how often the thread was read. */
async function handedOff(session: SessionStream, options: RenderOptions, reads: () => number) {
  const home = join(root, `h${n++}`);
  const db = seedHermesHome(home, "0.19.0", "text-turns");
  const plan = await hermes.store.plan(session, { ...options, home }, home, false);
  assert.equal(plan.refusal, undefined);
  const readByPlan = reads();
  await plan.commit({ backup: false, force: false, backupFolder: join(home, "bridge", "backups", "b") });
  return {
    db,
    readByPlan,
    readByCommit: reads() - readByPlan,
    rows: {
      session: query(db, "SELECT * FROM sessions WHERE id = ?", id),
      messages: query(db, "SELECT * FROM messages WHERE session_id = ? ORDER BY id", id),
    },
  };
}

const noReads = () => 0;

test("claude-code -> hermes from a streamed thread: the lines and rows of the held one, the thread read twice, then once", async () => {
  const { session, options } = await prepared(
    await readClaudeSession(claudeFixture("interrupted-tool-call")),
  );
  const thread = session.messages;
  assert.ok(thread.some((m) => m.role === "assistant" && m.blocks.some((b) => b.type === "tool_call")));

  const held = await rendered(session, options);
  const render = streamed(thread);
  assert.deepEqual(await rendered({ ...session, messages: render.messages }, options), held);
  assert.equal(render.reads(), 2, "render reads the thread to count, then to write");

  const fromHeld = await handedOff(session, options, noReads);
  const write = streamed(thread);
  const fromStream = await handedOff({ ...session, messages: write.messages }, options, write.reads);
  assert.equal(fromStream.readByPlan, 0, "planning reads no message");
  assert.equal(fromStream.readByCommit, 1, "the commit reads the thread once");
  assert.deepEqual(fromStream.rows, fromHeld.rows);

  // The counts the sessions row was given as the rows went by are those of the rows stored.
  const [row] = fromStream.rows.session;
  const [stored] = query(
    fromStream.db,
    `SELECT count(*) AS messages, sum(COALESCE(json_array_length(tool_calls), 0)) AS calls,
       min(timestamp) AS first FROM messages WHERE session_id = ? AND active = 1`,
    id,
  );
  assert.equal(row!.message_count, stored!.messages);
  assert.equal(row!.tool_call_count, stored!.calls);
  assert.ok(Number(row!.tool_call_count) > 0);
  assert.ok(Number(row!.started_at) <= Number(stored!.first));
  // The export line holds the same messages as the rows stored, the handshake last.
  const line = JSON.parse(held[0]!) as {
    message_count: number;
    messages: { role: string; content: string }[];
  };
  assert.equal(held.length, 1);
  assert.equal(line.messages.length, fromStream.rows.messages.length);
  assert.equal(line.message_count, row!.message_count);
  assert.equal(line.messages.at(-1)!.content, options.handshake);
});

test("hermes -> hermes from a streamed thread copies the source's rows, reading the thread not at all", async () => {
  const scenario = "open-call-resumed";
  const source = `${hermesFixture("0.19.0", `${scenario}.state.db`)}#${capturedIds("0.19.0", scenario)[0]}`;
  const { session, options } = await prepared(await readHermesSession(source));
  assert.ok(
    options.stubOpenCalls && session.pending.openToolCalls.length,
    "a copy with an open call to stub",
  );

  const held = await rendered(session, options);
  const render = streamed(session.messages);
  assert.deepEqual(await rendered({ ...session, messages: render.messages }, options), held);

  const fromHeld = await handedOff(session, options, noReads);
  const write = streamed(session.messages);
  const fromStream = await handedOff({ ...session, messages: write.messages }, options, write.reads);
  assert.deepEqual(fromStream.rows, fromHeld.rows);
  assert.equal(render.reads() + write.reads(), 0, "a copy reads the source's rows, not the thread");
  // The stub answers the open call right after the results its calling row already has.
  const stubbed = fromStream.rows.messages.filter((m) =>
    session.pending.openToolCalls.some((c) => c.callId === m.tool_call_id)
  );
  assert.equal(stubbed.length, session.pending.openToolCalls.length);
});
