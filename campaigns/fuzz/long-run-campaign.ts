/**
 * The long-run cases: a fixture's session with one of its text fields (user, assistant, reasoning, tool input
 * or output, title, working directory) lengthened by megabytes of a hostile run (fuzz/long-runs.ts), put
 * through every read command (fuzz/read-commands.ts) beside the same session lengthened by as many bytes of
 * ordinary prose. Each command runs in its own process, as a user runs it: a pattern stuck in a backtracking
 * loop cannot be interrupted inside a process (JavaScriptCore's regular expressions never look at a worker's
 * termination), only killed. A case fails when a command crashes, or takes more than SLOWDOWN times what it
 * takes on the ordinary text (it is then stopped), or runs past the hard time-out.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import * as api from "../../lib/mod.ts";
import { homeVariableValue } from "../../lib/harnesses/homes.ts";
import { scriptArgv } from "../../lib/runtime.ts";
import type { Covered } from "../../tests/helpers/harness-material.ts";
import { type Fixture, fixtureCatalog } from "./catalog.ts";
import type { Finding } from "./exercise.ts";
import { LONG_RUNS, type LongRun, longRunText, ORDINARY } from "./long-runs.ts";
import { mutantRandom, type Random } from "./random.ts";
import { READ_COMMANDS, type ReadTarget } from "./read-commands.ts";
import { stage, type Staged } from "./stage.ts";
import {
  FIELD_KINDS,
  type FieldKind,
  isStored,
  placeText,
  sessionFiles,
  type TextField,
  textFields,
} from "./text-fields.ts";

/** How many times the ordinary text's time a command may take on a hostile run of the same size. */
export const SLOWDOWN = 10;
/** The ordinary time a bound is set from is at least this (a start-up's jitter is not a slowdown). */
const FLOOR_SECONDS = 0.2;
export const MIB = 1024 * 1024;
const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
/** The errors the CLI answers with; any other error a command ends on is a crash. */
const ANSWERS = ["InputError", "RefusedError", "DiskFullError"];

export interface LongRunOptions {
  seed: number;
  /** The cases' indexes. */
  indexes: number[];
  workers: number;
  /** The harnesses under test, with their material (their fixtures; how a home takes a handoff). */
  covered: readonly Covered[];
  /** Only fixtures whose name contains this. */
  fixture?: string;
  /** A case's run is between these many bytes (both included), picked by its generator. */
  bytes: readonly [number, number];
  /** No command runs longer than this, however slow the ordinary text was. */
  timeoutMs: number;
  /** The runs a case draws from (default: every one of LONG_RUNS). */
  runs?: readonly LongRun[];
  onResult?: (result: LongRunResult) => void;
}

export interface CommandTiming {
  command: string;
  ordinarySeconds: number;
  hostileSeconds: number;
  /** Stopped at its bound (the hostile seconds are then where it was stopped). */
  stopped: boolean;
  /** The exit codes (null: killed), ordinary and hostile: a command that answers nothing but errors proves little. */
  codes: [number | null, number | null];
}

export interface LongRunResult {
  index: number;
  /** What the case is, in words: `4.0 MiB of scheme-characters in tool-output (convert to codex)`. */
  description: string;
  fixture?: string;
  field?: FieldKind;
  run?: string;
  bytes: number;
  findings: Finding[];
  timings: CommandTiming[];
}

export async function runLongRuns(options: LongRunOptions): Promise<LongRunResult[]> {
  // Only a harness's sessions, not the files `load` must refuse.
  const catalog = fixtureCatalog(options.covered, options.fixture)
    .filter((f) => f.placement?.role === "session");
  const scratch = mkdtempSync(join(tmpdir(), "sb-fuzz-long-"));
  const queue = [...options.indexes];
  const results: LongRunResult[] = [];
  try {
    const lane = async () => {
      for (let index = queue.shift(); index !== undefined; index = queue.shift()) {
        const result = await runCase(index, catalog, options, join(scratch, `case-${index}`));
        results.push(result);
        options.onResult?.(result);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(options.workers, queue.length)) }, lane));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return results.sort((a, b) => a.index - b.index);
}

/** A case's generator: the mutants' streams, on indexes of their own (a long run `i` is no mutant `i`). */
export function longRunRandom(seed: number, index: number): Random {
  return mutantRandom(seed, ~index);
}

interface Plan {
  harness: string;
  /** The harness's fixtures, in the order they are tried for a field of the kind. */
  fixtures: Fixture[];
  kind: FieldKind;
  run: LongRun;
  bytes: number;
  to: string;
}

/**
 * What case `index` is: harness and field kind go round (so a few cases cover every field of every harness),
 * the run, its size, the conversion's target and the order fixtures are tried in are the generator's.
 */
