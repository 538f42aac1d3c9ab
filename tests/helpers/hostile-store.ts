/**
 * What harnesses' hostile material (HostileMaterial, tests/helpers/harness-material.ts) has in common: walking a
 * store without following its links, a JSON Lines file's torn line, a line appended as a harness mid-turn
 * writes it, and a session file's presence.
 */
import { appendFileSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { onPrivateCopy } from "../../campaigns/integrity.ts";

/** Files under `dir` whose name `keep` takes, links not followed (a link that loops is a case's doing). */
export function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(folder, name);
      const stat = lstatSync(path);
      if (stat.isDirectory()) walk(path);
      else if (keep(name)) found.push(path);
    }
  };
  walk(dir);
  return found;
}

/** `<path>: why` for each of `paths` with a torn line: a last line cut short, or a line that is not JSON. */
export function tornLines(paths: readonly string[]): string[] {
  return paths.flatMap((path) => {
    const torn = tornLine(path);
    return torn ? [`${path}: ${torn}`] : [];
  });
}

function tornLine(path: string): string | undefined {
  if (!lstatSync(path).isFile()) return undefined;
  const text = readFileSync(path, "utf8");
  if (text && !text.endsWith("\n")) return "its last line is cut short";
  const lines = text.split("\n").filter(Boolean);
  const bad = lines.findIndex((line) => {
    try {
      JSON.parse(line);
      return false;
    } catch {
      return true;
    }
  });
  return bad < 0 ? undefined : `line ${bad + 1} is not JSON`;
}

/** `read` on a private copy of a store's database; undefined when it cannot be read (the integrity check says why). */
export function readStore<T>(database: string, read: (db: DatabaseSync) => T): T | undefined {
  try {
    return onPrivateCopy(database, read);
  } catch {
    return undefined;
  }
}

/** Whether the file a session is (a transcript, a rollout) is there, a link to nothing included. */
export function fileThere(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Appends `line` to `file` as a harness mid-turn does: half of it, a `pause`, the rest. */
export async function appendInTwo(file: string, line: string, pause: () => Promise<void>): Promise<void> {
  const half = Math.floor(line.length / 2);
  appendFileSync(file, line.slice(0, half));
  await pause();
  appendFileSync(file, `${line.slice(half)}\n`);
}
