/**
 * One case's world: a Claude Code session to hand off, a home for each harness (Claude Code empty, Codex and
 * Hermes holding a session each, as their real binaries left them), session-bridge's own folder, and `outside`, a folder beside the
 * homes holding someone else's files (where the cases point links): nothing may ever be written there. The CLI
 * runs in child processes pointed at these homes only, as a user would run it.
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
import { DatabaseSync } from "node:sqlite";
import { scriptArgv } from "../../lib/runtime.ts";
import { seedClaudeHome } from "../../tests/helpers/fixtures.ts";
import { makeCodexHome, seedCodexThread } from "../../tests/helpers/codex.ts";
import { seedHermesHome } from "../../tests/helpers/hermes.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

export const TARGETS = ["claude", "codex", "hermes"] as const;
export type Target = (typeof TARGETS)[number];
/** The homes a case may place elsewhere (on a size-limited file system). */
export type HomeName = Target | "bridge";

export const HARNESS: Record<Target, string> = { claude: "claude-code", codex: "codex", hermes: "hermes" };
const HOME_FLAG: Record<Target, string> = {
  claude: "--claude-home",
  codex: "--codex-home",
  hermes: "--hermes-home",
};

export interface World {
  /** The case's folder: `homes`, `outside`, the folders homes were placed in, and nothing else. */
  root: string;
  /** Names in `root` that hold homes besides `homes` (a mounted file system's folder). */
  placedIn: string[];
  homes: Record<HomeName, string>;
  databases: { codex: string; hermes: string };
  /** The Claude Code transcript handed off, in a home of its own (read, never written but by a reads case). */
  source: string;
  /** A session each harness holds before the case: the source's (in its own home), Codex's and Hermes's. */
  sessions: Record<Target, { id: string; home: string; file: string }>;
  work: string;
  outside: string;
  /** Hermes sessions without a message before the case began (the fixture's own). */
  emptyHermesSessions: Set<string>;
}

/**
 * A fresh world under `root`; a home named in `placed` is made under that folder instead (the mount of a
 * size-limited file system), the rest under `root/homes`.
 */
export function createWorld(root: string, placed: Partial<Record<HomeName, string>> = {}): World {
  const at = (name: HomeName) => join(placed[name] ?? join(root, "homes"), name);
  const homes = { claude: at("claude"), codex: at("codex"), hermes: at("hermes"), bridge: at("bridge") };
  const seeded = seedClaudeHome(join(root, "homes", "source"), "thinking-tool-use");
  mkdirSync(homes.claude, { recursive: true });
  mkdirSync(homes.bridge, { recursive: true });
  const databases = {
    codex: makeCodexHome(homes.codex),
    hermes: seedHermesHome(homes.hermes, "0.19.0", "text-turns"),
  };
  const thread = seedCodexThread(homes.codex, "0.169.0", "text-turns");
  const sessions = {
    claude: { id: seeded.id, home: join(root, "homes", "source"), file: seeded.path },
    codex: { id: thread.id, home: homes.codex, file: thread.path },
    hermes: { id: firstHermesSession(databases.hermes), home: homes.hermes, file: databases.hermes },
  };
  const work = join(root, "homes", "work");
  mkdirSync(work, { recursive: true });
  const outside = join(root, "outside");
  mkdirSync(outside);
  writeFileSync(join(outside, "unrelated.txt"), "someone else's file\n");
  const placedIn = Object.values(placed).filter((dir) => dirname(dir) === root).map((dir) => basename(dir));
  const world = {
    root,
    placedIn: [...new Set(placedIn)],
    homes,
    databases,
    source: seeded.path,
    sessions,
    work,
    outside,
    emptyHermesSessions: new Set<string>(),
  };
  world.emptyHermesSessions = emptyHermesSessions(world);
  return world;
}

function firstHermesSession(database: string): string {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    return (db.prepare("SELECT id FROM sessions ORDER BY started_at LIMIT 1").get() as { id: string }).id;
  } finally {
    db.close();
  }
}

/** Hermes sessions with no message (a handoff's session row left without its messages is half a session). */
export function emptyHermesSessions(world: World): Set<string> {
  const db = new DatabaseSync(world.databases.hermes, { readOnly: true });
  try {
    const rows = db.prepare(
      "SELECT id FROM sessions WHERE id NOT IN (SELECT DISTINCT session_id FROM messages)",
    ).all() as { id: string }[];
    return new Set(rows.map((r) => r.id));
  } finally {
    db.close();
  }
}

/** The flags pointing every harness at the world's homes (so nothing reads the machine's real ones). */
export const homeFlags = (world: World): string[] => TARGETS.flatMap((t) => [HOME_FLAG[t], world.homes[t]]);

/** The environment of a CLI run in `world`: its own session-bridge folder and user home, no debug output. */
export const worldEnv = (world: World): Record<string, string> => ({
  SESSION_BRIDGE_HOME: world.homes.bridge,
  HOME: join(world.root, "homes"),
  SESSION_BRIDGE_DEBUG: "",
});

/** `handoff` of the world's session into `to`, JSON on stdout (for the operation's id), with `extra` flags. */
export const handoffArgs = (world: World, to: Target, ...extra: string[]): string[] => [
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
  const [bin, ...pre] = scriptArgv(MAIN);
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
