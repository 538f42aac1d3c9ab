/**
 * Every file under fixtures/, with the part it plays when a mutant of it is staged: a transcript or rollout
 * placed in its harness's home, a database placed as the store, or any other file named to `load` as a path
 * (the readers must refuse what is not theirs as clearly as they read what is).
 */
import { readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";

export type Role =
  /** A Claude Code transcript, placed in a project bucket of a Claude home. */
  | "claude-transcript"
  /** A Codex rollout, placed where its manifest says, with its captured `threads` row in state_5.sqlite. */
  | "codex-rollout"
  /** A Codex `threads` capture, made into state_5.sqlite (the database is what is mutated). */
  | "codex-index"
  /** A Hermes state.db, placed as a Hermes home's store. */
  | "hermes-db"
  /** Anything else, given to `load` as a file path. */
  | "file";

export interface Fixture {
  /** Relative to the fixtures folder, with `/`. */
  name: string;
  path: string;
  role: Role;
}

export function fixtureCatalog(root: string, only?: string): Fixture[] {
  return filesUnder(root)
    .map((path) => ({ name: relative(root, path).split(sep).join("/"), path }))
    .filter((f) => only === undefined || f.name.includes(only))
    .map((f) => ({ ...f, role: roleOf(f.name, f.path) }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Every regular file under `dir`, at any depth. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}

function roleOf(name: string, path: string): Role {
  const [harness] = name.split("/");
  if (harness === "hermes" && name.endsWith(".state.db")) return "hermes-db";
  if (name.endsWith(".requests.jsonl")) return "file";
  if (harness === "claude-code" && name.endsWith(".jsonl")) return "claude-transcript";
  if (harness === "codex") {
    const scenario = codexScenario(path);
    if (scenario && name.endsWith(`/${scenario.name}.jsonl`)) return "codex-rollout";
    if (scenario && name.endsWith(`/${scenario.name}.threads.json`)) return "codex-index";
  }
  return "file";
}

export interface CodexScenario {
  name: string;
  threadId: string;
  /** Where the rollout lives under the Codex home. */
  rollout: string;
}

/** The captured scenario a Codex fixture belongs to (from its version's manifest.json), if any. */
export function codexScenario(path: string): CodexScenario | undefined {
  const scenarioName = basename(path).replace(/\.threads\.json$|\.jsonl$/, "");
  const manifest = JSON.parse(readFileSync(join(dirname(path), "manifest.json"), "utf8")) as {
    scenarios: { name: string; threadId: string; rollouts: string[] }[];
  };
  const found = manifest.scenarios.find((s) => s.name === scenarioName && s.rollouts.length);
  return found && { name: found.name, threadId: found.threadId, rollout: found.rollouts[0]! };
}