export function planCase(
  index: number,
  catalog: readonly Fixture[],
  options: Pick<LongRunOptions, "seed" | "bytes" | "runs" | "covered">,
): Plan {
  const random = longRunRandom(options.seed, index);
  const harnesses = [...new Set(catalog.map(harnessOf))];
  if (!harnesses.length) throw new Error("no session fixture to place a long run in");
  const pair = index % (harnesses.length * FIELD_KINDS.length);
  const harness = harnesses[pair % harnesses.length]!;
  const fixtures = catalog.filter((f) => harnessOf(f) === harness);
  return {
    harness,
    fixtures: fixtures.map((f) => ({ f, key: random.int(0, 2 ** 30) })).sort((a, b) => a.key - b.key)
      .map(({ f }) => f),
    kind: FIELD_KINDS[Math.floor(pair / harnesses.length)]!,
    run: random.pick(options.runs ?? LONG_RUNS),
    bytes: random.int(options.bytes[0], options.bytes[1]),
    to: random.pick(options.covered).harness.name,
  };
}

const harnessOf = (f: Fixture) => f.harness;

async function runCase(
  index: number,
  catalog: readonly Fixture[],
  options: LongRunOptions,
  root: string,
): Promise<LongRunResult> {
  const plan = planCase(index, catalog, options);
  const result: LongRunResult = {
    index,
    description: `${(plan.bytes / MIB).toFixed(2)} MiB of ${plan.run.name} in ${plan.kind} (${plan.harness})`,
    field: plan.kind,
    run: plan.run.name,
    bytes: plan.bytes,
    findings: [],
    timings: [],
  };
  try {
    const chosen = await chooseField(plan, root, longRunRandom(options.seed, index), options.covered);
    if (!chosen) {
      // No fixture of the harness has such a field (a harness that keeps no reasoning): nothing to time.
      result.description = `no ${plan.kind} in any fixture of ${plan.harness}`;
      return result;
    }
    result.fixture = chosen.fixture.name;
    result.description += `, converted and handed off to ${plan.to}`;
    const ordinary = withTargetStores(chosen.world, options.covered);
    const hostile = withTargetStores(
      stage(chosen.fixture, join(root, "hostile"), options.covered),
      options.covered,
    );
    const lengthened = (text: string) =>
      plan.kind === "path" ? `${chosen.field.value}/${text}` : `${chosen.field.value} ${text}`;
    for (const [world, run] of [[ordinary, ORDINARY], [hostile, plan.run]] as const) {
      const placed = placeText(
        sessionFiles(world.root),
        chosen.field.value,
        lengthened(longRunText(run, plan.bytes)),
      );
      if (!placed) throw new Error(`the ${plan.kind} text was found by the reader but in no file`);
    }
    const target = (world: Staged): ReadTarget => ({
      ref: join(world.root, chosen.ref),
      output: world.output,
      to: plan.to,
      cwd: world.output,
    });
    for (const command of READ_COMMANDS) {
      const calm = await runCli(command.argv(target(ordinary)), ordinary, options.timeoutMs, options.covered);
      const bound = Math.min(options.timeoutMs, SLOWDOWN * Math.max(calm.seconds, FLOOR_SECONDS) * 1000);
      const timed = await runCli(command.argv(target(hostile)), hostile, bound, options.covered);
      result.timings.push({
        command: command.name,
        ordinarySeconds: calm.seconds,
        hostileSeconds: timed.seconds,
        stopped: timed.stopped,
        codes: [calm.code, timed.code],
      });
      const problems = [
        ...judged(calm, "on ordinary text", options.timeoutMs),
        ...judged(timed, "", bound, {
          seconds: calm.seconds,
          bytes: plan.bytes,
          limitIsTimeout: bound === options.timeoutMs,
        }),
      ];
      for (const problem of problems) result.findings.push({ step: command.name, problem });
    }
  } catch (error) {
    result.findings.push({ step: "campaign", problem: `the campaign itself failed: ${String(error)}` });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return result;
}

/**
 * The first of the plan's fixtures with a session holding a text of the planned kind, staged (the ordinary
 * world), and which session and text (its ref relative to the world, so the hostile world's is the same).
 */
async function chooseField(
  plan: Plan,
  root: string,
  random: Random,
  covered: readonly Covered[],
): Promise<{ fixture: Fixture; world: Staged; ref: string; field: TextField } | undefined> {
  const harness = covered.find((c) => c.harness.name === plan.harness)!.harness;
  for (const fixture of plan.fixtures) {
    const world = stage(fixture, join(root, "ordinary"), covered);
    const where = { registry: api.builtinRegistry, homes: world.homes, bridgeHome: world.bridgeHome };
    for (const listed of await harness.store.list(world.homes[harness.name]!)) {
      const { session } = await api.load({ ...where, ref: listed.path });
      // Only a text stored as it is read can be lengthened in place.
      const files = sessionFiles(world.root);
      const fields = textFields(session).filter((f) => f.kind === plan.kind && isStored(files, f.value));
      if (fields.length) {
        return { fixture, world, ref: relative(world.root, listed.path), field: random.pick(fields) };
      }
    }
    rmSync(world.root, { recursive: true, force: true });
  }
  return undefined;
}

/**
 * A world whose every harness has a store (as after a first run), so a handoff to any of them is planned: each
 * home the staging left empty is made one a handoff can write into.
 */
export function withTargetStores(world: Staged, covered: readonly Covered[]): Staged {
  for (const { harness, material } of covered) {
    const home = world.homes[harness.name]!;
    if (!readdirSync(home).length) material.prepareHome(home);
  }
  return world;
}

interface CliRun {
  code: number | null;
  seconds: number;
  /** Killed at its time limit. */
  stopped: boolean;
  /** The start of what it wrote on stderr (an error's stack names its class there). */
  stderr: string;
}

const STDERR_KEPT = 16 * 1024;

/** The CLI in a process of its own over `world`'s homes, killed after `limitMs`. */
/** What a harness's home variable says for the world's home of it to be found. */
function variableFor(harness: api.Harness, world: Staged): string {
  const home = world.homes[harness.name]!;
  const value = homeVariableValue(harness.home, home);
  if (value === undefined) {
    throw new Error(`${harness.home.env} can name no folder as ${harness.name}'s home ${home}`);
  }
  return value;
}

function runCli(
  argv: string[],
  world: Staged,
  limitMs: number,
  covered: readonly Covered[],
): Promise<CliRun> {
  const [bin, ...pre] = scriptArgv(MAIN);
  mkdirSync(join(world.root, "home"), { recursive: true });
  const env = {
    ...process.env,
    HOME: join(world.root, "home"),
    // Each harness's home through its own variable, as a user's shell names it (OpenCode's XDG_DATA_HOME names
    // the folder holding its home, not the home).
    ...Object.fromEntries(covered.map(({ harness }) => [harness.home.env, variableFor(harness, world)])),
    SESSION_BRIDGE_HOME: world.bridgeHome,
    // The error's stack says whether it is one of the CLI's answers or something it did not expect.
    SESSION_BRIDGE_DEBUG: "1",
  };
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(bin!, [...pre, ...argv], {
      cwd: world.root,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    let stopped = false;
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      if (stderr.length < STDERR_KEPT) stderr += chunk.slice(0, STDERR_KEPT - stderr.length);
    });
    const limit = setTimeout(() => {
      stopped = true;
      child.kill("SIGKILL");
    }, limitMs);
    child.on("error", (error) => {
      clearTimeout(limit);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(limit);
      resolve({ code, seconds: (performance.now() - started) / 1000, stopped, stderr });
    });
  });
}

