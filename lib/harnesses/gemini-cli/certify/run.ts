// Runs the real Gemini CLI with a private HOME / GEMINI_CLI_HOME / TMPDIR, stdin closed: offline against the fake
// Gemini API (GOOGLE_GEMINI_BASE_URL, a fake key, and the settings that make 0.61 accept them), or (real mode)
// with the environment the caller carries over from the user.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { spawnCollect, type SpawnResult } from "../../../certify-kit/spawn.ts";

export type RunGeminiResult = SpawnResult;

const FAKE_API_KEY = "fake-gemini-key-session-bridge";

/** Gemini CLI keeps everything in `$GEMINI_CLI_HOME/.gemini` (the home folder when the variable is unset). */
export function geminiStoreDir(home: string): string {
  return join(home, ".gemini");
}

function geminiTmpDir(home: string): string {
  return join(home, "tmp");
}

/**
 * What every run gets, offline or not: the private dirs (a failing model call writes
 * `$TMPDIR/gemini-client-error-*.json`), and the project folder trusted without the TUI's trust dialog (a
 * one-shot run in an untrusted folder refuses to start).
 */
export function geminiPrivateEnv(home: string): Record<string, string> {
  return {
    HOME: home,
    GEMINI_CLI_HOME: home,
    TMPDIR: geminiTmpDir(home),
    GEMINI_CLI_TRUST_WORKSPACE: "true",
  };
}

/**
 * Env for an offline run: nothing inherited but the user's PATH, given by the caller (the shell tool's commands
 * need it).
 */
export function geminiEnv(home: string, baseUrl: string, path: string | undefined): Record<string, string> {
  return {
    PATH: path ?? "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    ...geminiPrivateEnv(home),
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    GEMINI_API_KEY: FAKE_API_KEY,
  };
}

/**
 * Settings every private home gets. The base URL alone makes 0.61 pick the "gateway" auth type, which it then
 * refuses ("Invalid auth method selected."): the settings name the API key's type, and the base URL is still
 * used for it. No update checks, no usage statistics: nothing leaves 127.0.0.1. No session cleanup: 0.61's
 * (on by default) deletes a session resumed in a later minute than its file is named for, at the next start
 * (docs/harnesses/gemini-cli.md), so a seeding whose two turns straddle a minute lost its session at random.
 */
export const GEMINI_SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" } },
  general: {
    enableAutoUpdate: false,
    enableAutoUpdateNotification: false,
    sessionRetention: { enabled: false },
  },
  privacy: { usageStatisticsEnabled: false },
};

/** Creates the private dirs, and the settings unless the home already has its own (real mode copies them). */
export function prepareGeminiHome(home: string, settings: object = GEMINI_SETTINGS): void {
  mkdirSync(geminiStoreDir(home), { recursive: true });
  mkdirSync(geminiTmpDir(home), { recursive: true });
  const path = join(geminiStoreDir(home), "settings.json");
  if (!existsSync(path)) writeFileSync(path, `${JSON.stringify(settings, null, 2)}\n`);
}

/**
 * The flags of every one-shot run (`-p`): its answer printed as one JSON object, and `--approval-mode yolo`,
 * since only then does a headless run offer the model the shell tool at all.
 */
export const ONE_SHOT_FLAGS = ["--approval-mode", "yolo", "--output-format", "json"];

export function runGemini(
  bin: string,
  cwd: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 180_000,
): Promise<RunGeminiResult> {
  return spawnCollect(bin, args, { cwd, env, timeoutMs });
}

/** What `gemini -p --output-format json` prints: the session id (0.x versions that name it) and the answer. */
export interface GeminiJsonOutput {
  sessionId?: string;
  response?: string;
  error?: string;
}

/**
 * The one JSON object a one-shot run prints on stdout. Older versions may print words before it (a deprecation
 * notice), so the object is taken from the first line that opens one.
 */
export function parseJsonOutput(stdout: string): GeminiJsonOutput {
  const start = stdout.search(/^\{/m);
  if (start === -1) return {};
  try {
    const value = JSON.parse(stdout.slice(start)) as Record<string, unknown>;
    const error = value.error as { message?: unknown } | undefined;
    return {
      ...(typeof value.session_id === "string" ? { sessionId: value.session_id } : {}),
      ...(typeof value.response === "string" ? { response: value.response } : {}),
      ...(error ? { error: typeof error.message === "string" ? error.message : JSON.stringify(error) } : {}),
    };
  } catch {
    return {};
  }
}
