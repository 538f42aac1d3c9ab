/**
 * Runs the real CLI: `cli` in a child process under the current runtime, as a user would (for the process's
 * own contract: exit status, signals, what a terminal sees); `runCli` in this process through the entry main.ts
 * calls, with the same arguments, environment and exit code, without starting a runtime per call.
 */
import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../../lib/runtime.ts";
import { run } from "../../lib/cli/main.ts";
import { outputTo } from "../../lib/cli/output.ts";
import { builtinRegistry, type Registry } from "../../lib/harnesses/registry.ts";
import type { Terminal } from "../../lib/cli/terminal.ts";
import { tempDir } from "./tmp.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
/** Backups and the undo ledger of test runs stay out of the real home. */
const BRIDGE_HOME = tempDir("sb-bridge-home-");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment a CLI run sees: this process's, with the test bridge home, no debug output, and `env`. */
const cliEnv = (env: Record<string, string>): Record<string, string | undefined> => ({
  ...process.env,
  SESSION_BRIDGE_DEBUG: "",
  SESSION_BRIDGE_HOME: BRIDGE_HOME,
  ...env,
});

/** Runs the CLI; `cwd` is the directory it starts in (relative flags and variables resolve against it). */
export function cli(args: string[], env: Record<string, string> = {}, cwd?: string): CliResult {
  const [bin, ...pre] = scriptArgv(MAIN);
  const r = spawnSync(bin!, [...pre, ...args], {
    encoding: "utf8",
    ...(cwd ? { cwd } : {}),
    env: cliEnv(env),
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** A CLI run started in a child process and left running: what it has written so far, and how it ended. */
export interface StartedCli {
  pid: number;
  /** Resolves once the child's stderr matches `pattern`, or it has exited (then with false). */
  stderrMatches(pattern: RegExp): Promise<boolean>;
  result: Promise<CliResult>;
}

/** Starts the CLI as `cli` does (in `cwd`), without waiting for it: for runs that must overlap (contention). */
export function startCli(args: string[], env: Record<string, string> = {}, cwd?: string): StartedCli {
  const [bin, ...pre] = scriptArgv(MAIN);
  const child = spawn(bin!, [...pre, ...args], {
    env: cliEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
    ...(cwd ? { cwd } : {}),
  });
  const output = { stdout: "", stderr: "" };
  const waiters: { pattern: RegExp; resolve: (seen: boolean) => void }[] = [];
  let exited = false;
  const settle = () => {
    for (const w of [...waiters]) {
      if (w.pattern.test(output.stderr) || exited) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(w.pattern.test(output.stderr));
      }
    }
  };
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => (output.stdout += chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
    output.stderr += chunk;
    settle();
  });
  const result = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      exited = true;
      settle();
      resolve({ code: code ?? -1, ...output });
    });
  });
  return {
    pid: child.pid!,
    stderrMatches: (pattern) =>
      new Promise((resolve) => {
        waiters.push({ pattern, resolve });
        settle();
      }),
    result,
  };
}

export function cliJson(
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): CliResult & { json: Record<string, unknown> } {
  const r = cli([...args, "--json"], env, cwd);
  return { ...r, json: JSON.parse(r.stdout) as Record<string, unknown> };
}

/**
 * Runs the CLI in this process, as main.ts would with `env` as the environment it read and `cwd` as its
 * directory (for the call only). process.env is left alone: the CLI reads the environment once, at the edge,
 * and passes it down, so a command that read process.env instead would miss what a test passes and fail it.
 * Calls run one at a time, as node:test runs a file's tests.
 */
export async function runCli(
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
  registry?: Registry,
  terminal?: Terminal,
): Promise<CliResult> {
  if (args[0] === "convert" && !args.some((a) => /^(?:-o|--output(?:=.*)?|-h|--help)$/.test(a))) {
    throw new Error("convert to stdout writes the session to this process's stdout: use cli() for it");
  }
  const output = { 1: "", 2: "" };
  const environment = cliEnv(env);
  const savedCwd = process.cwd();
  if (cwd) process.chdir(cwd);
  try {
    const code = await run(args, environment, {
      ...(registry ? { registry } : {}),
      ...(terminal ? { terminal } : {}),
      output: outputTo((fd, text) => (output[fd] += text)),
    });
    return { code, stdout: output[1], stderr: output[2] };
  } finally {
    process.chdir(savedCwd);
  }
}

export async function runCliJson(
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<CliResult & { json: Record<string, unknown> }> {
  const r = await runCli([...args, "--json"], env, cwd);
  return { ...r, json: JSON.parse(r.stdout) as Record<string, unknown> };
}

/**
 * The home flags of every registered harness: the home `given` for it, else a folder under `dir` that does not
 * exist (`empty-<name>`), so that no run reaches a real store, whatever harnesses are registered. A name
 * `given` that is not registered is refused (a typo would otherwise leave that harness on an empty home).
 */
export function homeFlags(given: Readonly<Record<string, string>>, dir: string): string[] {
  const names = builtinRegistry.harnesses.map((h) => h.name);
  const unknown = Object.keys(given).filter((name) => !names.includes(name));
  if (unknown.length) throw new Error(`homeFlags: no registered harness ${unknown.join(", ")}`);
  return builtinRegistry.harnesses.flatMap((h) => [
    `--${h.home.flag}`,
    given[h.name] ?? join(dir, `empty-${h.name}`),
  ]);
}

/**
 * The home flags pointing every registered harness at a folder under `dir` that does not exist (`empty-<name>`):
 * stores with no session, for the messages that say where they looked. `claude`, when given, is the Claude Code
 * home instead (a seeded one), the others staying empty.
 */
export const emptyHomes = (dir: string, claude?: string): string[] =>
  homeFlags(claude ? { "claude-code": claude } : {}, dir);
