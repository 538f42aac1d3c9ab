/**
 * The worker that writes a long handoff's rows into `opencode.db` (register.ts starts it through
 * lib/store/batched-write.ts): the same transaction as on one thread (commit.ts), each batch's messages and
 * parts inserted as they arrive (lib/store/sqlite.ts ArrivingRows), the session's row after the last. A build
 * entry point of its own (package.json `build`).
 */
import { ArrivingRows, openForWrite, type Row } from "../../store/sqlite.ts";
import { serveWrite } from "../../store/write-thread-host.ts";
import { yieldAndCheckpoint } from "../../io/interrupt.ts";
import { startProgress } from "../../io/progress.ts";
import {
  commitOpenCode,
  type CommitOutcome,
  type Inserted,
  type OpenCodeJob,
  type TableRuns,
} from "./commit.ts";

serveWrite<OpenCodeJob, TableRuns, Row, CommitOutcome>(async (job, feed, feedback) => {
  const db = openForWrite(job.database);
  try {
    const messages = new ArrivingRows(db, "message");
    const parts = new ArrivingRows(db, "part");
    const insertRows = async () => {
      const step = startProgress(feedback, `registering messages and parts in ${job.database}`, "rows");
      try {
        const inserted: Inserted = { message: 0, part: 0 };
        for await (const batch of feed.batches) {
          inserted.message = messages.insert(batch.message);
          inserted.part = parts.insert(batch.part);
          step.advance(inserted.message + inserted.part);
          // Between batches a Ctrl-C relayed from the starting thread gets in, and the transaction rolls back.
          await yieldAndCheckpoint();
        }
        return inserted;
      } finally {
        step.finish();
      }
    };
    return await commitOpenCode(db, job, insertRows, feed.last, feedback);
  } finally {
    db.close();
  }
});
