/** What the campaigns ask of a harness's SQLite store after anything was done to it. */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { DatabaseSync } from "node:sqlite";

/**
 * What PRAGMA integrity_check finds in the store as its next writer sees it (undefined: nothing). A writer killed
 * mid-transaction in a rollback-journal database leaves a hot `-journal` that the next read-write open rolls
 * back, and that a read-only open refuses ("attempt to write a readonly database"): so the check runs on a
 * private copy of the database with its journal and WAL, which SQLite recovers as it would the store. Only real
 * damage counts.
 */
export function integrityProblem(database: string | undefined): string | undefined {
  if (!database) return undefined;
  try {
    return onPrivateCopy(database, (db) => {
      const { integrity_check: found } = db.prepare("PRAGMA integrity_check").get() as {
        integrity_check: string;
      };
      return found === "ok" ? undefined : found;
    });
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * `read` on a private copy of `database` with its journal and WAL, recovered as the store's next writer would
 * recover it: nothing is opened, created or rolled back in the store's own folder (which may be a link's).
 */
export function onPrivateCopy<T>(database: string, read: (db: DatabaseSync) => T): T {
  const dir = mkdtempSync(join(tmpdir(), "sb-integrity-"));
  try {
    const copy = join(dir, basename(database));
    copyFileSync(database, copy);
    for (const suffix of ["-journal", "-wal"]) {
      if (existsSync(database + suffix)) copyFileSync(database + suffix, copy + suffix);
    }
    const db = new DatabaseSync(copy);
    try {
      return read(db);
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
