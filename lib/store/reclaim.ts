/**
 * Giving back the space rows took once they are deleted. SQLite keeps a deleted row's pages as free pages of
 * the file, and an FTS5 index records a deletion as more index (a tombstone segment) until its segments are
 * merged: after the undo of a handoff of a 320 MB session, a 250 KB Hermes `state.db` stayed at 854 MB, and
 * VACUUM alone left 349 MB of index. Hermes does the same after its own deletes (`SessionDB.vacuum` in
 * hermes_state.py, 0.19.0): each FTS5 index merged with its 'optimize' command, then VACUUM (or, in a
 * database made with `auto_vacuum = INCREMENTAL`, `PRAGMA incremental_vacuum`) and a WAL checkpoint that
 * truncates the `-wal` VACUUM filled. VACUUM rewrites the live part of the file; it runs only when a tenth of
 * the file or more is free, so a small undo in a large store costs nothing of the kind.
 *
 * It runs after the delete has committed: a kill during it leaves a whole database, only larger, and a store
 * another process holds busy is left as it is, with a line saying so (the space is reused by later rows).
 */
import type { DatabaseSync } from "node:sqlite";
import { isBusy, quoteIdent } from "./sqlite.ts";

/** At least this share of the file free before the file is rewritten to give it back. */
const FREE_SHARE = 0.1;

/** Gives back what deleted rows left (see above); returns why it could not, when another process held it. */
export function reclaimSpace(db: DatabaseSync): string | undefined {
  try {
    for (const table of fts5Tables(db)) {
      // The column named like the table is FTS5's command column.
      db.exec(`INSERT INTO ${quoteIdent(table)}(${quoteIdent(table)}) VALUES('optimize')`);
    }
    const pages = pragmaNumber(db, "page_count");
    const free = pragmaNumber(db, "freelist_count");
    if (free < pages * FREE_SHARE) return undefined;
    db.exec(pragmaNumber(db, "auto_vacuum") === INCREMENTAL ? "PRAGMA incremental_vacuum" : "VACUUM");
    db.prepare("PRAGMA wal_checkpoint(TRUNCATE)").get();
    return undefined;
  } catch (error) {
    if (!isBusy(error)) throw error;
    return `${db.location() ?? "the database"} is busy in another process: the space the removed rows took ` +
      "is left to be reused by later rows";
  }
}

const INCREMENTAL = 2;

function pragmaNumber(db: DatabaseSync, name: string): number {
  const row = db.prepare(`PRAGMA ${name}`).get() as Record<string, number>;
  return Number(Object.values(row)[0]);
}

/** The FTS5 virtual tables of the database, by the statement that made each. */
function fts5Tables(db: DatabaseSync): string[] {
  const rows = db.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%USING fts5%'",
  ).all() as { name: string }[];
  return rows.map((r) => r.name);
}
