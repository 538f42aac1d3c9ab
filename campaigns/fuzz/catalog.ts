/**
 * Every captured file of every harness under test (its material's fixtures folder: fixtures/<name>/ for a
 * built-in one, see tests/helpers/harness-material.ts), with where it goes when a mutant of it is staged: in
 * its harness's home where the harness keeps such a file (its material's placement), or, for any other file,
 * named to `load` as a path (the readers must refuse what is not theirs as clearly as they read what is).
 */
import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import type { Covered, Placement } from "../../tests/helpers/harness-material.ts";

export interface Fixture {
  /** `<harness>/<path in its fixtures folder>`, with `/`. */
  name: string;
  path: string;
  /** The harness whose fixtures folder holds it. */
  harness: string;
  /** Where it goes in its harness's home; none: it is given to `load` as a path. */
  placement?: Placement;
}

export function fixtureCatalog(covered: readonly Covered[], only?: string): Fixture[] {
  return covered.flatMap(({ harness, material }) =>
    filesUnder(material.fixtures).map((path) => ({
      name: [harness.name, ...relative(material.fixtures, path).split(sep)].join("/"),
      path,
      harness: harness.name,
    }))
  )
    .filter((f) => only === undefined || f.name.includes(only))
    .map((f) => {
      const placement = covered.find((c) => c.harness.name === f.harness)!.material.placement(f.path);
      return placement ? { ...f, placement } : f;
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Every regular file under `dir`, at any depth. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : entry.isFile() ? [path] : [];
  });
}
