/** What the streaming-read tests share: every session streamed for a while, and streamed checked as held. */
import assert from "node:assert/strict";
import type { Session } from "../../lib/ir/schema.ts";
import { holdSession, type SessionStream } from "../../lib/ir/stream.ts";
import { setStreamFromBytes } from "../../lib/io/jsonl.ts";

/** Runs `body` with every session streamed, whatever its size. */
export async function streamingAll<T>(body: () => Promise<T>): Promise<T> {
  const previous = setStreamFromBytes(0);
  try {
    return await body();
  } finally {
    setStreamFromBytes(previous);
  }
}

/** `opened` is streamed, and each pass reads its thread again and gives the held session whole again. */
export async function assertStreamedAsHeld(
  label: string,
  opened: SessionStream,
  held: Session,
): Promise<void> {
  assert.ok(!Array.isArray(opened.messages), `${label}: not streamed`);
  assert.deepEqual(await holdSession(opened), held, label);
  assert.deepEqual(await holdSession(opened), held, `${label}, second pass`);
}
