/**
 * The worker that writes a long handoff's rows into `state.db` (insert.ts starts it): the same transaction as
 * on one thread (commit.ts), its messages inserted a batch at a time as they arrive (lib/store/row-batches.ts
 * ArrivingRows), its sessions row after the last. A build entry point of its own (package.json `build`).
 */
import { openForWrite, type Row, type RowRun } from "../../store/sqlite.ts";
import { ArrivingRows } from "../../store/row-batches.ts";
import { insertEachBatch, serveWrite } from "../../store/write-thread-host.ts";
import { type CommitJob, type CommitOutcome, commitSession } from "./commit.ts";

serveWrite<CommitJob, RowRun[], Row, CommitOutcome>(async (job, feed, feedback) => {
  const db = openForWrite(job.database);
  try {
    const arriving = new ArrivingRows(db, "messages");
    // Hermes's full-text triggers make this the long part of a handoff: seconds for a long session.
    const insertMessages = () =>
      insertEachBatch(feed, feedback, `registering in ${job.database}`, (runs) => arriving.insert(runs));
    return await commitSession(db, job, insertMessages, feed.last, feedback);
  } finally {
    db.close();
  }
});
