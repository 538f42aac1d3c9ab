/**
 * Which compacted history a writer that keeps it writes (lib/ir/compacted.ts): the compacted threads, when the
 * live thread holds the summary standing for them.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { compactionOf } from "../lib/ir/compacted.ts";
import { emptySession } from "../lib/ir/session.ts";
import type { Message, Session } from "../lib/ir/schema.ts";
import { streamedMessages } from "../lib/ir/stream.ts";
import { encodeCopilot, newSummary } from "../lib/harnesses/copilot-cli/encode.ts";

/** The history a writer that keeps it writes (none: the history stays out). */
const compactedHistory = async (session: Parameters<typeof compactionOf>[0]) => [
  ...((await compactionOf(session))?.history ?? []),
];

const said = (uid: string, role: Message["role"], kind: Message["kind"], text: string): Message => ({
  uid,
  parentUid: null,
  role,
  kind,
  blocks: [{ type: "text", text }],
});

function compacted(live: Message[]): Session {
  const session = emptySession({ harness: "claude-code", id: "s", models: [] });
  session.threads.push({
    id: "compacted",
    kind: "compacted",
    messages: [
      said("h1", "user", "turn", "HISTORY-PROMPT"),
      said("h2", "assistant", "turn", "HISTORY-ANSWER"),
    ],
  });
  session.messages = live;
  return session;
}

const AFTER = [said("a1", "user", "turn", "LIVE-PROMPT"), said("a2", "assistant", "turn", "LIVE-ANSWER")];

test("a compacted history is written only when the live thread holds the summary standing for it, held or streamed", async () => {
  const withSummary = compacted([said("s", "user", "summary", "SUMMARY"), ...AFTER]);
  assert.deepEqual((await compactedHistory(withSummary)).map((m) => m.uid), ["h1", "h2"]);
  const streamed = {
    ...withSummary,
    messages: streamedMessages(async function* () {
      yield* withSummary.messages;
    }),
  };
  assert.deepEqual((await compactedHistory(streamed)).map((m) => m.uid), ["h1", "h2"]);
  assert.deepEqual(await compactedHistory(compacted(AFTER)), []);
});

test("a compacted history whose live thread keeps turns before its summary (Codex's replacement history) is not written: a compaction record before them would hide them from the model", async () => {
  const kept = compacted([AFTER[0]!, said("s", "user", "summary", "SUMMARY"), AFTER[1]!]);
  assert.deepEqual(await compactedHistory(kept), []);
  const context = compacted([
    said("c", "user", "context", "HARNESS-CONTEXT"),
    said("s", "user", "summary", "S"),
  ]);
  assert.deepEqual((await compactedHistory(context)).map((m) => m.uid), ["h1", "h2"]);
});

test("a compacted history with no summary in the live thread stays out of the written session, as before: it would reach the model whole", async () => {
  const lines: string[] = [];
  const options = {
    id: "00000000-0000-4000-8000-000000000000",
    cwd: "/p",
    now: new Date(),
    stubOpenCalls: false,
  };
  const settings = { version: "1.0.102", modelFor: () => undefined };
  for await (
    const l of encodeCopilot(compacted(AFTER), options, settings, newSummary("2026-01-01T00:00:00.000Z"))
  ) {
    lines.push(l);
  }
  const text = lines.join("\n");
  assert.ok(text.includes("LIVE-PROMPT"));
  assert.ok(
    !text.includes("HISTORY-PROMPT") && !text.includes("compaction"),
    "no history, no compaction record",
  );
});
