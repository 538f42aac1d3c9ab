/**
 * The worker that writes a long handoff's rows into Copilot CLI's index (register.ts starts it): the same
 * transaction as on one thread (index-commit.ts), its turns inserted a batch at a time as the events file is
 * written, the session's own row after the last (its times are the last event's). A build entry point of its
 * own (package.json `build`).
 */
import { openForWrite } from "../../store/sqlite.ts";
import { insertEachBatch, serveWrite } from "../../store/write-thread-host.ts";
import type { IndexedTurn } from "./encode.ts";
import { commitIndexed, type IndexJob } from "./index-commit.ts";
import {
  checkIndex,
  type IndexedCounts,
  indexedCounts,
  type IndexedSessionRow,
  insertSessionRow,
  insertTurns,
} from "./session-index.ts";

serveWrite<IndexJob, IndexedTurn[], IndexedSessionRow, IndexedCounts>(async (job, feed, feedback) => {
  const db = openForWrite(job.database);
  try {
    checkIndex(db, job.database);
    return await commitIndexed(db, job, async () => {
      // The turns reference the session's row, inserted once their last is in: checked at the commit.
      db.exec("PRAGMA defer_foreign_keys = ON");
      let turns = 0;
      await insertEachBatch(feed, feedback, `registering turns in ${job.database}`, (batch) => {
        turns += insertTurns(db, job.id, batch, turns);
        return turns;
      });
      insertSessionRow(db, feed.last());
      return indexedCounts(turns);
    }, feedback);
  } finally {
    db.close();
  }
});
