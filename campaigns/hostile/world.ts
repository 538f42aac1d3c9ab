/**
 * One case's world: a home for each harness of the campaign (its cast: the registry's harnesses and those of
 * `--harness-module`), each holding a session as its real binary left it, but the source's; the source
 * harness's session, handed off, in a home of its own; session-bridge's own folder; and `outside`, a folder
 * beside the homes holding someone else's files (where the cases point links): nothing may ever be written
 * there. What a harness's store is (its databases, the folders a link may take, its half sessions) comes from
 * its test material (`hostile`, tests/helpers/harness-material.ts). The CLI runs in child processes pointed at
 * these homes only, as a user would run it.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../../lib/runtime.ts";
import type { Harness } from "../../lib/harnesses/types.ts";
import {
  coverage,
  type HarnessMaterial,
  type HostileMaterial,
  loadHarnessModule,
  MissingMaterial,
} from "../../tests/helpers/harness-material.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
const WITH_MODULES = fileURLToPath(new URL("../../tests/helpers/cli-with-modules.ts", import.meta.url));

/** A harness of the campaign, with its test material and what the hostile campaigns ask of it. */
export interface Member {
  harness: Harness;
  material: HarnessMaterial;
  hostile: HostileMaterial;
}

/** The harnesses a campaign runs over, and how its child processes come to know them. */
export interface Cast {
  members: readonly Member[];
  /** The `--harness-module PATH` flags that bring the harnesses not built in (for a replay to repeat). */
  modules: readonly string[];
  /** What runs the CLI: main.ts, or with modules the entry that adds their harnesses, then their flags. */
  cli: readonly string[];
}

/**
 * The cast of the registry's harnesses and those of the harness modules at `modules`, each with its hostile
 * material: a harness without it is refused, saying what to add.
 */
export async function hostileCast(modules: readonly string[] = []): Promise<Cast> {
  const { covered } = await coverage(undefined, await Promise.all(modules.map(loadHarnessModule)));
  const members = covered.map(({ harness, material }) => {
    if (!material.hostile) {
      throw new MissingMaterial(
        `harness ${harness.name} has no material for the hostile campaigns: add \`hostile\` ` +
          `(HostileMaterial, tests/helpers/harness-material.ts) to its test material`,
      );
    }
    return { harness, material, hostile: material.hostile };
  });
  const flags = modules.flatMap((m) => ["--harness-module", m]);
  return {
    members,
    modules: flags,
    cli: flags.length ? [...scriptArgv(WITH_MODULES), ...flags] : scriptArgv(MAIN),
  };
}

/** The cast's harness `name`. */
export function memberOf(cast: Cast, name: string): Member {
  const found = cast.members.find((m) => m.harness.name === name);
  if (!found) throw new Error(`no harness ${name} in the campaign`);
  return found;
}

/**
 * The harness whose session every case hands off: the cast's first (the registry's). A handoff into it lands
 * in a home of its own, apart from the source's.
 */
export const sourceOf = (cast: Cast): Member => cast.members[0]!;

/** How a store keeps sessions: files of their own, files an index database lists, or rows of a database. */
export type StoreShape = "files" | "indexed files" | "database rows";

const shapeOf = ({ harness, hostile }: Member): StoreShape =>
  harness.files.sessionsInFile?.length
    ? "database rows"
    : hostile.databases.length
    ? "indexed files"
    : "files";

/**
 * The cast's first harness whose store is of `shape`: where a case about session-bridge's own folder hands
 * off, so each way a store is written meets one (which harness does not matter to such a case).
 */
export function ofShape(cast: Cast, shape: StoreShape): Member {
  const found = cast.members.find((m) => shapeOf(m) === shape);
  if (!found) throw new Error(`no harness of the campaign keeps sessions as ${shape}`);
  return found;
}

/** A session a home holds before the case. */
export interface WorldSession {
  id: string;
  home: string;
  file: string;
}

export interface World {
  /** The case's folder: `homes`, `outside`, the folders homes were placed in, and nothing else. */
  root: string;
  cast: Cast;
  /** Names in `root` that hold homes besides `homes` (a mounted file system's folder). */
  placedIn: string[];
  /** Each harness's home, by its name. */
  homes: Record<string, string>;
  /** session-bridge's own folder. */
  bridge: string;
  /** The session handed off: the source harness's, in a home of its own (read, never written but by reads). */
  source: string;
  /** The session each home holds before the case: the source's in its own home. */
  sessions: Record<string, WorldSession>;
  work: string;
  outside: string;
  /** The half sessions the homes held before the case began (a captured store's own): not the case's doing. */
  halfBefore: Set<string>;
}

/** Homes made under `folder` (a size-limited file system's mount) instead of `root/homes`. */
export interface Placed {
  folder: string;
  /** Harnesses, by name, whose home goes there. */
  harnesses: readonly string[];
  /** Whether session-bridge's folder goes there too. */
  bridge: boolean;
}

