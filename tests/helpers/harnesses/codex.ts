/**
 * Codex CLI's test material: a home with config.toml and state_5.sqlite as the real binary creates them; a
 * captured rollout goes where its version's manifest says, with its captured `threads` row pointing at it, and
 * a captured `threads` row file becomes that database (which the fuzz campaign then mutates).
 */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { type CodexStoreSchema, createCodexStore } from "../../../lib/harnesses/codex/first-run.ts";
import type { HarnessMaterial } from "../harness-material.ts";
import { makeCodexHome } from "../codex.ts";

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