interface Baseline {
  seconds: number;
  bytes: number;
  /** The limit was the hard time-out, not SLOWDOWN times the ordinary text. */
  limitIsTimeout: boolean;
}

/** What is wrong with a run: a crash, or being stopped (too slow against `baseline`, or a hang). */
function judged(run: CliRun, context: string, limitMs: number, baseline?: Baseline): string[] {
  const on = context ? ` ${context}` : "";
  if (run.stopped) {
    if (!baseline || baseline.limitIsTimeout) return [`no answer in ${limitMs} ms${on}: a hang`];
    const perMib = (seconds: number) => `${(seconds / (baseline.bytes / MIB)).toFixed(2)} s/MiB`;
    return [
      `slow: stopped after ${run.seconds.toFixed(1)} s (${perMib(run.seconds)}), more than ${SLOWDOWN}x the ${
        baseline.seconds.toFixed(2)
      } s (${perMib(baseline.seconds)}) on ordinary text of the same size`,
    ];
  }
  if (run.code === 0) return [];
  const said = run.stderr.split("\n").findLast((l) => l.startsWith("session-bridge: ")) ?? "";
  if (run.code !== 1 && run.code !== 2) return [`exit code ${run.code}${on}: ${said}`];
  // A refusal the command decided on (a dry run's) throws nothing; anything thrown prints its stack.
  const thrown = /^([A-Za-z]*Error)\b/m.exec(run.stderr)?.[1];
  return thrown && !ANSWERS.includes(thrown) ? [`uncaught ${thrown}${on}: ${said}`] : [];
}
