/**
 * OpenCode's test material: its store is one `opencode.db` in its data folder; a home that takes handoffs
 * holds a captured one (the real binary's 38 migrations, the `global` project and its sessions). A captured
 * database is `<scenario>.opencode.db`. A session is a `session` row with its `message` and `part` rows.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import type { HarnessMaterial } from "../harness-material.ts";
import { readStore } from "../hostile-store.ts";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/opencode/", import.meta.url));
const DATABASE = "opencode.db";

/** The captured store a prepared home starts from: a one-shot session, a tool session and its subagent's. */
const PREPARED = join(FIXTURES, "1.18.33", "tools-subagent.opencode.db");

/** The time-ordered message and part ids OpenCode makes, for rows written as it writes them. */
const rowId = (prefix: "msg" | "prt", at: Date, n: number) =>
  `${prefix}_${(BigInt(at.getTime()) * 4096n + BigInt(n)).toString(16).slice(-12)}${"w".repeat(14)}`;

export const material: HarnessMaterial = {
  fixtures: FIXTURES,
  prepareHome(home) {
    mkdirSync(home, { recursive: true });
    const database = join(home, DATABASE);
    copyFileSync(PREPARED, database);
    return { database };
  },
  placement(fixture) {
    if (!fixture.endsWith(".opencode.db")) return undefined;
    return {
      role: "session",
      kind: "database",
      place(home) {
        mkdirSync(home, { recursive: true });
        const target = join(home, DATABASE);
        copyFileSync(fixture, target);
        return { target, refs: [target] };
      },
    };
  },
  hostile: {
    // The prepared home holds captured sessions: the oldest top-level one is the one a case reads and writes to.
    heldSession(home) {
      const file = join(home, DATABASE);
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        const { id } = db.prepare(
          "SELECT id FROM session WHERE parent_id IS NULL ORDER BY time_created LIMIT 1",
        ).get() as { id: string };
        return { id, file };
      } finally {
        db.close();
      }
    },
    databases: [{ file: DATABASE, tables: ["session", "message", "part"] }],
    linkedFolders: [],
    loops: [],
    sessionFileById: false,
    halfSessions(home) {
      const found = readStore(join(home, DATABASE), (db) => {
        const ids = (sql: string) => (db.prepare(sql).all() as { id: string }[]).map((r) => r.id);
        return {
          orphanMessages: ids(
            "SELECT DISTINCT session_id AS id FROM message WHERE session_id NOT IN (SELECT id FROM session)",
          ),
          orphanParts: ids(
            "SELECT DISTINCT message_id AS id FROM part WHERE message_id NOT IN (SELECT id FROM message)",
          ),
          empty: ids("SELECT id FROM session WHERE id NOT IN (SELECT DISTINCT session_id FROM message)"),
        };
      });
      return [
        ...(found?.orphanMessages ?? []).map((id) => `OpenCode messages of ${id} have no session`),
        ...(found?.orphanParts ?? []).map((id) => `OpenCode parts of ${id} have no message`),
        ...(found?.empty ?? []).map((id) => `OpenCode session ${id} has no message`),
      ];
    },
    holds(home, { path }) {
      // A session is `<opencode.db>#<id>`; one in another store than the home's cannot be told here.
      const [database, id] = path.split("#") as [string, string];
      if (basename(database) !== DATABASE) return undefined;
      return readStore(
        join(home, DATABASE),
        (db) => db.prepare("SELECT 1 FROM session WHERE id = ?").get(id) !== undefined,
      );
    },
    startWriting(file, id, pause) {
      const db = new DatabaseSync(file, { timeout: 5000 });
      return {
        // A prompt and its answer as OpenCode writes them: each message row, then its part, in one transaction.
        async turn(n, at) {
          const ms = at.getTime();
          const [user, answer] = [rowId("msg", at, 2 * n), rowId("msg", at, 2 * n + 1)];
          const message = db.prepare(
            "INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)",
          );
          const part = db.prepare(
            "INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)",
          );
          db.exec("BEGIN IMMEDIATE");
          message.run(
            user,
            id,
            ms,
            ms,
            JSON.stringify({ role: "user", time: { created: ms }, agent: "build" }),
          );
          part.run(
            rowId("prt", at, 2 * n),
            user,
            id,
            ms,
            ms,
            JSON.stringify({ type: "text", text: `typed while being read, turn ${n}` }),
          );
          message.run(
            answer,
            id,
            ms,
            ms,
            JSON.stringify({
              role: "assistant",
              parentID: user,
              time: { created: ms, completed: ms },
              finish: "stop",
            }),
          );
          part.run(
            rowId("prt", at, 2 * n + 1),
            answer,
            id,
            ms,
            ms,
            JSON.stringify({ type: "text", text: `answer ${n}` }),
          );
          db.prepare("UPDATE session SET time_updated = ? WHERE id = ?").run(ms, id);
          db.exec("COMMIT");
          await pause();
        },
        close: () => db.close(),
      };
    },
  },
};
