/**
 * The floor for a handoff into Hermes: plain SQLite inserting the same rows into an empty store in one
 * transaction, with Hermes's own FTS triggers firing. Both the handoff and the floor start from the store real
 * Hermes 0.19.0 created (a fixture state.db, emptied), so the schema and triggers are Hermes's, not ours.
 * Run as a program: `bun bench/hermes-floor.ts <empty state.db> <state.db holding the rows>`.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";

const FIXTURE = fileURLToPath(new URL("../fixtures/hermes/0.19.0/text-turns.state.db", import.meta.url));

/** A Hermes home whose `state.db` is the schema Hermes 0.19.0 wrote, with no sessions; returns the db path. */
export function emptyHermesHome(home: string): string {
  mkdirSync(home, { recursive: true });
  const path = join(home, "state.db");
  copyFileSync(FIXTURE, path);
  const db = new DatabaseSync(path);
  try {
    // Hermes's delete triggers empty its FTS indexes along with the rows.
    db.exec("BEGIN; DELETE FROM messages; DELETE FROM sessions; COMMIT; VACUUM");
  } finally {
    db.close();
  }
  return path;
}

function columns(db: DatabaseSync, table: string): string {
  const rows = db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[];
  return rows.map((r) => `"${r.name}"`).join(", ");
}

/** Copies every session and message row of `source` into `target` in one transaction. */
export function insertRows(target: string, source: string): number {
  const db = new DatabaseSync(target);
  try {
    db.prepare("ATTACH DATABASE ? AS src").run(source);
    db.exec("BEGIN");
    let rows = 0;
    for (const table of ["sessions", "messages"]) {
      const list = columns(db, table);
      rows += Number(
        db.prepare(`INSERT INTO main.${table} (${list}) SELECT ${list} FROM src.${table} ORDER BY rowid`)
          .run()
          .changes,
      );
    }
    db.exec("COMMIT");
    return rows;
  } finally {
    db.close();
  }
}

if (import.meta.main) {
  const [target, source] = process.argv.slice(2);
  console.log(JSON.stringify({ rows: insertRows(target!, source!) }));
}
