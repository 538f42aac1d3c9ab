/**
 * A handoff's rows in Copilot CLI's index, under its write lock: the id checked again (a running Copilot may
 * have indexed it since planning), a session it replaces (--force) removed, then the rows inserted by `insert`.
 * Run by register.ts on the calling thread, or by index-thread.ts on a worker fed the turns as the events are
 * written (lib/store/write-thread.ts): so it takes only plain data.
 */
import type { DatabaseSync } from "node:sqlite";
import { refuse } from "../refuse.ts";
import { immediateTransaction } from "../../store/sqlite.ts";
import type { Feedback } from "../../io/progress.ts";
import { type IndexedCounts, indexedSession, removeIndexed } from "./session-index.ts";

/** What the write is, besides its rows. */
export interface IndexJob {
  id: string;
  database: string;
  force: boolean;
}

export async function commitIndexed(
  db: DatabaseSync,
  { id, database, force }: IndexJob,
  insert: () => IndexedCounts | Promise<IndexedCounts>,
  feedback?: Feedback,
): Promise<IndexedCounts> {
  return await immediateTransaction(db, async () => {
    const taken = indexedSession(db, id);
    if (taken && !force) throw refuse.exists(id, database);
    if (taken) removeIndexed(db, id);
    return await insert();
  }, feedback);
}
