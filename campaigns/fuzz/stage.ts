/**
 * A mutant's world: a private folder holding a home for every harness and session-bridge's own, with the
 * fixture placed where its harness keeps such a file (so listing and lookups meet it as they would in a real
 * store). The caller mutates `target` in place afterwards.
 */
import { copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { DatabaseSync, type SQLInputValue } from "node:sqlite";
import { bucketName } from "../../lib/harnesses/claude-code/bucket.ts";
import { type CodexStoreSchema, createCodexStore } from "../../lib/harnesses/codex/first-run.ts";
import { codexScenario, type Fixture } from "./catalog.ts";
import type { FileKind } from "./mutate.ts";

export interface Staged {
  root: string;
  homes: Record<string, string>;
  bridgeHome: string;
  /** Where conversions are written. */
  output: string;
  /** The file the mutation changes. */
  target: string;
  kind: FileKind;
  /** What `load` is given for this fixture (more are found by listing the stores). */
  refs: string[];
}

/** The neutral working directory every captured fixture records. */
const FIXTURE_CWD = "/home/user/project";

export function stage(fixture: Fixture, root: string): Staged {
  const homes = {
    "claude-code": join(root, "claude"),
    codex: join(root, "codex"),
    hermes: join(root, "hermes"),
  };
  for (const home of Object.values(homes)) mkdirSync(home, { recursive: true });
  mkdirSync(join(root, "out"));
  const world = { root, homes, bridgeHome: join(root, "bridge"), output: join(root, "out") };
  switch (fixture.role) {
    case "claude-transcript": {
      const id = claudeSessionId(fixture.path) ?? basename(fixture.path, ".jsonl");
      const target = place(
        fixture.path,
        join(homes["claude-code"], "projects", bucketName(FIXTURE_CWD), `${id}.jsonl`),
      );
      return { ...world, target, kind: "text", refs: [target] };
    }
    case "codex-rollout":
    case "codex-index": {
      const rollout = seedCodex(fixture.path, homes.codex);
      const target = fixture.role === "codex-rollout" ? rollout : join(homes.codex, "state_5.sqlite");
      return {
        ...world,
        target,
        kind: fixture.role === "codex-rollout" ? "text" : "database",
        refs: [rollout],
      };
    }
    case "hermes-db": {
      const target = place(fixture.path, join(homes.hermes, "state.db"));
      return { ...world, target, kind: "database", refs: [target] };
    }
    case "file": {
      const target = place(fixture.path, join(root, "files", basename(fixture.path)));
      return { ...world, target, kind: "text", refs: [target] };
    }
  }
}

function place(from: string, to: string): string {
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(from, to);
  return to;
}

function claudeSessionId(path: string): string | undefined {
  return /"sessionId":"([0-9a-f-]{36})"/.exec(readFileSync(path, "latin1"))?.[1];
}

/**
 * A Codex home as the real binary leaves it: `threads` created by the captured statements, the captured row
 * pointing at the rollout placed where the manifest says. Returns the rollout's path.
 */
function seedCodex(fixture: string, home: string): string {
  const scenario = codexScenario(fixture)!;
  const folder = dirname(fixture);
  const schema = JSON.parse(readFileSync(join(folder, "threads.schema.json"), "utf8")) as CodexStoreSchema;
  createCodexStore(home, schema);
  const rollout = place(join(folder, `${scenario.name}.jsonl`), join(home, scenario.rollout));
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
