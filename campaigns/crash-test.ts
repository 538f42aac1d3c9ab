/**
 * The crash campaign: `npm run crash-test [-- --kills N --seed S --mb M]`. A Claude Code session of M MB (the
 * thinking-tool-use fixture repeated, every id renewed) and one of 4 MB of many short records (a long handoff
 * into Hermes or Copilot CLI is written on a worker thread) are handed off into each harness in turn, again and again, and each
 * handoff, or a third of the time the undo of one that landed, is killed with SIGKILL: half the kills at a
 * seeded crash point (lib/io/crash-points.ts; every 1 MB chunk streamed is one), half from outside after a
 * seeded delay within the time a whole handoff (or undo) takes. After each kill:
 *   - the target's database passes `PRAGMA integrity_check` (else: a corrupt store);
 *   - a session the target's listing shows under the handed-off id reads whole (else: a half session visible);
 *   - after recovery, every session in the target that was not there before is one undo can take back (else:
 *     a session undo and recovery cannot see), and undoing them leaves the target as it was;
 *   - no temp file, intent or torn backup is left (else: debris);
 *   - after a killed undo, the ledger tells the truth: the handoff is still pending exactly when its session is
 *     still in the target, whole (else: a ledger that lies).
 * Every harness of the registry is a target, each home made ready by its test material
 * (tests/helpers/harness-material.ts); `--harness-module PATH` adds one more harness (the toy harness's test).
 * Seeded: the same seed picks the same harnesses, points and delays. Then the hostile cases (hostile/campaign.ts:
 * races, full disks, links, permissions, hostile ids, reads while a harness writes) over the same harnesses, each
 * checked for the same and more (hostile/invariants.ts), a failing one printed with the `--case` that replays it. The last lines are
 * the tallies; exit 1 when any figure but the kills and cases is not 0.
 */
import { spawn, spawnSync } from "node:child_process";
import { randomInt } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type Harness, list, load, recover, type Registry, undo, undoable } from "../lib/mod.ts";
import { integrityProblem } from "./integrity.ts";
import {
  hostileDefaults,
  hostileSummary,
  KIND_NAMES,
  type KindName,
  outcomeLines,
  runHostile,
} from "./hostile/campaign.ts";
import { RACERS } from "./hostile/races.ts";
import { hostileCast } from "./hostile/world.ts";
import { scriptArgv } from "../lib/runtime.ts";
import { writeLongSession } from "../lib/certify-kit/long-session.ts";
import {
  coverage,
  type Covered,
  loadHarnessModule,
  MissingMaterial,
} from "../tests/helpers/harness-material.ts";

/** The usage, with each hostile campaign's default over the built-in harnesses (`builtin`). */
const usage = (builtin: Record<KindName, number>) =>
  `usage: npm run crash-test -- [--kills N] [--seed S] [--mb M] [--races N] [--disk-full N] [--links N]
                              [--permissions N] [--ids N] [--reads N] [--case KIND:I] [--harness-module PATH]...
  --kills N        kills in all, spread evenly over the harnesses (default 90; 0: none)
  --seed S         the generator's seed (default: a random one, printed)
  --mb M           size of the session handed off, in MB (default 20)
  The hostile counts default to each case once over the harnesses (the built-in ones': the figure shown):
  --races N        ${RACERS} handoffs or undos at once on one thing (default ${builtin.races})
  --disk-full N    a home on a full tmpfs (default ${builtin["disk-full"]}; skipped, saying why, without root)
  --links N        symbolic links where session-bridge writes (default ${builtin.links})
  --permissions N  modes that refuse, as a user they bind (default ${builtin.permissions})
  --ids N          hostile --session-id values (default ${builtin.ids})
  --reads N        reads and a handoff of a session a harness is writing (default ${builtin.reads})
  --case KIND:I    replay one hostile case (as a failure prints it), and nothing else
  --harness-module PATH  one more harness to hand off into, in the kills and the hostile cases (a module
                   exporting \`harness\` and \`material\`, tests/helpers/harness-material.ts)`;

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const CRASH_CHILD = join(ROOT, "tests/helpers/crash-handoff.ts");
const FIXTURE = join(ROOT, "fixtures/claude-code/2.1.328/thinking-tool-use.jsonl");
/** A harness's name. */
type Target = string;

