// Runs the real Claude Code binary offline: private HOME / config dir / TMPDIR, pointed at a fake
// Anthropic server, with every background call (updates, telemetry, marketplace) switched off.
import { Buffer } from "node:buffer";
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";

export interface RunClaudeOptions {
  bin: string;
  /** Private home; the config dir is `<home>/.claude`, the temp dir `<home>/tmp`. */
  home: string;
  cwd: string;
  baseUrl: string;
  args: string[];
  /** Written to stdin, then stdin is closed. A function gets the live stdin to write over time. */
  input?: string | ((stdin: NodeJS.WritableStream) => Promise<void>);
  timeoutMs?: number;
  /** Extra env entries (win over the defaults). */
  env?: Record<string, string>;
  /** Called with the child's pid once spawned (e.g. to kill it mid-turn). */
  onSpawn?: (pid: number) => void;
}

export interface RunClaudeResult {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export const FAKE_API_KEY = "sk-ant-fake-session-bridge-0000000000";

export function claudeConfigDir(home: string): string {
  return join(home, ".claude");
}

export function claudeTmpDir(home: string): string {
  return join(home, "tmp");
}

/** Env for an offline run. PATH is kept so Bash tool commands find `echo`/`sleep`. */
export function claudeEnv(home: string, baseUrl: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    HOME: home,
    CLAUDE_CONFIG_DIR: claudeConfigDir(home),
    TMPDIR: claudeTmpDir(home),
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: "1",
    // A server error then fails in 0.3 s instead of ~40 s of retries.
    CLAUDE_CODE_MAX_RETRIES: "0",
    // Root may use --dangerously-skip-permissions only inside a declared sandbox.
    IS_SANDBOX: "1",
  };
}

/**
 * Creates the private dirs and settings. cleanupPeriodDays: without it a run of 5 s or more
 * deletes transcripts whose mtime is older than 30 days.
 */
export function prepareClaudeHome(home: string): void {
  const config = claudeConfigDir(home);
  mkdirSync(config, { recursive: true });
  mkdirSync(claudeTmpDir(home), { recursive: true });
  writeFileSync(join(config, "settings.json"), JSON.stringify({ cleanupPeriodDays: 100000 }, null, 2) + "\n");
}

export function runClaude(opts: RunClaudeOptions): Promise<RunClaudeResult> {
  prepareClaudeHome(opts.home);
  const env = { ...claudeEnv(opts.home, opts.baseUrl), ...opts.env };
  const child = spawn(opts.bin, opts.args, { cwd: opts.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  if (child.pid !== undefined) opts.onSpawn?.(child.pid);
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  child.stdout.on("data", (c: Buffer) => stdout.push(c));
  child.stderr.on("data", (c: Buffer) => stderr.push(c));
  // A killed child closes stdin under us; that EPIPE is expected, not a failure.
  child.stdin.on("error", () => {});
  feedStdin(child.stdin, opts.input);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killPid(child.pid);
  }, opts.timeoutMs ?? 120_000);
  return new Promise((resolve, reject) => {
    child.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
        timedOut,
      });
    });
  });
}

function feedStdin(stdin: NodeJS.WritableStream, input: RunClaudeOptions["input"]): void {
  if (input === undefined) {
    stdin.end();
  } else if (typeof input === "string") {
    stdin.end(input);
  } else {
    input(stdin).then(() => stdin.end(), () => stdin.end());
  }
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
