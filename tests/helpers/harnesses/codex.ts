/**
 * Codex CLI's test material: a home with config.toml and state_5.sqlite as the real binary creates them; a
 * captured rollout goes where its version's manifest says, with its captured `threads` row pointing at it, and
 * a captured `threads` row file becomes that database (which the fuzz campaign then mutates). A session is a
 * rollout, named by its time and id, that a `threads` row of state_5.sqlite lists.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { type CodexStoreSchema, createCodexStore } from "../../../lib/harnesses/codex/first-run.ts";
import type { HarnessMaterial } from "../harness-material.ts";
import { makeCodexHome, seedCodexThread } from "../codex.ts";
import { appendInTwo, filesUnder, fileThere, readStore, tornLines } from "../hostile-store.ts";

const STATE = "state_5.sqlite";

export const material: HarnessMaterial = {
  fixtures: fileURLToPath(new URL("../../../fixtures/codex/", import.meta.url)),
  prepareHome: (home) => ({ database: makeCodexHome(home) }),
  placement(fixture) {
    const scenario = codexScenario(fixture);
    if (!scenario) return undefined;
    if (basename(fixture) === `${scenario.name}.jsonl`) {
      return {
        role: "session",
        kind: "text",
        place: (home) => {
          const rollout = seedCodex(fixture, scenario, home);
          return { target: rollout, refs: [rollout] };
        },
      };
    }
    if (basename(fixture) === `${scenario.name}.threads.json`) {
      return {
        role: "store",
        kind: "database",
        place: (home) => ({
          target: join(home, "state_5.sqlite"),
          refs: [seedCodex(fixture, scenario, home)],
        }),
      };
    }
    return undefined;
  },
  hostile: {
    heldSession(home) {
      const { id, path } = seedCodexThread(home, "0.169.0", "text-turns");
      return { id, file: path };
    },
    databases: [{ file: STATE, tables: ["threads"] }],
    linkedFolders: [],
    loops: [],
    sessionFileById: false,
    halfSessions(home) {
      const rollouts = ["sessions", "archived_sessions"].flatMap((d) =>
        filesUnder(join(home, d), (n) => n.endsWith(".jsonl"))
      );
      const rows = readStore(
        join(home, STATE),
        (db) =>
          (db.prepare("SELECT rollout_path AS path FROM threads").all() as { path: string }[]).map((r) =>
            r.path
          ),
      );
      return [
        ...tornLines(rollouts),
        ...(rows
          ? [
            ...rollouts.filter((path) => !rows.includes(path)).map((path) => `${path} has no threads row`),
            ...rows.filter((path) => !existsSync(path)).map((path) =>
              `the threads row of ${path} has no file`
            ),
          ]
          : []),
      ];
    },
    holds: (_home, { path }) => fileThere(path),
    startWriting: (file, _id, pause) => ({
      turn: (n, at) =>
        appendInTwo(
          file,
          JSON.stringify({
            timestamp: at.toISOString(),
            type: "response_item",
            payload: {
              type: "message",
              role: "user",
              content: [{ type: "input_text", text: `typed while being read, turn ${n}` }],
            },
          }),
          pause,
        ),
      close() {},
    }),
  },
};

interface CodexScenario {
  name: string;
  threadId: string;
  /** Where the rollout lives under the Codex home. */
  rollout: string;
}

/** The captured scenario a Codex fixture belongs to (from its version's manifest.json), if any. */
function codexScenario(path: string): CodexScenario | undefined {
  const scenarioName = basename(path).replace(/\.threads\.json$|\.jsonl$/, "");
  const manifest = JSON.parse(readFileSync(join(dirname(path), "manifest.json"), "utf8")) as {
    scenarios: { name: string; threadId: string; rollouts: string[] }[];
  };
  const found = manifest.scenarios.find((s) => s.name === scenarioName && s.rollouts.length);
  return found && { name: found.name, threadId: found.threadId, rollout: found.rollouts[0]! };
}

/**
 * A Codex home as the real binary leaves it: `threads` created by the captured statements, the captured row
 * pointing at the rollout placed where the manifest says. Returns the rollout's path.
 */
function seedCodex(fixture: string, scenario: CodexScenario, home: string): string {
  const folder = dirname(fixture);
  const schema = JSON.parse(readFileSync(join(folder, "threads.schema.json"), "utf8")) as CodexStoreSchema;
  createCodexStore(home, schema);
  const rollout = join(home, scenario.rollout);
  mkdirSync(dirname(rollout), { recursive: true });
  copyFileSync(join(folder, `${scenario.name}.jsonl`), rollout);
  const rows = JSON.parse(readFileSync(join(folder, `${scenario.name}.threads.json`), "utf8")) as Record<
    string,
    SQLInputValue
  >[];
  const db = new DatabaseSync(join(home, "state_5.sqlite"));
  try {
    for (const row of rows) {
      const values: Record<string, SQLInputValue> = { ...row, rollout_path: rollout };
      const names = Object.keys(values);
      db.prepare(`INSERT INTO threads (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`)
        .run(...names.map((n) => values[n]!));
    }
  } finally {
    db.close();
  }
  return rollout;
}