/** A small seeded generator (mulberry32): the same seed, the same campaign. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A session of many short records (lib/certify-kit/long-session.ts, with short tool outputs): more messages for
 * its size than the fixture repeated, past the 4,096 rows from which a handoff into Hermes, and the 4,096
 * messages from which one into Copilot CLI's index, is written on a worker thread (4 MB make 6,650 Hermes rows),
 * so the kills land on that path too.
 */
const MANY_RECORDS_MB = 4;

async function manyRecords(dir: string): Promise<string> {
  const path = join(dir, "many-records.jsonl");
  const spec = { bytes: MANY_RECORDS_MB * 1024 * 1024, outputBytes: 1024, cwd: dir };
  await writeLongSession({ ...spec, sessionId: "4c0ffee0-0000-4000-8000-000000000001" }, path);
  return path;
}

/** The fixture's conversation repeated until `mb` MB, each copy with new uuids and tool ids, chained in order. */
function bigSession(dir: string, mb: number): string {
  const lines = readFileSync(FIXTURE, "utf8").split("\n").filter(Boolean);
  const sessionId = (JSON.parse(lines[0]!) as { sessionId: string }).sessionId;
  const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
  const out: string[] = [];
  let size = 0;
  let previousLast: string | null = null;
  for (let copy = 0; size < mb * 1024 * 1024; copy++) {
    const renew = (id: string) =>
      id === sessionId
        ? id
        : `${id.slice(0, 24)}${
          (copy * 7919 + parseInt(id.slice(24), 16)).toString(16).padStart(12, "0").slice(-12)
        }`;
    let last: string | null = previousLast;
    for (const line of lines) {
      const record = JSON.parse(line) as Record<string, unknown>;
      if (copy > 0 && typeof record.uuid !== "string") continue;
      let text = line.replace(uuid, renew).replace(/\b(toolu_|msg_|call_)([A-Za-z0-9_]+)/g, `$1$2_c${copy}`);
      if (record.parentUuid === null && copy > 0) {
        text = text.replace('"parentUuid":null', `"parentUuid":${JSON.stringify(previousLast)}`);
      }
      if (typeof record.uuid === "string") last = renew(record.uuid);
      out.push(text);
      size += text.length + 1;
    }
    previousLast = last;
  }
  const path = join(dir, `${sessionId}.jsonl`);
  writeFileSync(path, `${out.join("\n")}\n`);
  return path;
}

interface Bed {
  target: Target;
  harness: Harness;
  /** Every harness of the campaign, for listing and loading what the target holds. */
  registry: Registry;
  /** What the CLI children are given before the CLI's arguments: the harness modules, to know every target. */
  child: string[];
  home: string;
  database?: string;
  bridge: string;
  homes: Record<string, string>;
  env: Record<string, string>;
  flag: string;
}

function bed(
  root: string,
  { harness, material }: Covered,
  { registry, covered: all }: { registry: Registry; covered: readonly Covered[] },
  child: string[],
): Bed {
  const target = harness.name;
  const home = join(root, target);
  const { database } = material.prepareHome(home);
  const bridge = join(root, `bridge-${target}`);
  const homes = Object.fromEntries(all.map(({ harness: h }) => [h.name, join(root, `${h.name}-unused`)]));
  homes[target] = home;
  const flag = harness.home.flag;
  return {
    target,
    harness,
    registry,
    child,
    home,
    ...(database ? { database } : {}),
    bridge,
    homes,
    env: { SESSION_BRIDGE_HOME: bridge },
    flag,
  };
}

function handoffArgs(b: Bed, source: string, cwd: string, id: string): string[] {
  return ["handoff", source, "--to", b.target, "--cwd", cwd, "--session-id", id, `--${b.flag}`, b.home];
}

const childEnv = (b: Bed) => ({ ...process.env, SESSION_BRIDGE_DEBUG: "", ...b.env });

/** Whether a killed writer left a hot journal (rolled back by the next writer; counted, not a failure). */
const hotJournal = (database: string | undefined): boolean =>
  !!database && existsSync(`${database}-journal`) && statSync(`${database}-journal`).size > 0;

async function listedIds(b: Bed): Promise<Map<string, string>> {
  const listed = await list({ registry: b.registry, homes: b.homes, bridgeHome: b.bridge, from: b.target });
  return new Map(listed.sessions.map((s) => [s.id, s.path]));
}

