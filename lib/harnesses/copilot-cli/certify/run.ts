// Runs the real Copilot CLI with a private HOME, COPILOT_HOME and TMPDIR: offline against the fake Chat
// Completions server through Copilot's own provider variables (COPILOT_PROVIDER_*, no GitHub login then), or
// (real mode) with the environment the caller carries over. Every start of the native binary makes sure its JS
// package (~235 MB) is unpacked under `<package cache>/pkg/<platform>/<version>/`: the runs share the cache the
// user's own Copilot unpacks into, so a private home does not unpack it again.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { spawnCollect, type SpawnResult } from "../../../certify-kit/spawn.ts";
import { userHome } from "../../../certify-kit/user-config.ts";

/** What every offline run says its model is: the id Copilot records, and the one the fake server is sent. */
export const FAKE_MODEL_ID = "gpt-4.1";
export const FAKE_WIRE_MODEL = "fake-model";

/** No update download or check, no remote session relay: nothing leaves 127.0.0.1. */
export const OFFLINE_FLAGS = ["--no-auto-update", "--no-remote"];

/**
 * The flags of every one-shot run: the session's events printed one a line (the `result` line names the
 * session), and tools allowed unasked, since `-p` denies every call otherwise and the seeding's tool turn runs
 * the shell.
 */
export const ONE_SHOT_FLAGS = [...OFFLINE_FLAGS, "--allow-all-tools", "--output-format", "json"];

/** The private folders of one Copilot CLI under test, all inside `root`. */
export interface CopilotFolders {
  home: string;
  /** COPILOT_HOME: the store session-bridge's `--copilot-home` names. */
  copilot: string;
  tmp: string;
}

export function copilotFolders(root: string): CopilotFolders {
  const folders = { home: join(root, "home"), copilot: join(root, "copilot"), tmp: join(root, "tmp") };
  for (const dir of Object.values(folders)) mkdirSync(dir, { recursive: true });
  return folders;
}

/**
 * Where the user's Copilot unpacks its package, as its loader picks it (1.0.102): COPILOT_PKG_CACHE_HOME, else
 * COPILOT_CACHE_HOME, else `${XDG_CACHE_HOME:-~/.cache}/copilot`.
 */
export function packageCache(env: NodeJS.ProcessEnv): string {
  return env.COPILOT_PKG_CACHE_HOME || env.COPILOT_CACHE_HOME ||
    join(env.XDG_CACHE_HOME || join(userHome(env), ".cache"), "copilot");
}

/** The folders every run gets, offline or not. */
export function copilotPrivateEnv(folders: CopilotFolders, env: NodeJS.ProcessEnv): Record<string, string> {
  return {
    HOME: folders.home,
    COPILOT_HOME: folders.copilot,
    TMPDIR: folders.tmp,
    COPILOT_PKG_CACHE_HOME: packageCache(env),
  };
}

/**
 * Env for an offline run: nothing inherited but the user's PATH (the shell tool's commands need it). The
 * provider is the fake server, spoken to as Chat Completions; COPILOT_OFFLINE keeps Copilot from GitHub's own
 * services.
 */
export function copilotEnv(
  folders: CopilotFolders,
  baseUrl: string,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  return {
    PATH: env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    ...copilotPrivateEnv(folders, env),
    COPILOT_PROVIDER_BASE_URL: `${baseUrl}/v1`,
    COPILOT_PROVIDER_TYPE: "openai",
    COPILOT_PROVIDER_WIRE_API: "completions",
    COPILOT_PROVIDER_MODEL_ID: FAKE_MODEL_ID,
    COPILOT_PROVIDER_WIRE_MODEL: FAKE_WIRE_MODEL,
    COPILOT_OFFLINE: "true",
  };
}

export function runCopilot(
  bin: string,
  cwd: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 180_000,
): Promise<SpawnResult> {
  return spawnCollect(bin, args, { cwd, env, timeoutMs });
}
