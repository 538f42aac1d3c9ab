/**
 * A store write run on a second thread, fed as the rows are made. A handoff into a store with full-text
 * triggers spends most of its time in SQLite indexing rows (Hermes: 1.7-2.6 s of a 70 MB session's 2.6-3.5),
 * while making the rows takes the calling thread a few tenths of a second more; on one thread the two run one
 * after the other. Here a worker (the module `entry`, which calls serveWrite: write-thread-host.ts) opens the
 * store, takes the write lock and inserts each batch as it arrives, while this thread makes the next.
 *
 * The queue between them is bounded (IN_FLIGHT batches), so memory stays flat whatever the session's length.
 * A signal arriving here is relayed to the worker's checkpoints (lib/io/interrupt.ts), so Ctrl-C rolls the
 * transaction back as on one thread; a `kill -9` ends both threads, and SQLite's journal undoes the rest (the
 * crash tests' hook, installed here, is run here at the worker's crash points while the worker waits).
 * Where workers are unavailable or fail to start, startWriteThread returns undefined and the caller writes on its
 * own thread, to the same result; whether to try at all is the caller's (wantsThread).
 */
import { InputError, InterruptedError, RefusedError } from "../errors.ts";
import type { Feedback } from "../io/progress.ts";
import { relayedInterrupts } from "../io/interrupt.ts";
import { crashHookInstalled, crashPoint } from "../io/crash-points.ts";
import { type ModuleWorker, startModuleWorker } from "../runtime.ts";
import type { CarriedError, FromWorker, ToWorker, WorkerTime } from "./write-thread-protocol.ts";

/**
 * `SESSION_BRIDGE_THREADS=1`: every write on the calling thread; `2`: every write that can be on a second thread
 * is, however short (what tests comparing the two ways use); unset, a write long enough to pay for a thread.
 */
export const THREADS_VARIABLE = "SESSION_BRIDGE_THREADS";

/** Whether a write goes to a second thread: `long` says whether it is long enough to be worth one. */
export function wantsThread(env: NodeJS.ProcessEnv | undefined, long: boolean): boolean {
  const threads = env?.[THREADS_VARIABLE];
  return threads === "2" || (long && threads !== "1");
}

/** Batches sent and not yet taken by the worker: one being written, one waiting. */
const IN_FLIGHT = 2;

export interface WriteThread<Batch, Last, Result> {
  /** Sends a batch; resolves once the worker has room for another, rejects once the write has failed. */
  send(batch: Batch): Promise<void>;
  /** Sends what follows the last batch; resolves with the write's result once it has committed. */
  finish(last: Last): Promise<Result>;
  /** The rows could not all be made: the worker rolls back. Resolves once it has stopped. */
  abort(): Promise<void>;
}

export interface WriteThreadOptions {
  env?: NodeJS.ProcessEnv;
  feedback?: Feedback;
}

/**
 * Starts the write `entry` serves with `setup`, once its worker is listening; undefined when there is to be
 * no second thread (see the top of this file).
 */