async function messageCount(b: Bed, ref: string): Promise<number> {
  const { session } = await load({
    registry: b.registry,
    ref,
    from: b.target,
    homes: b.homes,
    bridgeHome: b.bridge,
  });
  return session.messages.length;
}

/** Leftovers a kill may leave: publish temp files, intents, torn manifests. */
function debris(b: Bed): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".tmp") || relative(b.bridge, path).startsWith("intents/")) {
        found.push(path);
      }
    }
  };
  walk(b.home);
  walk(b.bridge);
  return found;
}

interface Tally {
  kills: number;
  undoKills: number;
  /** Kills that left a hot journal (a transaction cut short, rolled back by the next writer). */
  hotJournals: number;
  atPoints: number;
  timed: number;
  finishedFirst: number;
  completed: number;
  rolledBack: number;
  corrupt: number;
  halfVisible: number;
  unseen: number;
  debris: number;
  notRestored: number;
  untruthful: number;
}

const emptyTally = (): Tally => ({
  kills: 0,
  undoKills: 0,
  hotJournals: 0,
  atPoints: 0,
  timed: 0,
  finishedFirst: 0,
  completed: 0,
  rolledBack: 0,
  corrupt: 0,
  halfVisible: 0,
  unseen: 0,
  debris: 0,
  notRestored: 0,
  untruthful: 0,
});

function killedAtPoint(b: Bed, args: string[], nth: number): boolean {
  const [bin, ...pre] = scriptArgv(CRASH_CHILD);
  const r = spawnSync(bin!, [...pre, "any", String(nth), ...b.child, ...args], {
    encoding: "utf8",
    env: childEnv(b),
  });
  return r.signal === "SIGKILL";
}

function killedAfter(b: Bed, args: string[], ms: number): Promise<boolean> {
  // The crash child with a point that never comes: the CLI as a user runs it, knowing the bed's harnesses.
  const [bin, ...pre] = scriptArgv(CRASH_CHILD);
  return new Promise((resolve) => {
    const child = spawn(bin!, [...pre, "none", "1", ...b.child, ...args], {
      env: childEnv(b),
      stdio: "ignore",
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), ms);
    child.on("exit", (_code, signal) => {
      clearTimeout(timer);
      resolve(signal === "SIGKILL");
    });
  });
}

/** A CLI run to its end, uninterrupted: how many crash points it passes and how long it takes. */
function uninterrupted(b: Bed, args: string[], what: string): { points: number; ms: number } {
  const [bin, ...pre] = scriptArgv(CRASH_CHILD);
  const started = performance.now();
  const r = spawnSync(bin!, [...pre, "none", "1", ...b.child, ...args], {
    encoding: "utf8",
    env: childEnv(b),
  });
  const ms = performance.now() - started;
  const points = Number(/(\d+) points passed/.exec(r.stderr)?.[1]);
  if (r.status !== 0 || !points) throw new Error(`the reference ${what} of ${b.target} failed: ${r.stderr}`);
  return { points, ms };
}

interface Reference {
  points: number;
  ms: number;
  turns: number;
  undo: { points: number; ms: number };
}

/** One uninterrupted handoff and its undo: crash points passed, time taken, and the session's turns. */
async function reference(b: Bed, source: string, cwd: string): Promise<Reference> {
  const id = b.harness.store.newId(new Date());
  const { points, ms } = uninterrupted(b, handoffArgs(b, source, cwd, id), "handoff");
  const ids = await listedIds(b);
  const turns = await messageCount(b, ids.get(id)!);
  const [entry] = undoable(b.bridge);
  const undone = uninterrupted(b, ["undo", entry!.op], "undo");
  return { points, ms, turns, undo: undone };
}

