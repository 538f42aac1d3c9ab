/**
 * A mutant's world: a private folder holding a home for every harness under test and session-bridge's own,
 * with the fixture placed where its harness keeps such a file (so listing and lookups meet it as they would in
 * a real store). The caller mutates `target` in place afterwards.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import type { Covered } from "../../tests/helpers/harness-material.ts";
import type { Fixture } from "./catalog.ts";
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

export function stage(fixture: Fixture, root: string, covered: readonly Covered[]): Staged {
  const homes = Object.fromEntries(covered.map(({ harness }) => [harness.name, join(root, harness.name)]));
  for (const home of Object.values(homes)) mkdirSync(home, { recursive: true });
  mkdirSync(join(root, "out"));
  const world = { root, homes, bridgeHome: join(root, "bridge"), output: join(root, "out") };
  if (fixture.placement) {
    return { ...world, kind: fixture.placement.kind, ...fixture.placement.place(homes[fixture.harness]!) };
  }
  const files = join(root, "files");
  mkdirSync(files);
  const target = join(files, basename(fixture.path));
  copyFileSync(fixture.path, target);
  return { ...world, target, kind: "text", refs: [target] };
}
