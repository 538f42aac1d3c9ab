/**
 * Hermes Agent's test material: its store is one state.db; a home that takes handoffs holds a captured one and
 * names a model in config.yaml. A session is a `sessions` row with its `messages` rows; `profiles` holds other
 * profiles' homes.
 */
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import type { HarnessMaterial } from "../harness-material.ts";
import { readStore } from "../hostile-store.ts";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/hermes/", import.meta.url));
const STATE = "state.db";

export const material: HarnessMaterial = {
  fixtures: FIXTURES,
  prepareHome(home) {
    mkdirSync(home, { recursive: true });
    const database = join(home, "state.db");
    copyFileSync(join(FIXTURES, "0.19.0/text-turns.state.db"), database);
    writeFileSync(join(home, "config.yaml"), 'model:\n  default: "fake-model-1"\n  provider: custom\n');
    return { database };
  },
  placement(fixture) {
    if (!fixture.endsWith(".state.db")) return undefined;
    return {
      role: "session",
      kind: "database",
      place(home) {
        mkdirSync(home, { recursive: true });
        const target = join(home, "state.db");
        copyFileSync(fixture, target);
        return { target, refs: [target] };
      },
    };
  },
  hostile: {
    // The prepared home holds captured sessions: the first is the one a case reads and writes to.
    heldSession(home) {
      const file = join(home, STATE);
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        const { id } = db.prepare("SELECT id FROM sessions ORDER BY started_at LIMIT 1").get() as {
          id: string;
        };
        return { id, file };
      } finally {
        db.close();
      }
    },
    databases: [{ file: STATE, tables: ["sessions", "messages"] }],
    linkedFolders: [],
    loops: ["profiles"],
    sessionFileById: false,
    halfSessions(home) {
      // A session without messages is half one, unless the home held it so (the captured store has some).
      const found = readStore(join(home, STATE), (db) => ({
        orphans: (db.prepare(
          "SELECT DISTINCT session_id AS id FROM messages WHERE session_id NOT IN (SELECT id FROM sessions)",
        ).all() as { id: string }[]).map((r) => r.id),
        empty: (db.prepare(
          "SELECT id FROM sessions WHERE id NOT IN (SELECT DISTINCT session_id FROM messages)",
        ).all() as { id: string }[]).map((r) => r.id),
      }));
      return [
        ...(found?.orphans ?? []).map((id) => `Hermes messages of ${id} have no session`),
        ...(found?.empty ?? []).map((id) => `Hermes session ${id} has no message`),
      ];
    },
    holds(home, { path }) {
      // A session is `<state.db>#<id>`; one in another store than the home's cannot be told here.
      const [database, id] = path.split("#") as [string, string];
      if (basename(database) !== STATE) return undefined;
      return readStore(
        join(home, STATE),
        (db) => db.prepare("SELECT 1 FROM sessions WHERE id = ?").get(id) !== undefined,
      );
    },
    startWriting(file, id, pause) {
      const db = new DatabaseSync(file, { timeout: 5000 });
      return {
        async turn(n, at) {
          db.exec("BEGIN IMMEDIATE");
          const insert = db.prepare(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
          );
          insert.run(id, "user", `typed while being read, turn ${n}`, at.getTime() / 1000);
          insert.run(id, "assistant", `answer ${n}`, at.getTime() / 1000);
          db.prepare("UPDATE sessions SET message_count = message_count + 2 WHERE id = ?").run(id);
          db.exec("COMMIT");
          await pause();
        },
        close: () => db.close(),
      };
    },
  },
};
