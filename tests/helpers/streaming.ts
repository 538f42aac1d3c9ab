/** What the streaming-read tests share: every session streamed for a while, and streamed checked as held. */
import assert from "node:assert/strict";
import type { Session } from "../../lib/ir/schema.ts";
import { holdSession, type SessionStream } from "../../lib/ir/stream.ts";
import { DEFAULT_READ_LIMITS } from "../../lib/io/jsonl.ts";
import type { ReadOptions } from "../../lib/harnesses/types.ts";
import { InputError } from "../../lib/errors.ts";
import { statSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";

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

/** `opened`'s file or database (`where`) changed by `change` before its next pass: that pass is bad input naming it. */
export async function assertChangeRefused(
  where: string,
  opened: SessionStream,
  change: () => void,
): Promise<void> {
  change();
  await assert.rejects(holdSession(opened), (error: Error) => {
    assert.ok(error instanceof InputError, String(error));
    assert.ok(error.message.startsWith(where), error.message);
    return true;
  });
  opened.release?.();
}

/** `path`, opened streamed as `opened`, rewritten before its next pass: that pass is bad input naming the file. */
export const assertRewrittenRefused = (path: string, opened: SessionStream): Promise<void> =>
  assertChangeRefused(path, opened, () => writeFileSync(path, "x".repeat(statSync(path).size)));

/**
 * `opened`'s threads kept apart (of `kind`, else all) are read from spill files, not held, and are `held`'s;
 * once `opened` is released none can be read. Returns how many there were.
 */
export function assertSpilledApart(
  label: string,
  opened: SessionStream,
  held: Session,
  kind?: string,
): number {
  const kept = opened.threads.filter((t) => kind === undefined || t.kind === kind);
  for (const thread of kept) {
    assert.ok(!Array.isArray(thread.messages), `${label}: ${thread.id} is held`);
    const heldThread = held.threads.find((t) => t.id === thread.id);
    assert.deepEqual([...thread.messages], heldThread?.messages, `${label}: ${thread.id}`);
  }
  assert.ok(!kept.length || opened.release, `${label}: its spills are released by nothing`);
  opened.release?.();
  for (const thread of kept) {
    assert.throws(() => [...thread.messages], /after the spill was closed/, `${label}: ${thread.id}`);
  }
  return kept.length;
}

/** Runs `sql` on `db` from a connection of its own, as another program would between two passes. */
export function changeDatabase(db: string, sql: string, ...params: (string | number)[]): void {
  const conn = new DatabaseSync(db);
  try {
    conn.prepare(sql).run(...params);
  } finally {
    conn.close();
  }
}
