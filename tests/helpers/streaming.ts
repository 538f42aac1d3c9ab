/** What the streaming-read tests share: every session streamed for a while, and streamed checked as held. */
import assert from "node:assert/strict";
import type { Session } from "../../lib/ir/schema.ts";
import { holdSession, type SessionStream } from "../../lib/ir/stream.ts";
import { DEFAULT_READ_LIMITS } from "../../lib/io/jsonl.ts";
import type { ReadOptions } from "../../lib/harnesses/types.ts";
import { InputError } from "../../lib/errors.ts";
import { statSync, writeFileSync } from "node:fs";

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

/** `path`, opened streamed as `opened`, rewritten before its next pass: that pass is bad input naming the file. */
export async function assertRewrittenRefused(path: string, opened: SessionStream): Promise<void> {
  writeFileSync(path, "x".repeat(statSync(path).size));
  await assert.rejects(holdSession(opened), (error: Error) => {
    assert.ok(error instanceof InputError, String(error));
    assert.ok(error.message.startsWith(path), error.message);
    return true;
  });
  opened.release?.();
}
