/**
 * The worker side of the two-thread prototype (bench/two-threads/run.ts): either it reads a JSONL file and
 * posts its lines' text in batches of about a megabyte, no more than CREDITS batches ahead of the main thread
 * (a shared counter it waits on), or it writes the buffers the main thread transfers to it and hands each back.
 */
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { type MessagePort, parentPort, workerData } from "node:worker_threads";
import { eachLine } from "../convert-floor.ts";

export const CREDITS = 4;
const BATCH_CHARS = 1 << 20;

export type WorkerJob =
  | { job: "read"; path: string; inFlight: Int32Array }
  | { job: "write"; path: string; back: MessagePort; returned: Int32Array };

/** What the reading worker posts: a batch of lines, or the end of the file. */
export type ReadMessage = { lines: string[] } | { end: number };
/** What the writing worker is sent: a filled buffer to write, or the end (then it syncs and says done). */
export type WriteMessage = { buffer: ArrayBuffer; length: number } | { end: true };

function readJob(path: string, inFlight: Int32Array): void {
  let batch: string[] = [];
  let chars = 0;
  const post = () => {
    // Bounded: wait while CREDITS batches are unread (the main thread counts them down as it takes them).
    for (let n; (n = Atomics.load(inFlight, 0)) >= CREDITS;) Atomics.wait(inFlight, 0, n);
    Atomics.add(inFlight, 0, 1);
    parentPort!.postMessage({ lines: batch } satisfies ReadMessage);
    batch = [];
    chars = 0;
  };
  const lines = eachLine(path, (line) => {
    batch.push(line);
    chars += line.length;
    if (chars >= BATCH_CHARS) post();
  });
  if (batch.length) post();
  parentPort!.postMessage({ end: lines } satisfies ReadMessage);
}

/** Each buffer written is handed back on `back`, then `returned` counted up (the main thread may wait on it). */
function writeJob(path: string, back: MessagePort, returned: Int32Array): void {
  const fd = openSync(path, "w");
  const handBack = (message: { buffer: ArrayBuffer } | { done: true }, transfer: ArrayBuffer[]) => {
    back.postMessage(message, transfer);
    Atomics.add(returned, 0, 1);
    Atomics.notify(returned, 0);
  };
  parentPort!.on("message", (message: WriteMessage) => {
    if ("end" in message) {
      fsyncSync(fd);
      closeSync(fd);
      handBack({ done: true }, []);
      parentPort!.close();
      return;
    }
    const bytes = new Uint8Array(message.buffer, 0, message.length);
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
    handBack({ buffer: message.buffer }, [message.buffer]);
  });
}

const job = workerData as WorkerJob | undefined;
if (job?.job === "read") readJob(job.path, job.inFlight);
if (job?.job === "write") writeJob(job.path, job.back, job.returned);
