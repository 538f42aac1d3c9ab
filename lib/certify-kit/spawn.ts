/**
 * Runs one child process to completion and collects its output: the harness binaries and session-bridge
 * itself. A timeout kills only the process we started (or, with `group`, the process group it leads, since
 * Hermes spawns helpers that would otherwise keep the pipes open).
 */
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";

export interface SpawnOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number;
  /** Written to stdin, then stdin is closed; a function gets the live stdin to write over time. */
  input?: string | ((stdin: NodeJS.WritableStream) => Promise<void>);
  /** Start the child as the leader of its own process group and kill the whole group on timeout. */
  group?: boolean;
  /** Called with the child's pid once spawned (e.g. to interrupt it mid-turn). */
  onSpawn?: (pid: number) => void;
}

export interface SpawnResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
}

export function spawnCollect(command: string, args: string[], opts: SpawnOptions): Promise<SpawnResult> {
  const started = Date.now();
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env,
    stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
    detached: opts.group === true,
  });
  if (child.pid !== undefined) opts.onSpawn?.(child.pid);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout?.on("data", (c: Buffer) => stdout.push(c));
  child.stderr?.on("data", (c: Buffer) => stderr.push(c));
  if (child.stdin) {
    // A child that exits early closes stdin under us; that EPIPE is expected, not a failure.
    child.stdin.on("error", () => {});
    feedStdin(child.stdin, opts.input);
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    if (opts.group) killGroup(child.pid);
    else killPid(child.pid);
  }, opts.timeoutMs ?? 180_000);
  return new Promise((resolve, reject) => {
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
        timedOut,
        ms: Date.now() - started,
      });
    });
  });
}

function feedStdin(stdin: NodeJS.WritableStream, input: SpawnOptions["input"]): void {
  if (typeof input === "string") stdin.end(input);
  else if (input) input(stdin).then(() => stdin.end(), () => stdin.end());
  else stdin.end();
}

/** Kill exactly one process by id; gone already is fine. */
export function killPid(pid: number | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, signal);
  } catch {
    // Already exited.
  }
}

/** Kill the process group a child we started with `group` leads (its pgid is its own pid). */
export function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    killPid(pid);
  }
}

/** The last `n` characters of a process's stderr, for a one-line failure reason. */
export function tail(text: string, n = 300): string {
  // Each run of whitespace holding a line break becomes one separator; the look-behind starts the pattern only
  // where a run starts, so a long run without a line break is read once, not once per character.
  return text.trim().slice(-n).replace(/(?<!\s)[^\S\n]*\n\s*/g, " | ");
}

/** An environment as a child env: defined values only, without the variables named in `drop`. */
export function definedEnv(env: NodeJS.ProcessEnv, drop: string[] = []): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && !drop.includes(e[0])),
  );
}
