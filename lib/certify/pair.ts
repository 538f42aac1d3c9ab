/**
 * One route: seed a session in the source in the route's style, hand it to the next harness with
 * session-bridge (in this process, see bridge.ts), check the target lists it, resume it there with a new typed turn and check that the
 * model was sent every part of the conversation once and in order; then hand that session on to the next hop
 * (A → B → C, or back: A → B → A) and check again. Each route gets private homes, projects and session-bridge
 * home in one temp folder.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { homeVariables, resolveHomes } from "../harnesses/homes.ts";
import { findHarness, type Registry } from "../harnesses/registry.ts";
import { scanDrift } from "../pipeline/drift.ts";
import { handoff } from "./bridge.ts";
import { MODE_RUNNERS, type ModeRunner, type Seeding } from "./modes.ts";
import type { HarnessDriver, HarnessId, HarnessUnderTest, Mode } from "../certify-kit/driver.ts";
import type { HarnessBinary, PairResult, Route } from "./types.ts";

export interface RouteOptions {
  /** The harnesses certify knows: each one's descriptor names its driver. */
  registry: Registry;
  mode: Mode;
  binaries: Partial<Record<HarnessId, HarnessBinary>>;
  /**
   * The argv of ANOTHER session-bridge build to make the handoffs with (acceptance/matrix.ts --binary); none:
   * this one, in-process.
   */
  bridge?: string[];
  /** Report drift in the seeded store without failing the row. */
  allowDrift: boolean;
  /** The user's environment (real mode takes providers from it). */
  env: NodeJS.ProcessEnv;
  /** Called with a line when a slow step starts (seeding, each handoff). */
  progress?: (line: string) => void;
  /** Called with each row as soon as it is decided, in order (a long route reports its first stop early). */
  onRow?: (row: PairResult) => void;
}

/** The rows a route produces, in order: one per stop, A → B, then A → B → C. */
export function routeRows(route: Route): HarnessId[][] {
  return route.hops.slice(1).map((_, i) => route.hops.slice(0, i + 2));
}

export async function runRoute(route: Route, options: RouteOptions): Promise<PairResult[]> {
  const versions = (hops: HarnessId[]) =>
    Object.fromEntries(hops.map((h) => [h, options.binaries[h]?.version ?? "?"]));
  const rows = routeRows(route).map((hops): PairResult => ({
    style: route.style,
    hops,
    mode: options.mode,
    versions: versions(hops),
    outcome: "pass",
    reasons: [],
    notes: [],
    seconds: 0,
  }));
  const [source] = route.hops as [HarnessId, ...HarnessId[]];
  const work = mkdtempSync(join(tmpdir(), `sb-certify-${route.style}-${route.hops.join("-")}-`));
  const opened = new Map<HarnessId, HarnessUnderTest>();
  const open = async (id: HarnessId) => {
    const already = opened.get(id);
    if (already) return already;
    const binary = options.binaries[id];
    if (!binary) throw new Error(`no ${id} binary`);
    const dir = join(work, id);
    mkdirSync(dir, { recursive: true });
    const h = await (await driverFor(options.registry, id)).open({
      ...binary,
      work: dir,
      mode: options.mode,
      env: options.env,
      homeVariables: homeVariables(options.registry.harnesses),
    });
    opened.set(id, h);
    await h.warmUp(project(work, "earlier project"));
    return h;
  };
  const runner = MODE_RUNNERS[options.mode];
  const say = (what: string) => options.progress?.(`  ${route.style} ${route.hops.join(" → ")}: ${what}`);
  let index = 0;
  let reported = 0;
  const report = (upTo: number) => {
    for (; reported < upTo; reported++) options.onRow?.(rows[reported]!);
  };
  let started = performance.now();
  try {
    const from = await open(source);
    const sourceCwd = project(work, "source-project");
    say(`seeding in ${source}`);
    const version = options.binaries[source]!.version;
    const seeding = await runner.seed(from, sourceCwd, route.style, {
      version,
      work,
      registry: options.registry,
      path: options.env.PATH,
    });
    if (runner.seedsStore) {
      const drift = await driftFindings(from, version, options.registry);
      (options.allowDrift ? rows[0]!.notes : rows[0]!.reasons).push(...drift);
    }
    const context = {
      runner,
      seeding,
      registry: options.registry,
      bridge: options.bridge,
      bridgeHome: join(work, "session-bridge"),
      env: options.env,
    };
    let session = seeding.session;
    let at = from;
    for (; index < rows.length; index++) {
      const row = rows[index]!;
      if (index > 0) started = performance.now();
      const to = await open(row.hops.at(-1)!);
      // The first target resumes in a project of its own; a hop back returns to the source's project.
      const cwd = index > 0 && to.id === source
        ? sourceCwd
        : project(work, index === 0 ? "target project" : "next project");
      say(`${at.id} → ${to.id}`);
      const next = await hop(context, at, to, session, cwd, index + 1, row.reasons);
      finish(row, started);
      if (!next) break;
      report(index + 1);
      session = next;
      at = to;
    }
  } catch (error) {
    const row = rows[index]!;
    row.reasons.push(error instanceof Error ? error.message : String(error));
    finish(row, started);
  } finally {
    for (const h of opened.values()) await h.close();
    rmSync(work, { recursive: true, force: true });
  }
  // Drift alone fails a row without stopping the route: the handoff itself worked.
  for (const later of rows.slice(index + 1)) {
    later.outcome = "skip";
    later.reasons.push(`not run: ${rows[index]!.hops.join(" → ")} failed`);
  }
  report(rows.length);
  return rows;
}

interface HopContext {
  runner: ModeRunner;
  seeding: Seeding;
  registry: Registry;
  bridge: string[] | undefined;
  bridgeHome: string;
  env: NodeJS.ProcessEnv;
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
  stop: number,
  reasons: string[],
): Promise<string | undefined> {
  const handed = await handoff(context.bridge, context.bridgeHome, {
    session,
    from: from.id,
    to: to.id,
    cwd,
    homes: { ...from.homes(), ...to.homes() },
    env: { ...context.env, ...to.configEnv?.() },
  }, context.registry);
  const failed = (await to.listed(handed.id, cwd))
    ? []
    : [`${to.id}'s own listing does not show session ${handed.id}`];
  failed.push(...await context.runner.verify(to, handed, cwd, context.seeding, stop, context.registry));
  reasons.push(...failed);
  return failed.length ? undefined : handed.id;
}

/** Unknown shapes in the store the source harness just wrote: what this version writes that we do not know. */
async function driftFindings(from: HarnessUnderTest, version: string, registry: Registry): Promise<string[]> {
  const source = findHarness(registry, from.id);
  const scan = await scanDrift([source], resolveHomes([source], from.homes(), {}));
  const store = `drift in the ${from.id} ${version} store`;
  return [
    ...scan.drift.map((f) => `${store}: ${f.where}: ${f.problem} (x${f.count})`),
    ...scan.unreadable.map((u) => `${store}: session ${u.id} unreadable: ${u.error}`),
    ...scan.brokenStores.map((b) => `${store}: ${b.store} cannot be read: ${b.error}`),
  ];
}

/** The driver a harness's descriptor names, loaded now (certify alone pays for it). */
async function driverFor(registry: Registry, id: HarnessId): Promise<HarnessDriver> {
  const hooks = findHarness(registry, id).integrations.certify;
  if (!hooks) throw new Error(`certify cannot drive ${id}`);
  return await hooks.driver();
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