/** A fresh world under `root` with a home for each harness of `cast`, those `placed` names under its folder. */
export function createWorld(root: string, cast: Cast, placed?: Placed): World {
  const homesDir = join(root, "homes");
  const at = (name: string, isPlaced: boolean) => join(isPlaced ? placed!.folder : homesDir, name);
  const source = sourceOf(cast);
  const sourceHome = join(homesDir, "source");
  source.material.prepareHome(sourceHome);
  const sourceSession = source.hostile.heldSession(sourceHome);
  const homes: Record<string, string> = {};
  const sessions: Record<string, WorldSession> = {};
  for (const m of cast.members) {
    const name = m.harness.name;
    const home = at(name, !!placed?.harnesses.includes(name));
    m.material.prepareHome(home);
    homes[name] = home;
    sessions[name] = m === source
      ? { ...sourceSession, home: sourceHome }
      : { ...m.hostile.heldSession(home), home };
  }
  const bridge = at("bridge", !!placed?.bridge);
  mkdirSync(bridge, { recursive: true });
  const work = join(homesDir, "work");
  mkdirSync(work, { recursive: true });
  const outside = join(root, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "unrelated.txt"), "someone else's file\n");
  const world: World = {
    root,
    cast,
    placedIn: placed && dirname(placed.folder) === root ? [basename(placed.folder)] : [],
    homes,
    bridge,
    source: sourceSession.file,
    sessions,
    work,
    outside,
    halfBefore: new Set(),
  };
  world.halfBefore = new Set(halfSessions(world));
  return world;
}

/** Each half session in the world's homes (its store's material says what one is). */
export const halfSessions = (world: World): string[] =>
  world.cast.members.flatMap((m) => m.hostile.halfSessions(world.homes[m.harness.name]!));

/** The databases of harness `name`'s store in the world, with the tables its sessions are rows of. */
export const databasesOf = (world: World, name: string): { path: string; tables: readonly string[] }[] =>
  memberOf(world.cast, name).hostile.databases.map((d) => ({
    path: join(world.homes[name]!, d.file),
    tables: d.tables,
  }));

/** Every database of every store in the world. */
export const allDatabases = (world: World): string[] =>
  world.cast.members.flatMap((m) => databasesOf(world, m.harness.name).map((d) => d.path));

/** The flags pointing every harness at the world's homes (so nothing reads the machine's real ones). */
export const homeFlags = (world: World): string[] =>
  world.cast.members.flatMap((m) => [`--${m.harness.home.flag}`, world.homes[m.harness.name]!]);

/** The environment of a CLI run in `world`: its own session-bridge folder and user home, no debug output. */
export const worldEnv = (world: World): Record<string, string> => ({
  SESSION_BRIDGE_HOME: world.bridge,
  HOME: join(world.root, "homes"),
  SESSION_BRIDGE_DEBUG: "",
});

/** `handoff` of the world's session into `to`, JSON on stdout (for the operation's id), with `extra` flags. */
export const handoffArgs = (world: World, to: string, ...extra: string[]): string[] => [
  "handoff",
  world.source,
  "--to",
  to,
  "--cwd",
  world.work,
  "--no-handshake",
  "--json",
  ...homeFlags(world),
  ...extra,
];

export interface Run {
  args: string[];
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in a child process to its end (several at once for a race). */
export function runCli(world: World, args: string[]): Promise<Run> {
  const [bin, ...pre] = world.cast.cli;
  return new Promise((resolve, reject) => {
    const child = spawn(bin!, [...pre, ...args], {
      env: { ...process.env, ...worldEnv(world) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const output = { stdout: "", stderr: "" };
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (output.stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (output.stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ args, code, ...output }));
  });
}

/** How a run ended, as the summary counts it. */
export function outcomeOf(run: Run): string {
  return run.code === 0 ? "done" : run.code === 1 ? "refused" : run.code === 2 ? "bad input" : "crashed";
}

/** The operation a handoff run printed (its `--json` output), when it printed one. */
export function operationOf(run: Run): string | undefined {
  try {
    const op = (JSON.parse(run.stdout) as { op?: unknown }).op;
    return typeof op === "string" ? op : undefined;
  } catch {
    return undefined;
  }
}

/** Where the session a handoff run printed (its `--json` output) landed, when it printed one. */
export const landedAt = (run: Run): string | undefined =>
  (JSON.parse(run.stdout || "{}") as { target?: { path?: string } }).target?.path;

/**
 * Every entry under `dir` as it is, links not followed: a file by its hash, a link by what it points at, a
 * folder by its name. Equal listings: nothing was written, moved or removed there.
 */
export function listing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      const key = relative(dir, path);
      const stat = lstatSync(path);
      if (stat.isSymbolicLink()) out[key] = `link to ${readlinkSync(path)}`;
      else if (stat.isDirectory()) {
        out[`${key}/`] = `folder ${(stat.mode & 0o7777).toString(8)}`;
        walk(path);
      } else out[key] = createHash("sha256").update(readFileSync(path)).digest("hex");
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}