async function main(): Promise<number> {
  const USAGE = usage(hostileDefaults(await hostileCast()));
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        kills: { type: "string" },
        seed: { type: "string" },
        mb: { type: "string" },
        "harness-module": { type: "string", multiple: true },
        ...Object.fromEntries(KIND_NAMES.map((k) => [k, { type: "string" as const }])),
        case: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`crash-test: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const replay = values.case === undefined ? undefined : /^([a-z-]+):(\d+)$/.exec(values.case);
  const only = replay && (KIND_NAMES as string[]).includes(replay[1]!)
    ? { kind: replay[1] as KindName, index: Number(replay[2]) }
    : undefined;
  if (values.case !== undefined && !only) {
    console.error(`crash-test: --case wants KIND:I, KIND one of ${KIND_NAMES.join(", ")}\n${USAGE}`);
    return 2;
  }
  const kills = only ? 0 : Number(values.kills ?? 90);
  const seed = Number(values.seed ?? randomInt(1, 2 ** 31));
  const mb = Number(values.mb ?? 20);
  const modules = values["harness-module"] ?? [];
  const cast = await hostileCast(modules);
  const defaults = hostileDefaults(cast);
  const counts = Object.fromEntries(
    KIND_NAMES.map((k) => [k, Number((values as Record<string, unknown>)[k] ?? defaults[k])]),
  ) as Record<KindName, number>;
  if (
    ![seed, mb].every((n) => Number.isSafeInteger(n) && n > 0) ||
    ![kills, ...Object.values(counts)].every((n) => Number.isSafeInteger(n) && n >= 0)
  ) {
    console.error(
      `crash-test: --seed and --mb want positive integers, the counts integers of 0 or more\n${USAGE}`,
    );
    return 2;
  }
  const killsFailed = kills ? await killCampaign(kills, seed, mb, modules) : false;
  console.log(`crash-test: hostile cases, seed ${seed}`);
  const hostile = await runHostile(seed, cast, counts, (line) => console.log(line), only);
  for (const line of outcomeLines(hostile)) console.log(line);
  console.log(hostileSummary(hostile, seed));
  return killsFailed || hostile.cases.some((c) => c.findings.length) ? 1 : 0;
}

/** The kill campaign (above), over the registry's harnesses and those of `modules`: whether it found anything. */
async function killCampaign(kills: number, seed: number, mb: number, modules: string[]): Promise<boolean> {
  const campaign = await coverage(undefined, await Promise.all(modules.map(loadHarnessModule)));
  const { covered } = campaign;
  const child = modules.flatMap((m) => ["--harness-module", m]);
  const targets = covered.map((c) => c.harness.name);
  const random = generator(seed);
  const root = mkdtempSync(join(tmpdir(), "sb-crash-"));
  try {
    const cwd = join(root, "work");
    mkdirSync(cwd);
    mkdirSync(join(root, "source"));
    const sources = [bigSession(join(root, "source"), mb), await manyRecords(join(root, "source"))];
    console.log(
      `crash-test: seed ${seed}, ${kills} kills, a ${mb} MB session (${sources[0]}) and one of ` +
        `${MANY_RECORDS_MB} MB of short records (${sources[1]}), taking turns`,
    );
    const tallies = new Map<Target, Tally>(targets.map((h) => [h, emptyTally()]));
    const beds = new Map<Target, Bed & { refs: Reference[] }>();
    for (const c of covered) {
      const h = c.harness.name;
      const b = bed(root, c, campaign, child);
      const refs: Reference[] = [];
      for (const source of sources) {
        const ref = await reference(b, source, cwd);
        console.log(
          `  ${h}: an uninterrupted handoff of ${basename(source)} passes ${ref.points} crash points in ` +
            `${Math.round(ref.ms)} ms, its undo ${ref.undo.points} in ${Math.round(ref.undo.ms)} ms`,
        );
        refs.push(ref);
      }
      beds.set(h, { ...b, refs });
    }
    for (let i = 0; i < kills; i++) {
      const b = beds.get(targets[i % targets.length]!)!;
      // Each target is handed each session in turn.
      const turn = Math.floor(i / targets.length) % sources.length;
      const ref = b.refs[turn]!;
      const t = tallies.get(b.target)!;
      const baseline = await listedIds(b);
      const id = b.harness.store.newId(new Date(Date.UTC(2026, 0, 1) + i * 1000));
      const args = handoffArgs(b, sources[turn]!, cwd, id);
      const duringUndo = random() < 1 / 3;
      const atPoint = random() < 0.5;
      const span = duringUndo ? ref.undo : ref;
      const nth = 1 + Math.floor(random() * span.points);
      const ms = random() * span.ms;
      let op: string | undefined;
      if (duringUndo) {
        // The undo of a handoff that landed whole is what is killed.
        uninterrupted(b, args, "handoff");
        op = undoable(b.bridge).find((e) => e.target.id === id)?.op;
        if (!op) throw new Error(`kill ${i}: the handoff before the undo left no ledger entry`);
      }
      const killedArgs = op ? ["undo", op] : args;
      const killed = atPoint ? killedAtPoint(b, killedArgs, nth) : await killedAfter(b, killedArgs, ms);
      t.kills++;
      if (duringUndo) t.undoKills++;
      if (atPoint) t.atPoints++;
      else t.timed++;
      if (!killed) t.finishedFirst++;
      const problem = (what: string) =>
        console.log(
          `  kill ${i} (${duringUndo ? "undo into" : "handoff into"} ${b.target}, ${
            atPoint ? `point ${nth}` : `${Math.round(ms)} ms`
          }): ${what}`,
        );
      if (hotJournal(b.database)) t.hotJournals++;
      const damage = integrityProblem(b.database);
      if (damage) {
        t.corrupt++;
        problem(`the store fails PRAGMA integrity_check: ${damage}`);
      }
      const visible = await listedIds(b);
      if (visible.has(id) && !duringUndo) {
        let turns = -1;
        try {
          turns = await messageCount(b, visible.get(id)!);
        } catch {
          // Unreadable is as half as it gets.
        }
        if (turns !== ref.turns) {
          t.halfVisible++;
          problem(`the target lists ${id} with ${turns} turns of ${ref.turns}`);
        }
      }
      const recovered = await recover({ bridgeHome: b.bridge });
      for (const o of recovered.operations) {
        if (o.action === "complete") t.completed++;
        else t.rolledBack++;
      }
      const left = debris(b);
      if (left.length) {
        t.debris += left.length;
        problem(`debris after recovery: ${left.join(", ")}`);
      }
      const pending = undoable(b.bridge);
      const now = await listedIds(b);
      for (const sessionId of now.keys()) {
        if (baseline.has(sessionId)) continue;
        if (!pending.some((e) => e.target.id === sessionId)) {
          t.unseen++;
          problem(`${sessionId} is in the target, and neither undo nor recovery can see it`);
        }
      }
      if (op) {
        // The ledger says pending exactly when the session is still there, whole; undone when it is gone.
        const stillPending = pending.some((e) => e.op === op);
        let turns = -1;
        if (now.has(id)) {
          try {
            turns = await messageCount(b, now.get(id)!);
          } catch {
            // Unreadable: neither whole nor gone.
          }
        }
        const whole = turns === ref.turns;
        if (stillPending ? !whole : now.has(id)) {
          t.untruthful++;
          problem(
            `after the killed undo the ledger says ${stillPending ? "pending" : "undone"}, and the target ` +
              `${now.has(id) ? `lists ${id} with ${turns} turns of ${ref.turns}` : `no longer has ${id}`}`,
          );
        }
      }
      for (const e of pending) await undo({ op: e.op, bridgeHome: b.bridge });
      if ((i + 1) % 50 === 0) console.log(`  ... ${i + 1} of ${kills} kills done`);
      const after = await listedIds(b);
      if ([...after.keys()].some((k) => !baseline.has(k)) || after.size !== baseline.size) {
        t.notRestored++;
        problem("undo did not leave the target as it was");
      }
    }
    const total = emptyTally();
    for (const [h, t] of tallies) {
      console.log(`  ${h}: ${line(t)}`);
      for (const k of Object.keys(total) as (keyof Tally)[]) total[k] += t[k];
    }
    console.log(`${line(total)} (seed ${seed})`);
    return total.corrupt + total.halfVisible + total.unseen + total.debris + total.notRestored +
        total.untruthful > 0;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function line(t: Tally): string {
  return `${t.kills} kills (${t.undoKills} during undo; ${t.atPoints} at crash points, ${t.timed} timed, ` +
    `${t.finishedFirst} finished first; ` +
    `${t.completed} completed, ${t.rolledBack} rolled back, ${t.hotJournals} hot journals left), ` +
    `${t.corrupt} corrupt stores, ${t.halfVisible} half ` +
    `sessions visible, ${t.unseen} sessions undo or recovery cannot see, ${t.debris} debris after recovery, ` +
    `${t.notRestored} targets not restored by undo, ${t.untruthful} ledgers untrue after a killed undo`;
}

try {
  process.exit(await main());
} catch (error) {
  // A harness without the material a campaign needs: the message says what to add, where.
  if (!(error instanceof MissingMaterial)) throw error;
  console.error(`crash-test: ${error.message}`);
  process.exit(1);
}
