/** What the streaming-read tests share: every session streamed for a while, and streamed checked as held. */
import assert from "node:assert/strict";
import type { Session } from "../../lib/ir/schema.ts";
import { holdSession, type SessionStream } from "../../lib/ir/stream.ts";
import { DEFAULT_READ_LIMITS } from "../../lib/io/jsonl.ts";
import type { ReadOptions } from "../../lib/harnesses/types.ts";

/** What a read is given to stream every session, whatever its size. */
export const STREAM_ALL: ReadOptions = { limits: { ...DEFAULT_READ_LIMITS, streamFromBytes: 0 } };

/** `opened` is streamed, and each pass reads its thread again and gives the held session whole again. */
export async function assertStreamedAsHeld(
  label: string,
  opened: SessionStream,
  held: Session,
): Promise<void> {
  assert.ok(!Array.isArray(opened.messages), `${label}: not streamed`);
  assert.deepEqual(await holdSession(opened), held, label);
  assert.deepEqual(await holdSession(opened), held, `${label}, second pass`);
  opened.release?.();
}
