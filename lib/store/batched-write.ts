/**
 * A store write of rows made one at a time, on a second thread when they are many (lib/store/write-thread.ts):
 * the first batch is made first; if it filled (or SESSION_BRIDGE_THREADS=2 says so), a worker is started and
 * fed it and every batch after it, each sent as soon as it is made; otherwise, or where no worker starts, the
 * write is done on this thread, given every row. A thread's start (a few milliseconds) is worth it only for a
 * write of seconds, which a batch of rows into a store with full-text indexes announces.
 */
import { startWriteThread, wantsThread, type WriteThreadOptions } from "./write-thread.ts";

export interface BatchedWrite<Row, Setup, Batch, Last, Result> {
  /** The worker's module (it calls serveWrite), from the repository's root, and what it is started with. */
  entry: string;
  setup: Setup;
  /** Rows a batch holds, and so the fewest that start a worker. */
  batchRows: number;
  /** A batch as the worker takes it: plain data. */
  batchOf(rows: Row[]): Batch;
  /** What the worker is sent after the last batch, asked once every row is made. */
  last(): Last;
  /** The same write on this thread, given every row. */
  here(rows: AsyncIterable<Row>): Promise<Result>;
}

export async function writeBatched<Row, Setup, Batch, Last, Result>(
  rows: AsyncIterable<Row>,
  write: BatchedWrite<Row, Setup, Batch, Last, Result>,
  options: WriteThreadOptions,
): Promise<Result> {
  const made = rows[Symbol.asyncIterator]();
  const first = await nextRows(made, write.batchRows);
  const threaded = wantsThread(options.env, first.length === write.batchRows)
    ? await onThread(first, made, write, options)
    : undefined;
  return threaded ? threaded.result : await write.here(following(first, made));
}

/**
 * On a worker: each batch sent as soon as it is made, `last` after the last. Undefined when no worker starts
 * here. If making the rows fails, the worker rolls back and that failure is the one thrown; if the write fails
 * (a refusal under the lock), that is.
 */
async function onThread<Row, Setup, Batch, Last, Result>(
  first: Row[],
  rest: AsyncIterator<Row>,
  write: BatchedWrite<Row, Setup, Batch, Last, Result>,
  options: WriteThreadOptions,
): Promise<{ result: Result } | undefined> {
  const thread = await startWriteThread<Setup, Batch, Last, Result>(write.entry, write.setup, options);
  if (!thread) return undefined;
  try {
    await thread.send(write.batchOf(first));
    for (
      let batch = await nextRows(rest, write.batchRows);
      batch.length;
      batch = await nextRows(rest, write.batchRows)
    ) {
      await thread.send(write.batchOf(batch));
    }
  } catch (error) {
    await thread.abort();
    throw error;
  }
  return { result: await thread.finish(write.last()) };
}

/** The next `count` rows, or as many as are left. */
async function nextRows<Row>(rows: AsyncIterator<Row>, count: number): Promise<Row[]> {
  const batch: Row[] = [];
  while (batch.length < count) {
    const next = await rows.next();
    if (next.done) break;
    batch.push(next.value);
  }
  return batch;
}

/** `first`, then the rest of `rows`. */
async function* following<Row>(first: Row[], rows: AsyncIterator<Row>): AsyncGenerator<Row> {
  yield* first;
  for (let next = await rows.next(); !next.done; next = await rows.next()) yield next.value;
}
