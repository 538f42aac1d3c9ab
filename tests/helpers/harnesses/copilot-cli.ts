/**
 * GitHub Copilot CLI's test material: a home is `$COPILOT_HOME` (`session-state/<uuid>/` per session, the
 * global index `session-store.db`). The captures keep each scenario as the store left it:
 * `<scenario>/session-state/<uuid>/` (events.jsonl, workspace.yaml, checkpoints, a SQLite file as its
 * `<name>.json` dump) and `<scenario>/session-store.json` (the index's schema and rows). A prepared home holds
 * the index made from a capture's schema (schema_version 8), as the binary leaves it after a first run.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { randomUUID } from "node:crypto";
import { DatabaseSync } from "node:sqlite";
import type { HarnessMaterial } from "../harness-material.ts";
import { appendInTwo, filesUnder, fileThere, tornLines } from "../hostile-store.ts";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/copilot-cli/", import.meta.url));
const INDEX = "session-store.db";
const STATE = "session-state";

/** The scenario whose session a hostile case's home holds: every one of Copilot's own tools, then an answer. */
const HELD = join(FIXTURES, "1.0.102", "exec-tools");

/** The captured cwd (neutralized). */
export const COPILOT_CAPTURED_CWD = "/home/user/project";

/**
 * Every session folder's events.jsonl of a version's scenarios, in scenario then folder order (a folder with no
 * `session-state/`, such as `prompt-output/`, holds no session).
 */
export function copilotScenarioSessions(versionFolder: string): string[] {
  return readdirSync(versionFolder).sort().flatMap((scenario) => {
    const state = join(versionFolder, scenario, STATE);
    if (!existsSync(state)) return [];
    return readdirSync(state).sort().map((id) => join(state, id, "events.jsonl"));
  });
}

/** Makes `home` as Copilot's first run leaves it: `session-state/` and the index, empty, of 1.0.102's schema. */
export function makeCopilotHome(home: string): string {
  mkdirSync(join(home, STATE), { recursive: true });
  const dump = JSON.parse(readFileSync(join(FIXTURES, "1.0.102", "exec", "session-store.json"), "utf8")) as {
    schema: string[];
    tables: { schema_version: { version: number }[] };
  };
  const index = join(home, INDEX);
  if (fileThere(index)) return index;
  const db = new DatabaseSync(index);
  try {
    db.exec("PRAGMA journal_mode = WAL");
    // The dump lists statements by name: tables first, then their indexes. The FTS table makes its own shadow
    // tables, SQLite its sequence table.
    const tables = dump.schema.filter((s) => !s.startsWith("CREATE INDEX"));
    for (const statement of [...tables, ...dump.schema.filter((s) => s.startsWith("CREATE INDEX"))]) {
      if (/^CREATE TABLE '?(?:search_index_|sqlite_sequence)/.test(statement)) continue;
      db.exec(statement);
    }
    for (const { version } of dump.tables.schema_version) {
      db.prepare("INSERT INTO schema_version (version) VALUES (?)").run(version);
    }
  } finally {
    db.close();
  }
  return index;
}

/**
 * Places a captured session (its events.jsonl in a scenario's `session-state/<id>/`) in `home` with every text
 * file of its folder (dumps of SQLite files left out); returns its events.jsonl there.
 */
export function seedCopilotSession(events: string, home: string): string {
  makeCopilotHome(home);
  const folder = dirname(events);
  const target = join(home, STATE, basename(folder));
  for (const file of filesUnder(folder, (name) => !name.endsWith(".db.json"))) {
    const placed = join(target, relative(folder, file));
    mkdirSync(dirname(placed), { recursive: true });
    copyFileSync(file, placed);
  }
  return join(target, "events.jsonl");
}

const isCaptured = (fixture: string) =>
  basename(fixture) === "events.jsonl" && basename(dirname(dirname(fixture))) === STATE &&
  fixture.startsWith(FIXTURES);

export const material: HarnessMaterial = {
  fixtures: FIXTURES,
  // The index a handoff adds the session's rows to (the session folder is the session itself).
  prepareHome: (home) => ({ database: makeCopilotHome(home) }),
  placement(fixture) {
    if (!isCaptured(fixture)) return undefined;
    return {
      role: "session",
      kind: "text",
      place(home) {
        const target = seedCopilotSession(fixture, home);
        return { target, refs: [target] };
      },
    };
  },
  scenarioSessions: copilotScenarioSessions,
  hostile: {
    heldSession(home) {
      const [events] = copilotScenarioSessions(dirname(HELD)).filter((p) => p.startsWith(`${HELD}/`));
      const file = seedCopilotSession(events!, home);
      return { id: basename(dirname(file)), file };
    },
    databases: [{ file: INDEX, tables: ["sessions", "turns"] }],
    // A user may keep the session folders on another disk: Copilot follows the link.
    linkedFolders: [STATE],
    loops: [`${STATE}/loop`],
    // Its file is `events.jsonl` in a folder named by the id, not a file named by it.
    sessionFileById: false,
    halfSessions: (home) => tornLines(filesUnder(join(home, STATE), (name) => name === "events.jsonl")),
    holds: (_home, { path }) => fileThere(path),
    startWriting: (file, _id, pause) => {
      let parentId = lastEventId(file);
      const event = (type: string, data: Record<string, unknown>, at: Date) => {
        const id = randomUUID();
        const line = JSON.stringify({ type, data, id, timestamp: at.toISOString(), parentId });
        parentId = id;
        return line;
      };
      return {
        // A turn as the live CLI appends it: the prompt, the model call's marks, the answer.
        async turn(n, at) {
          const messageId = randomUUID();
          const lines = [
            event("user.message", { content: `typed while being read, turn ${n}`, messageId }, at),
            event("assistant.turn_start", { turnId: "0" }, at),
            event("assistant.message", {
              messageId: randomUUID(),
              content: `answer ${n}`,
              toolRequests: [],
              model: "gpt-4.1",
            }, at),
            event("assistant.turn_end", { turnId: "0" }, at),
          ];
          for (const line of lines) await appendInTwo(file, line, pause);
        },
        close() {},
      };
    },
  },
};

/** The id of a file's last event, which the next one names as its parent. */
function lastEventId(file: string): string | null {
  const last = readFileSync(file, "utf8").trimEnd().split("\n").at(-1);
  try {
    return (JSON.parse(last ?? "") as { id?: string }).id ?? null;
  } catch {
    return null;
  }
}