export async function startWriteThread<Setup, Batch, Last, Result>(
  entry: string,
  setup: Setup,
  { env = {}, feedback }: WriteThreadOptions = {},
): Promise<WriteThread<Batch, Last, Result> | undefined> {
  // Where it does not start, the write is only slower; SESSION_BRIDGE_DEBUG=1 says which way it went (a binary
  // built without the worker's entry point would otherwise go unnoticed).
  const debug = (line: string) => {
    if (env.SESSION_BRIDGE_DEBUG === "1") feedback?.notice?.(line);
  };
  const notStarted = (reason: string) => {
    debug(`no write thread (${entry}): ${reason}`);
    return undefined;
  };
  let worker: ModuleWorker | undefined;
  try {
    worker = startModuleWorker(entry);
  } catch (error) {
    return notStarted(String(error));
  }
  if (!worker) return notStarted("this runtime has no workers");
  const started = await listening(worker);
  if (typeof started === "string") return notStarted(started);
  debug(`writing on a second thread (${entry})`);
  return feedWorker<Setup, Batch, Last, Result>(started, setup, feedback, (spent, roomWaitMs) =>
    debug(
      `second thread (${entry}): ${spent.batches} batches in ${seconds(spent.totalMs)}, of which ${
        seconds(spent.waitingMs)
      } waiting for rows; this thread waited ${seconds(roomWaitMs)} for room in its queue`,
    ));
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** The worker once it says it listens, or why it did not (its module failed to load). */
function listening(worker: ModuleWorker): Promise<ModuleWorker | string> {
  return new Promise((resolve) => {
    worker.onmessage = (event) => {
      if ((event.data as FromWorker<unknown>).type === "ready") resolve(worker);
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      worker.terminate();
      resolve(event.message ?? "its module did not load");
    };
  });
}

/**
 * The write fed to `worker`; `spent` is told, once it has committed, where the worker's time went and how long
 * this thread waited for room in the queue.
 */
function feedWorker<Setup, Batch, Last, Result>(
  worker: ModuleWorker,
  setup: Setup,
  feedback: Feedback | undefined,
  spent: (worker: WorkerTime, roomWaitMs: number) => void,
): WriteThread<Batch, Last, Result> {
  const post = (message: ToWorker<Setup, Batch, Last>) => worker.postMessage(message);
  const flow: { inFlight: number; room?: () => void; roomWaitMs: number } = { inFlight: 0, roomWaitMs: 0 };
  const crashGate = crashHookInstalled() ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
  const outcome = new Promise<Result>((resolve, reject) => {
    worker.onmessage = (event) => {
      const message = event.data as FromWorker<Result>;
      switch (message.type) {
        case "ready":
          return;
        case "taken": {
          flow.inFlight--;
          const room = flow.room;
          flow.room = undefined;
          return room?.();
        }
        case "progress":
          return feedback?.progress?.(message.update);
        case "notice":
          return feedback?.notice?.(message.line);
        case "crash-point":
          crashPoint(message.point);
          Atomics.store(crashGate!, 0, 1);
          return void Atomics.notify(crashGate!, 0);
        case "done":
          spent(message.spent, flow.roomWaitMs);
          return resolve(message.result);
        case "failed":
          return reject(rebuilt(message.error));
      }
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      reject(new Error(`the store's write thread failed: ${event.message ?? "no reason given"}`));
    };
  });
  const ended = outcome.finally(() => worker.terminate());
  // Settled with nobody waiting yet (the worker refused before the first batch was sent): not unhandled.
  ended.catch(() => {});
  post({ type: "start", setup, interrupt: relayedInterrupts(), ...(crashGate ? { crashGate } : {}) });
  return {
    async send(batch) {
      post({ type: "batch", batch });
      if (++flow.inFlight < IN_FLIGHT) return;
      const waitedFrom = performance.now();
      await Promise.race([new Promise<void>((resolve) => flow.room = resolve), ended]);
      flow.roomWaitMs += performance.now() - waitedFrom;
    },
    finish(last) {
      post({ type: "end", last });
      return ended;
    },
    async abort() {
      post({ type: "abort" });
      await ended.catch(() => {});
    },
  };
}

/** The worker's error as the class it was there, so it reads and exits as on one thread. */
function rebuilt(carried: CarriedError): Error {
  const error = carried.kind === "interrupted"
    ? new InterruptedError(carried.signal!)
    : carried.kind === "input"
    ? new InputError(carried.message)
    : carried.kind === "refused"
    ? new RefusedError(carried.message)
    : new Error(carried.message);
  if (carried.stack) error.stack = carried.stack;
  return error;
}

/**
 * Items sent to a write thread in batches of `size` as they are added one at a time, for a producer that makes
 * them inside steps it cannot pause (an encoder's): between steps it awaits `room()`, which is what keeps the
 * queue bounded, and learns there that the write has failed.
 */
export class BatchedSends<Item, Last, Result> {
  private batch: Item[] = [];
  private waiting?: Promise<void>;

  constructor(private readonly thread: WriteThread<Item[], Last, Result>, private readonly size: number) {}

  add(item: Item): void {
    this.batch.push(item);
    if (this.batch.length >= this.size) this.send();
  }

  /** What to wait for before adding more: the worker's room for the batches sent since the last call. */
  room(): Promise<void> | undefined {
    const waiting = this.waiting;
    this.waiting = undefined;
    return waiting;
  }

  /** Sends the items left and `last`; resolves with the write's result once it has committed. */
  async finish(last: Last): Promise<Result> {
    if (this.batch.length) this.send();
    await this.room();
    return await this.thread.finish(last);
  }

  private send(): void {
    const sent = this.thread.send(this.batch);
    this.batch = [];
    // Thrown where room() or finish() is awaited; until then not an unhandled rejection.
    sent.catch(() => {});
    this.waiting = this.waiting ? Promise.all([this.waiting, sent]).then(() => {}) : sent;
  }
}
