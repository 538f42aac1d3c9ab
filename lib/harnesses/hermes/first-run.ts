/**
 * A Hermes home as a first run leaves it: an empty `state.db` of the newest captured schema generation (its
 * CREATE statements are embedded, generated from fixtures/hermes/<version>/schema.json), and, given a model, a
 * config.yaml routing to it, as a user running that model would have.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { NEWEST_GENERATION } from "./generations.ts";
import { configPath, stateDbPath } from "./profiles.ts";

export function createHermesStore(home: string, model?: string): string {
  mkdirSync(home, { recursive: true });
  const path = stateDbPath(home);
  const db = new DatabaseSync(path);
  try {
    // One transaction: the store appears whole, with one sync to disk instead of one per statement.
    db.exec("BEGIN");
    for (const statement of NEWEST_GENERATION.statements) db.exec(statement);
    db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(NEWEST_GENERATION.schemaVersion);
    db.exec("COMMIT");
  } finally {
    db.close();
  }
  if (model) {
    writeFileSync(configPath(home), `model:\n  default: ${JSON.stringify(model)}\n`);
  }
  return path;
}
