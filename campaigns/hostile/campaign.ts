/**
 * The hostile campaigns of `npm run crash-test` (issue 36): races, a full disk in each home, links, permissions
 * as a user they bind, hostile session ids, and reads of a session a harness is writing, over the harnesses of
 * a cast (world.ts: the registry's, and those of `--harness-module`). Each case runs in a fresh world and is
 * checked against the invariants (invariants.ts); a case's choices come from the seed, the cast and its index
 * alone, so `--case KIND:I` (with the same modules) replays exactly it. A campaign this machine cannot run (no
 * tmpfs without root, no way to drop root) is skipped, saying why: not a failure.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { terminalText } from "../../lib/io/control-characters.ts";
import { mutantRandom } from "../fuzz/random.ts";
import { diskFull } from "./disk-full.ts";
import { hostileIds } from "./ids.ts";
import { FINDING_KINDS, type FindingKind } from "./invariants.ts";
import type { CampaignKind, CaseResult } from "./kind.ts";
import { links } from "./links.ts";
import { permissions } from "./permissions.ts";
import { races } from "./races.ts";
import { reads } from "./reads.ts";
import type { Cast } from "./world.ts";

export const KINDS = {
  races,
  "disk-full": diskFull,
  links,
  permissions,
  ids: hostileIds,
  reads,
} as const satisfies Record<
  string,
  CampaignKind
>;
export type KindName = keyof typeof KINDS;
export const KIND_NAMES = Object.keys(KINDS) as KindName[];

export interface HostileCase extends CaseResult {
  kind: KindName;
  index: number;
}

export interface HostileRun {
  cases: HostileCase[];
  /** Campaigns not run here, each with why. */
  skipped: { kind: KindName; reason: string }[];
}

/** Each kind's stream of cases apart from the others': case 3 of races is the same whatever ran before. */
const caseRandom = (seed: number, kind: KindName, index: number) =>
  mutantRandom(seed, (KIND_NAMES.indexOf(kind) + 1) * 1_000_000 + index);

/** Each kind's default count over `cast`: every placement, race, full home, id and read once. */
export const hostileDefaults = (cast: Cast): Record<KindName, number> =>
  Object.fromEntries(KIND_NAMES.map((k) => [k, KINDS[k].cases(cast)])) as Record<KindName, number>;

/**
 * Runs `counts[kind]` cases of each kind over `cast` (or only `only`), reporting each failing case as it is
 * found.
 */
export async function runHostile(
  seed: number,
  cast: Cast,
  counts: Partial<Record<KindName, number>>,
  report: (line: string) => void,
  only?: { kind: KindName; index: number },
): Promise<HostileRun> {
  const run: HostileRun = { cases: [], skipped: [] };
  for (const kind of KIND_NAMES) {
    const indexes = only
      ? only.kind === kind ? [only.index] : []
      : Array.from({ length: counts[kind] ?? 0 }, (_, i) => i);
    if (!indexes.length) continue;
    const reason = KINDS[kind].unavailable(cast);
    if (reason) {
      run.skipped.push({ kind, reason });
      report(`  ${kind}: skipped, ${reason}`);
      continue;
    }
    for (const index of indexes) {
      const root = mkdtempSync(join(tmpdir(), `sb-${kind}-`));
      try {
        const result = await KINDS[kind].run(root, cast, index, caseRandom(seed, kind, index));
        const done = { kind, index, ...result };
        run.cases.push(done);
        if (done.findings.length) report(caseReport(done, seed, cast));
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    }
  }
  return run;
}

/** A failing case: what it did, each finding, and the command that replays it alone (over the same cast). */
export function caseReport(c: HostileCase, seed: number, cast: Cast): string {
  const modules = cast.modules.map((m) => ` ${m}`).join("");
  return terminalText([
    `  ${c.kind} ${c.index} (${c.label}):`,
    ...c.findings.map((f) => `    ${f.kind}: ${f.detail}`),
    `    replay: npm run crash-test -- --seed ${seed}${modules} --case ${c.kind}:${c.index}`,
  ].join("\n"));
}

/** One line per kind run: its cases by how the command under test ended (`races: 6 one winner, 3 ...`). */
export function outcomeLines(run: HostileRun): string[] {
  return KIND_NAMES.flatMap((kind) => {
    const counts = new Map<string, number>();
    for (const c of run.cases.filter((c) => c.kind === kind)) {
      counts.set(c.outcome, (counts.get(c.outcome) ?? 0) + 1);
    }
    return counts.size
      ? [`  ${kind}: ${[...counts].map(([outcome, n]) => `${n} ${outcome}`).join(", ")}`]
      : [];
  });
}

/** `N cases (N races, ...; KIND skipped: why), N failing: N KIND, ... (seed S)`. */
export function hostileSummary(run: HostileRun, seed: number): string {
  const perKind = KIND_NAMES.map((k) => `${run.cases.filter((c) => c.kind === k).length} ${k}`).join(", ");
  const skipped = run.skipped.map((s) => `; ${s.kind} skipped: ${s.reason}`).join("");
  const failing = run.cases.filter((c) => c.findings.length).length;
  const byKind = FINDING_KINDS.map((k: FindingKind) =>
    `${run.cases.reduce((n, c) => n + c.findings.filter((f) => f.kind === k).length, 0)} ${k}`
  ).join(", ");
  return `${run.cases.length} hostile cases (${perKind}${skipped}), ${failing} failing: ${byKind} (seed ${seed})`;
}
