/**
 * The worker that writes a long handoff's rows into `opencode.db` (register.ts starts it through
 * lib/store/batched-write.ts): the same transaction as on one thread (commit.ts), each batch's messages and
 * parts inserted as they arrive (lib/store/sqlite.ts ArrivingRows), the session's row after the last. A build
 * entry point of its own (package.json `build`).
 */
import { ArrivingRows, openForWrite, type Row } from "../../store/sqlite.ts";
import { insertEachBatch, serveWrite } from "../../store/write-thread-host.ts";
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
    const inserted: Inserted = { message: 0, part: 0 };
    const insertRows = async () => {
      await insertEachBatch(feed, feedback, `registering messages and parts in ${job.database}`, (batch) => {
        inserted.message = messages.insert(batch.message);
        inserted.part = parts.insert(batch.part);
        return inserted.message + inserted.part;
      });
      return inserted;
    };
    return await commitOpenCode(db, job, insertRows, feed.last, feedback);
  } finally {
    db.close();
  }
});
