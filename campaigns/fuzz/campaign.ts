/**
 * The campaign: mutants handed to a few worker threads, each mutant under a watchdog. A mutant that does not
 * answer within its budget is a hang: its worker is stopped and replaced, and the campaign goes on. An error a
 * worker could not catch (thrown later, outside the mutant's promise) is a crash of the mutant it was running.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { Exercised } from "./exercise.ts";
import type { WorkerMessage, WorkerSetup } from "./worker.ts";

export interface CampaignOptions extends Omit<WorkerSetup, "scratch"> {
  /** The mutants' indexes. */
  indexes: number[];
  workers: number;
  /** How long one mutant may take before it counts as a hang. */
  budgetMs: number;
  /** Called as each mutant is judged (progress, printing crashes as they come). */
  onResult?: (result: MutantResult) => void;
}

export interface MutantResult extends Exercised {
  index: number;
  fixture?: string;
  mutation?: string;
  saved?: string;
}

const WORKER = new URL("./worker.ts", import.meta.url);

export async function runCampaign(options: CampaignOptions): Promise<MutantResult[]> {
  const scratch = mkdtempSync(join(tmpdir(), "sb-fuzz-"));
  const queue = [...options.indexes];
  const results: MutantResult[] = [];
  const { indexes: _indexes, workers: _workers, budgetMs: _budget, onResult: _onResult, ...setup } = options;
  try {
    const lanes = Array.from(
      { length: Math.max(1, Math.min(options.workers, queue.length)) },
      (_, lane) => runLane({ ...setup, scratch: join(scratch, `worker-${lane}`) }),
    );
    await Promise.all(lanes);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return results.sort((a, b) => a.index - b.index);

  function record(result: MutantResult): void {
    results.push(result);
    options.onResult?.(result);
  }

  /** One worker at a time on this lane, taking mutants from the shared queue; a stopped worker is replaced. */
  async function runLane(setup: WorkerSetup): Promise<void> {
    while (queue.length) {
      const stopped = await runWorker(setup);
      if (!stopped) return;
    }
  }

  /** Runs mutants on one worker until the queue is empty (false) or the worker had to be stopped (true). */
  function runWorker(setup: WorkerSetup): Promise<boolean> {
    return new Promise((resolve, reject) => {
      const worker = new Worker(WORKER, { workerData: setup });
      let current: MutantResult | undefined;
      let watchdog: ReturnType<typeof setTimeout> | undefined;
      let ready = false;
      let finished = false;
      const finish = (stopped: boolean, why?: string) => {
        if (finished) return;
        finished = true;
        clearTimeout(watchdog);
        void worker.terminate();
        // A worker that never started would only fail again: the campaign cannot run at all.
        if (!ready) reject(new Error(`the fuzz worker did not start: ${why ?? "no reason given"}`));
        else resolve(stopped);
      };
      const next = () => {
        const index = queue.shift();
        if (index === undefined) return finish(false);
        current = { index, findings: [], loaded: 0, converted: 0 };
        watchdog = setTimeout(() => {
          record({
            ...current!,
            findings: [{ step: "watchdog", problem: `no answer in ${options.budgetMs} ms: a hang` }],
          });
          current = undefined;
          finish(true);
        }, options.budgetMs);
        worker.postMessage(index);
      };
      worker.on("message", (message: WorkerMessage) => {
        if (message.type === "ready") {
          ready = true;
          return next();
        }
        if (!current || message.index !== current.index) return;
        if (message.type === "mutated") {
          current = { ...current, fixture: message.fixture, mutation: message.mutation };
          if (message.saved) current.saved = message.saved;
          return;
        }
        clearTimeout(watchdog);
        const { type: _type, index: _index, ...exercised } = message;
        record({ ...current, ...exercised });
        current = undefined;
        next();
      });
      const lost = (problem: string) => {
        if (current) record({ ...current, findings: [...current.findings, { step: "worker", problem }] });
        current = undefined;
        finish(true, problem);
      };
      worker.on(
        "error",
        (error) => lost(`uncaught outside the mutant's calls: ${String(error).split("\n")[0]}`),
      );
      worker.on("exit", (code) => lost(`the worker exited (${code})`));
    });
  }
}
