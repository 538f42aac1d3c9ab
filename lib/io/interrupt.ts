/**
 * Ctrl-C (SIGINT), SIGTERM and SIGHUP while a store is being written. By default they end the process on the
 * spot, which would leave a temp file in the store, a half-written backup, or a handoff the undo ledger never
 * heard of. While `holdingSignals` runs, a signal is only recorded; the write stops at its next checkpoint
 * (between streamed chunks, between lock attempts, after a backup) by throwing InterruptedError, and the
 * ordinary failure paths roll everything back. After the commit there are no checkpoints: a signal that
 * arrives then lets the operation finish and be recorded, and is reported afterwards.
 */
import { InterruptedError, type InterruptSignal } from "../errors.ts";

const SIGNALS: InterruptSignal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

let received: InterruptSignal | undefined;
let holders = 0;

/** Flags shared with worker threads writing for this hold (relayedInterrupts), each set to the signal's number. */
const relays = new Set<Int32Array>();
/** In a worker thread: the flag its starter sets when a signal arrives there (followInterrupts). */
const followed: { flag?: Int32Array } = {};

const record = (signal: InterruptSignal) => {
  received ??= signal;
  for (const flag of relays) Atomics.store(flag, 0, SIGNALS.indexOf(received) + 1);
};

export async function holdingSignals<T>(work: () => Promise<T>): Promise<T> {
  // A signal belongs to the write it arrived during: a program that makes several (the library API in a TUI)
  // must not see its next write refused by one that is over. It stays readable until the next write starts.
  if (holders++ === 0) {
    received = undefined;
    for (const s of SIGNALS) process.on(s, record);
  }
  try {
    return await work();
  } finally {
    if (--holders === 0) {
      for (const s of SIGNALS) process.off(s, record);
      relays.clear();
    }
  }
}

/**
 * A flag a worker thread writing for the current hold follows (followInterrupts): signals reach only the main
 * thread, so it is how one that arrives there stops the worker's write at its next checkpoint.
 */
export function relayedInterrupts(): Int32Array {
  const flag = new Int32Array(new SharedArrayBuffer(4));
  if (holders === 0) return flag;
  relays.add(flag);
  if (received) record(received);
  return flag;
}

/** In a worker thread: its checkpoints throw once its starter's flag (relayedInterrupts) is set. */
export function followInterrupts(flag: Int32Array): void {
  followed.flag = flag;
}

/**
 * Throws if a signal has arrived while signals are held: called only where stopping still lets the caller roll
 * back. Outside a hold (a listing's read) it never throws: a signal then ends the process as usual.
 */
export function checkpoint(): void {
  if (received && holders > 0) throw new InterruptedError(received);
  const relayed = followed.flag ? Atomics.load(followed.flag, 0) : 0;
  if (relayed) throw new InterruptedError(SIGNALS[relayed - 1]!);
}

/**
 * Lets pending signal handlers run (they wait for the event loop, which a long synchronous stretch of work
 * never reaches), then checks. A timer, not setImmediate: Deno polls its signal listeners only on a turn of the
 * loop that waits, so after setImmediate a Ctrl-C during a short store write was seen only once it committed.
 */
export async function yieldAndCheckpoint(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 0));
  checkpoint();
}

/** The signal that arrived while signals were held, if any (for the exit code after a completed write). */
export function receivedSignal(): InterruptSignal | undefined {
  return received;
}
