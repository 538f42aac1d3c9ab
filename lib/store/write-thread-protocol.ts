/**
 * The messages between a write thread (lib/store/write-thread.ts) and the worker running its transaction
 * (lib/store/write-thread-host.ts). Everything in them is structured-cloneable: plain data, no classes.
 */
import type { ProgressUpdate } from "../io/progress.ts";
import type { InterruptSignal } from "../errors.ts";
import type { CrashPoint } from "../io/crash-points.ts";

/** From the thread that makes the rows to the worker. */
export type ToWorker<Setup, Batch, Last> =
  | {
    type: "start";
    setup: Setup;
    interrupt: Int32Array;
    /** Set when the starter has a crash hook: the worker stops at each crash point until the starter has run it. */
    crashGate?: Int32Array;
  }
  | { type: "batch"; batch: Batch }
  | { type: "end"; last: Last }
  /** The rows could not all be made: the worker rolls back what it did. */
  | { type: "abort" };

/** From the worker to the thread that makes the rows. */
export type FromWorker<Result> =
  /** Loaded and listening. */
  | { type: "ready" }
  /** One more batch taken off its queue (a slot free for the next). */
  | { type: "taken" }
  | { type: "progress"; update: ProgressUpdate }
  | { type: "notice"; line: string }
  /** The worker has reached a crash point and waits on the gate until the starter has run its hook. */
  | { type: "crash-point"; point: CrashPoint }
  | { type: "done"; result: Result; spent: WorkerTime }
  | { type: "failed"; error: CarriedError };

/**
 * An error as it crosses threads: its kind decides the class it is made again as on the other side, and so the
 * exit code and the one line the user reads.
 */
export interface CarriedError {
  kind: "input" | "refused" | "interrupted" | "aborted" | "other";
  message: string;
  signal?: InterruptSignal;
  stack?: string;
}

/** Where a worker's time went, from its start to its commit (SESSION_BRIDGE_DEBUG=1 prints it). */
export interface WorkerTime {
  /** Milliseconds from the start message to the commit. */
  totalMs: number;
  /** Of those, waiting for the next batch: time the other thread was still making it. */
  waitingMs: number;
  batches: number;
}
