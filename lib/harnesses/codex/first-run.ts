/**
 * An empty Codex state database as the real binary creates it: `threads` with its indexes (and the tables it
 * refers to), plus the migration list that tells a writer which Codex generation made the store. The statements
 * come from a store the real Codex 0.169.0 created, copied once into first-run.json (from
 * fixtures/codex/0.169.0/threads.schema.json, which the binary does not carry). The demo's sandbox starts
 * from it (see demo.ts), and tests and campaigns make their Codex homes with it.
 */
import { DatabaseSync } from "node:sqlite";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import captured from "./first-run.json" with { type: "json" };

export interface CodexStoreSchema {
  createTable: string;
  indexes: { sql: string | null }[];
  migrations: { version: number; description: string }[];
}

/** The newest captured store: what a current Codex leaves after its first run. */
export const NEWEST_CODEX_STORE: CodexStoreSchema = captured;

export function createCodexStore(home: string, schema: CodexStoreSchema = NEWEST_CODEX_STORE): string {
  mkdirSync(home, { recursive: true });
  const path = join(home, "state_5.sqlite");
  const db = new DatabaseSync(path);
  try {
    // One transaction: the store appears whole, with one sync to disk instead of one per statement.
    db.exec("BEGIN");
    // Tables `threads` refers to (sections, projects) exist in a real store; only their keys matter here.
    for (const [, table] of schema.createTable.matchAll(/REFERENCES (\w+)\(id\)/g)) {
      db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY)`);
    }
    db.exec(schema.createTable);
    for (const index of schema.indexes) if (index.sql) db.exec(index.sql);
    db.exec("CREATE TABLE _sqlx_migrations (version BIGINT PRIMARY KEY, description TEXT NOT NULL)");
    for (const m of schema.migrations) {
      db.prepare("INSERT INTO _sqlx_migrations VALUES (?, ?)").run(m.version, m.description);
    }
    if (schema.migrations.some((m) => m.description === "rollout migration state")) {
      db.exec("CREATE TABLE rollout_migration_state (id INTEGER PRIMARY KEY)");
    }
    db.exec("COMMIT");
  } finally {
    db.close();
  }
  return path;
}
