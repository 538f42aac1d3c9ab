/**
 * Issue 34's two-thread split, measured as a prototype on the floor's own work (read, parse, stringify, write
 * a JSONL session) before any of it is wired into the conversion: what a worker can take off the main thread
 * when all that crosses between threads is what crosses cheaply. Each variant runs `--runs` times in turn in
 * this process; printed are the best wall time and the process's CPU (every thread's) of each, and what
 * cloning the parsed records costs against parsing them (a worker's objects reach the main thread only as a
 * structured clone). Run as: `bun bench/two-threads/run.ts <session.jsonl> <scratch dir> [--runs 3]`, with
 * the binary's JavaScriptCore options (lib/runtime.ts LONG_WORK_OPTIONS) in the environment.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";
import { eachLine, floorCopy, LineSink } from "../convert-floor.ts";
import { CREDITS, type ReadMessage, type WorkerJob, type WriteMessage } from "./worker.ts";

const WORKER = new URL("./worker.ts", import.meta.url);
const BUFFER_BYTES = 1 << 20;

const startWorker = (job: WorkerJob) => new Worker(WORKER, { workerData: job });

/** Messages from a worker as an async sequence, taken one at a time. */
function messagesOf<T>(worker: Worker): () => Promise<T> {
  const queue: T[] = [];
  let waiting: ((m: T) => void) | undefined;
  worker.on("message", (m: T) => {
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w(m);
    } else queue.push(m);
  });
  return () => queue.length ? Promise.resolve(queue.shift()!) : new Promise((resolve) => (waiting = resolve));
}

/** The floor with its reading in a worker: the main thread parses, stringifies and writes the lines it posts. */
async function readInWorker(path: string, out: string): Promise<number> {
  const inFlight = new Int32Array(new SharedArrayBuffer(4));
  const worker = startWorker({ job: "read", path, inFlight });
  const next = messagesOf<ReadMessage>(worker);
  const sink = new LineSink(out);
  try {
    for (;;) {
      const message = await next();
      if ("end" in message) return message.end;
      Atomics.sub(inFlight, 0, 1);
      Atomics.notify(inFlight, 0);
      for (const line of message.lines) sink.write(JSON.stringify(JSON.parse(line)));
    }
  } finally {
    sink.close();
    await worker.terminate();
  }
}

/**
 * LineSink's work with the writing in a worker: lines are encoded into buffers of a megabyte, each transferred
 * (not copied) to the worker to write and handed back; CREDITS buffers in all, so memory stays flat and the
 * main thread waits only when the worker is that far behind. Synchronous, as LineSink is: a buffer handed back
 * is taken with receiveMessageOnPort, waited for on a shared counter.
 */
class WorkerLineSink {
  readonly #worker: Worker;
  readonly #back: MessagePort;
  readonly #returned = new Int32Array(new SharedArrayBuffer(4));
  readonly #free = Array.from({ length: CREDITS - 1 }, () => new ArrayBuffer(BUFFER_BYTES));
  #buffer = Buffer.from(new ArrayBuffer(BUFFER_BYTES));
  #used = 0;

  constructor(path: string) {
    const { port1, port2 } = new MessageChannel();
    this.#back = port1;
    this.#worker = new Worker(WORKER, {
      workerData: { job: "write", path, back: port2, returned: this.#returned } satisfies WorkerJob,
      transferList: [port2],
    });
  }

  write(line: string): void {
    if (3 * line.length + 1 > BUFFER_BYTES - this.#used) this.#send();
    if (3 * line.length + 1 > BUFFER_BYTES) {
      throw new Error("a line longer than a buffer: not in the prototype");
    }
    this.#used += this.#buffer.write(line, this.#used);
    this.#buffer[this.#used++] = 0x0a;
  }

  close(): Promise<number> {
    this.#send();
    this.#worker.postMessage({ end: true } satisfies WriteMessage);
    while (!("done" in this.#receive()));
    return this.#worker.terminate();
  }

  #send(): void {
    const buffer = this.#buffer.buffer as ArrayBuffer;
    this.#worker.postMessage({ buffer, length: this.#used } satisfies WriteMessage, [buffer]);
    while (!this.#free.length) {
      const back = this.#receive();
      if ("buffer" in back) this.#free.push(back.buffer);
    }
    this.#buffer = Buffer.from(this.#free.pop()!);
    this.#used = 0;
  }

  /** The worker's next message on the way back, waited for. */
  #receive(): { buffer: ArrayBuffer } | { done: true } {
    for (;;) {
      const seen = Atomics.load(this.#returned, 0);
      const received = receiveMessageOnPort(this.#back);
      if (received) return received.message as { buffer: ArrayBuffer } | { done: true };
      Atomics.wait(this.#returned, 0, seen);
    }
  }
}

/** The floor with its writing in a worker (WorkerLineSink). */
async function writeInWorker(path: string, out: string): Promise<number> {
  const sink = new WorkerLineSink(out);
  const lines = eachLine(path, (line) => sink.write(JSON.stringify(JSON.parse(line))));
  await sink.close();
  return lines;
}

interface Figure {
  wall: number;
  cpu: number;
}

async function timed(run: () => unknown): Promise<Figure> {
  const [cpu, wall] = [process.cpuUsage(), performance.now()];
  await run();
  const used = process.cpuUsage(cpu);
  return { wall: (performance.now() - wall) / 1000, cpu: (used.user + used.system) / 1e6 };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { runs: { type: "string", default: "3" } },
  });
  const [path, scratch] = positionals as [string, string];
  const variants: Record<string, () => unknown> = {
    "one thread (the floor)": () => floorCopy(path, join(scratch, "one.jsonl")),
    "reading in a worker": () => readInWorker(path, join(scratch, "read.jsonl")),
    "writing in a worker": () => writeInWorker(path, join(scratch, "write.jsonl")),
  };
  const best = new Map<string, Figure>();
  for (let run = 0; run < Number(values.runs); run++) {
    for (const [name, variant] of Object.entries(variants)) {
      const f = await timed(variant);
      const had = best.get(name);
      if (!had || f.wall < had.wall) best.set(name, f);
    }
  }
  const base = best.get("one thread (the floor)")!;
  for (const [name, f] of best) {
    console.log(
      `${name.padEnd(24)} wall ${f.wall.toFixed(3)} s (${(f.wall / base.wall).toFixed(2)}x), cpu ${
        f.cpu.toFixed(3)
      } s (${(f.cpu / base.cpu).toFixed(2)}x)`,
    );
  }
  // What crossing threads as objects would cost: parsing the records against cloning them.
  const records = readFileSync(path, "utf8").split("\n").filter(Boolean);
  let values_: unknown[] = [];
  const parse = await timed(() => (values_ = records.map((l) => JSON.parse(l))));
  const clone = await timed(() => {
    for (let i = 0; i < values_.length; i += 500) structuredClone(values_.slice(i, i + 500));
  });
  console.log(
    `parsing the records ${parse.cpu.toFixed(3)} s cpu; cloning them (batches of 500) ${
      clone.cpu.toFixed(3)
    } s (${(clone.cpu / parse.cpu).toFixed(2)}x)`,
  );
}

await main();
