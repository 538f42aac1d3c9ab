/**
 * The worker side of a write thread (lib/store/write-thread.ts): runs one write, fed the rows' batches as the
 * starting thread makes them, and sends back its progress, its notices and how it ended. Signals reach only the
 * starting thread; it relays them through a shared flag that this thread's checkpoints follow, so a Ctrl-C
 * stops the write between two batches and its transaction rolls back, as on one thread.
 */
import { classified, InputError, InterruptedError, RefusedError } from "../errors.ts";
import { type Feedback, startProgress } from "../io/progress.ts";
import { followInterrupts, yieldAndCheckpoint } from "../io/interrupt.ts";
import { onCrashPoint } from "../io/crash-points.ts";
import { starterPort } from "../runtime.ts";
import type { CarriedError, FromWorker, ToWorker } from "./write-thread-protocol.ts";

/** The batches as they arrive, and what comes after the last. */
export interface Feed<Batch, Last> {
  /** Ends when the starter has sent the last batch; throws when it gave up making them. */
  batches: AsyncIterable<Batch>;
  /** What the starter sent with its end: known once `batches` has ended. */
  last(): Last;
}

export type WriteWork<Setup, Batch, Last, Result> = (
  setup: Setup,
  feed: Feed<Batch, Last>,
  feedback: Feedback,
) => Promise<Result>;

/**
 * The feed's batches, each inserted by `insert` (which says how many rows are in so far), as one progress step
 * `what`. Between batches a Ctrl-C relayed from the starting thread gets in, and the transaction the caller
 * runs this in rolls back. Returns how many rows are in.
 */
export async function insertEachBatch<Batch>(
  feed: Feed<Batch, unknown>,
  feedback: Feedback,
  what: string,
  insert: (batch: Batch) => number,
): Promise<number> {
  const step = startProgress(feedback, what, "rows");
  try {
    let inserted = 0;
    for await (const batch of feed.batches) {
      inserted = insert(batch);
      step.advance(inserted);
      await yieldAndCheckpoint();
    }
    return inserted;
  } finally {
    step.finish();
  }
}

/** The starter gave up making the rows (its own failure is the one reported). */
class AbortedError extends Error {
  override name = "AbortedError";
}

/** Serves one write on this worker thread: call once, from the worker's module. */
export function serveWrite<Setup, Batch, Last, Result>(work: WriteWork<Setup, Batch, Last, Result>): void {
  const port = starterPort();
  const send = (message: FromWorker<Result>) => port.post(message);
  const queue: Batch[] = [];
  const state: { ended: boolean; aborted: boolean; last?: Last; wake?: () => void } = {
    ended: false,
    aborted: false,
  };
  const spent = { startedAt: 0, waitingMs: 0, batches: 0 };
  const wake = () => {
    const waiting = state.wake;
    state.wake = undefined;
    waiting?.();
  };
  async function* batches(): AsyncGenerator<Batch> {
    for (;;) {
      if (state.aborted) throw new AbortedError("the rows were not all made");
      const next = queue.shift();
      if (next !== undefined) {
        send({ type: "taken" });
        spent.batches++;
        yield next;
        continue;
      }
      if (state.ended) return;
      const waitedFrom = performance.now();
      await new Promise<void>((resolve) => state.wake = resolve);
      spent.waitingMs += performance.now() - waitedFrom;
    }
  }
  const feedback: Feedback = {
    progress: (update) => send({ type: "progress", update }),
    notice: (line) => send({ type: "notice", line }),
  };
  const feed: Feed<Batch, Last> = { batches: batches(), last: () => state.last as Last };
  port.listen((data) => {
    const message = data as ToWorker<Setup, Batch, Last>;
    switch (message.type) {
      case "start":
        followInterrupts(message.interrupt);
        if (message.crashGate) relayCrashPoints(message.crashGate, send);
        spent.startedAt = performance.now();
        work(message.setup, feed, feedback).then(
          (result) =>
            send({
              type: "done",
              result,
              spent: {
                totalMs: performance.now() - spent.startedAt,
                waitingMs: spent.waitingMs,
                batches: spent.batches,
              },
            }),
          (error: unknown) => send({ type: "failed", error: carried(error) }),
        );
        return;
      case "batch":
        queue.push(message.batch);
        return wake();
      case "end":
        state.last = message.last;
        state.ended = true;
        return wake();
      case "abort":
        state.aborted = true;
        return wake();
    }
  });
  send({ type: "ready" });
}

/**
 * The crash tests kill the process at a named point of a write (lib/io/crash-points.ts), with a hook the
 * starting thread installs: here each point is sent there, and this thread waits until its hook has run, so a
 * kill there finds the write exactly at the point, as on one thread.
 */
function relayCrashPoints(gate: Int32Array, send: (message: FromWorker<never>) => void): void {
  onCrashPoint((point) => {
    Atomics.store(gate, 0, 0);
    send({ type: "crash-point", point });
    Atomics.wait(gate, 0, 0);
  });
}

function carried(thrown: unknown): CarriedError {
  const error = classified(thrown);
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error && error.stack ? { stack: error.stack } : {};
  if (error instanceof InterruptedError) return { kind: "interrupted", message, signal: error.signal };
  if (error instanceof AbortedError) return { kind: "aborted", message };
  if (error instanceof InputError) return { kind: "input", message, ...stack };
  if (error instanceof RefusedError) return { kind: "refused", message, ...stack };
  return { kind: "other", message, ...stack };
}
