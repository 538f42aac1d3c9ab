// Runs the real Claude Code binary with a private HOME / config dir / TMPDIR: offline against a fake Anthropic
// server with every background call (updates, telemetry, marketplace) switched off, or (real mode) with the
// environment the caller builds from the user's own providers.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnCollect, type SpawnOptions, type SpawnResult } from "../../../certify-kit/spawn.ts";

export { killPid } from "../../../certify-kit/spawn.ts";

export interface RunClaudeOptions {
  bin: string;
  /** Private home; the config dir is `<home>/.claude`, the temp dir `<home>/tmp`. */
  home: string;
  cwd: string;
  args: string[];
  /** Written to stdin, then stdin is closed. A function gets the live stdin to write over time. */
  input?: SpawnOptions["input"];
  timeoutMs?: number;
  /** The environment to start from: the offline one (`claudeEnv`), or the user's (real mode). */
  baseEnv: Record<string, string>;
  /** Extra env entries (win over the defaults). */
  env?: Record<string, string>;
  /** Called with the child's pid once spawned (e.g. to kill it mid-turn). */
  onSpawn?: (pid: number) => void;
}

export type RunClaudeResult = SpawnResult;

export const FAKE_API_KEY = "sk-ant-fake-session-bridge-0000000000";

export function claudeConfigDir(home: string): string {
  return join(home, ".claude");
}

export function claudeTmpDir(home: string): string {
  return join(home, "tmp");
}

/** What every run gets, offline or not: the private dirs and no background traffic. */
export function claudePrivateEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    CLAUDE_CONFIG_DIR: claudeConfigDir(home),
    TMPDIR: claudeTmpDir(home),
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL: "1",
    // Root may use --dangerously-skip-permissions only inside a declared sandbox.
    IS_SANDBOX: "1",
  };
}

/**
 * Env for an offline run against the fake server at `baseUrl`. The user's PATH (`path`) is kept so Bash tool
 * commands find `echo`/`sleep`.
 */
export function claudeEnv(home: string, baseUrl: string, path: string | undefined): Record<string, string> {
  return {
    PATH: path ?? "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    ...claudePrivateEnv(home),
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: FAKE_API_KEY,
    // A server error then fails in 0.3 s instead of ~40 s of retries.
    CLAUDE_CODE_MAX_RETRIES: "0",
  };
}

/** Settings every private home gets (merged over what real mode carries over from the user's). */
export const CLAUDE_SETTINGS = {
  // Without it a run of 5 s or more deletes transcripts whose mtime is older than 30 days.
  cleanupPeriodDays: 100000,
};

/** Creates the private dirs, and the settings unless the home already has its own. */
export function prepareClaudeHome(home: string, settings: object = CLAUDE_SETTINGS): void {
  const config = claudeConfigDir(home);
  mkdirSync(config, { recursive: true });
  mkdirSync(claudeTmpDir(home), { recursive: true });
  const path = join(config, "settings.json");
  if (!existsSync(path)) writeFileSync(path, JSON.stringify(settings, null, 2) + "\n");
}

export function runClaude(opts: RunClaudeOptions): Promise<RunClaudeResult> {
  prepareClaudeHome(opts.home);
  return spawnCollect(opts.bin, opts.args, {
    cwd: opts.cwd,
    env: { ...opts.baseEnv, ...opts.env },
    // An ended pipe rather than /dev/null: what the binary was observed with when capturing fixtures.
    input: opts.input ?? "",
    timeoutMs: opts.timeoutMs ?? 120_000,
    ...(opts.onSpawn ? { onSpawn: opts.onSpawn } : {}),
  });
}
