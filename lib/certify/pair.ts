/**
 * One pair: seed a session in the source, hand it to the target with session-bridge's CLI, check the target
 * lists it and that every sentinel survived; then (A → B → A) hand the target's session back to the source and
 * check again. Each pair gets private homes, projects and session-bridge home in one temp folder.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { harness, resolveHomes } from "../harnesses/index.ts";
import { scanDrift } from "../schemas/scan.ts";
import { handoff } from "./bridge.ts";
import { driverFor } from "./drivers.ts";
import { MODE_RUNNERS, type ModeRunner, type Seeding } from "./modes.ts";
import type { HarnessBinary, HarnessId, HarnessUnderTest, Mode, PairResult } from "./types.ts";

export interface PairOptions {
  mode: Mode;
  binaries: Partial<Record<HarnessId, HarnessBinary>>;
  /** The argv prefix that runs session-bridge. */
  bridge: string[];
  /** Also hand each A → B session back to A (A ≠ B). */
  hopBack: boolean;
  /** Report drift in the seeded store without failing the pair. */
  allowDrift: boolean;
  /** The user's environment (real mode takes providers from it). */
  env: NodeJS.ProcessEnv;
}

/** The rows a pair produces, in order: A → B, then A → B → A when hops back are on and A ≠ B. */
export function pairHops(source: HarnessId, target: HarnessId, hopBack: boolean): HarnessId[][] {
  return hopBack && source !== target ? [[source, target], [source, target, source]] : [[source, target]];
}

export async function runPair(
  source: HarnessId,
  target: HarnessId,
  options: PairOptions,
): Promise<PairResult[]> {
  const versions = (hops: HarnessId[]) =>
    Object.fromEntries(hops.map((h) => [h, options.binaries[h]?.version ?? "?"]));
  const rows = pairHops(source, target, options.hopBack).map((hops): PairResult => ({
    hops,
    mode: options.mode,
    versions: versions(hops),
    outcome: "pass",
    reasons: [],
    notes: [],
    seconds: 0,
  }));
  const work = mkdtempSync(join(tmpdir(), `sb-certify-${source}-${target}-`));
  const opened: HarnessUnderTest[] = [];
  const open = async (id: HarnessId, name: string) => {
    const binary = options.binaries[id];
    if (!binary) throw new Error(`no ${id} binary`);
    const dir = join(work, name);
    mkdirSync(dir, { recursive: true });
    const h = await driverFor(id).open({ ...binary, work: dir, mode: options.mode, env: options.env });
    opened.push(h);
    await h.warmUp(project(work, "earlier project"));
    return h;
  };
  const runner = MODE_RUNNERS[options.mode];
  let row = rows[0]!;
  let started = performance.now();
  try {
    const from = await open(source, "source");
    const to = source === target ? from : await open(target, "target");
    const sourceCwd = project(work, "source-project");
    const seeding = await runner.seed(from, sourceCwd, options.binaries[source]!.version, work);
    if (runner.seedsStore) {
      const drift = await driftFindings(from, options.binaries[source]!.version);
      (options.allowDrift ? row.notes : row.reasons).push(...drift);
    }
    const context = { runner, seeding, bridge: options.bridge, bridgeHome: join(work, "session-bridge") };
    const there = await hop(context, from, to, seeding.session, project(work, "target project"), row.reasons);
    finish(row, started);
    const back = rows[1];
    if (back) {
      row = back;
      started = performance.now();
      // Drift alone fails the first row but does not stop the hop back: the handoff itself worked.
      if (!there) {
        back.outcome = "skip";
        back.reasons.push(`not run: ${source} → ${target} failed`);
      } else {
        await hop(context, to, from, there, sourceCwd, back.reasons);
        finish(back, started);
      }
    }
  } catch (error) {
    row.reasons.push(error instanceof Error ? error.message : String(error));
    finish(row, started);
    for (const later of rows.slice(rows.indexOf(row) + 1)) {
      later.outcome = "skip";
      later.reasons.push(`not run: ${later.hops.slice(0, -1).join(" → ")} failed`);
    }
  } finally {
    for (const h of opened) await h.close();
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
}

interface HopContext {
  runner: ModeRunner;
  seeding: Seeding;
  bridge: string[];
  bridgeHome: string;
}

/**
 * Hands `session` from one harness to another into `cwd` and checks it there, adding why it failed to
 * `reasons`; returns the new id when it passed.
 */
async function hop(
  context: HopContext,
  from: HarnessUnderTest,
  to: HarnessUnderTest,
  session: string,
  cwd: string,
  reasons: string[],
): Promise<string | undefined> {
  const handed = await handoff(context.bridge, context.bridgeHome, {
    session,
    from: from.id,
    to: to.id,
    cwd,
    homes: { ...from.homes(), ...to.homes() },
  });
  const failed = (await to.listed(handed.id, cwd))
    ? []
    : [`${to.id}'s own listing does not show session ${handed.id}`];
  failed.push(...await context.runner.verify(to, handed, cwd, context.seeding));
  reasons.push(...failed);
  return failed.length ? undefined : handed.id;
}

/** Unknown shapes in the store the source harness just wrote: what this version writes that we do not know. */
async function driftFindings(from: HarnessUnderTest, version: string): Promise<string[]> {
  const scan = await scanDrift([harness(from.id)], resolveHomes(from.homes(), {}));
  const store = `drift in the ${from.id} ${version} store`;
  return [
    ...scan.drift.map((f) => `${store}: ${f.where}: ${f.problem} (x${f.count})`),
    ...scan.unreadable.map((u) => `${store}: session ${u.id} unreadable: ${u.error}`),
  ];
}

/**
 * Project folders are deep, past 200 characters: there Claude Code's bucket rule depends on its version (a cut
 * and hash from 2.1.47), and under 255, the longest bucket name any version can create.
 */
const PROJECT_PATH_LENGTH = 230;

function project(work: string, name: string): string {
  let dir = join(realpathSync(work), name);
  while (dir.length < PROJECT_PATH_LENGTH - 1) {
    dir = join(dir, "deeper-folder".slice(0, PROJECT_PATH_LENGTH - dir.length - 1));
  }
  mkdirSync(dir, { recursive: true });
  return realpathSync(dir);
}

function finish(row: PairResult, started: number): void {
  row.seconds = (performance.now() - started) / 1000;
  if (row.reasons.length) row.outcome = "fail";
}
