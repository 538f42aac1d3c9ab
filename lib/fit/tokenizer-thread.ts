/**
 * The tokenizer on a second thread (issue 34): OpenAI's tables take 0.2-0.5 s to load, on a core of their own
 * while the session is read, then count for the fit synchronously. A count is one round trip: the text is
 * posted, the main thread waits on a shared word the thread sets once it has counted (only strings cross,
 * which is cheap). Started by a conversion before it reads a long session (preload.ts), given to its fit and
 * stopped after; where a thread cannot start or load, the fit loads the tokenizer in its own thread.
 */
import { Worker } from "node:worker_threads";

/** The shared word's states: a count asked, a count ready (in the second word), or the thread failed. */
export const ASKED = 0;
export const COUNTED = 1;
export const FAILED = 2;
/** What the thread posts once its tables are loaded (or why it could not load them). */
export type ThreadNews = { ready: true } | { ready: false; error: string };

/** How long a count may take before the thread is taken for dead (a megabyte takes under a second). */
const COUNT_TIMEOUT_MS = 120_000;

export class TokenizerThread {
  readonly #worker: Worker;
  readonly #shared = new Int32Array(new SharedArrayBuffer(8));
  readonly #loaded: Promise<boolean>;

  constructor(entry: URL = new URL("./tokenizer-worker.ts", import.meta.url)) {
    this.#worker = new Worker(entry, { workerData: { shared: this.#shared } });
    // A thread loading for a fit that never asks (its conversion failed) does not keep the process alive.
    this.#worker.unref();
    this.#loaded = new Promise((resolve) => {
      this.#worker.once("message", (news: ThreadNews) => resolve(news.ready));
      this.#worker.once("error", () => resolve(false));
      this.#worker.once("exit", () => resolve(false));
    });
  }

  /** Whether its tables loaded (false: it failed, and has stopped). */
  async loaded(): Promise<boolean> {
    // Awaited, its news must keep the process alive (Deno ends an event loop only unref'd threads hold).
    this.#worker.ref();
    const ready = await this.#loaded;
    this.#worker.unref();
    if (!ready) await this.stop();
    return ready;
  }

  /** The tokens of `text`, counted on the thread (loaded() first). */
  count(text: string): number {
    Atomics.store(this.#shared, 0, ASKED);
    this.#worker.postMessage(text);
    Atomics.wait(this.#shared, 0, ASKED, COUNT_TIMEOUT_MS);
    if (Atomics.load(this.#shared, 0) !== COUNTED) throw new Error("the tokenizer thread stopped counting");
    return this.#shared[1]!;
  }

  async stop(): Promise<void> {
    await this.#worker.terminate();
  }
}
