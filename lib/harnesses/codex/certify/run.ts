// Runs the real Codex CLI with a private HOME / CODEX_HOME / TMPDIR, stdin closed: offline with a custom model
// provider pointed at the fake Responses server (a custom provider also avoids Codex's websocket attempt), or
// (real mode) with the environment and config the caller carries over from the user.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { newestStateDb } from "../locate.ts";
import { spawnCollect, type SpawnResult } from "../../../certify-kit/spawn.ts";

export const CODEX_MODEL = "gpt-5.5";
export const CODEX_PROVIDER = "fake";
const FAKE_KEY_VARIABLE = "FAKE_OPENAI_API_KEY";

export type RunCodexResult = SpawnResult;

export function codexHomeDir(home: string): string {
  return join(home, ".codex");
}

/** The private dirs every run gets, offline or not. */
export function codexPrivateEnv(home: string): Record<string, string> {
  return { HOME: home, CODEX_HOME: codexHomeDir(home), TMPDIR: join(home, "tmp") };
}

/** Env for an offline run: nothing inherited but the user's PATH (`path`); the fake provider's key. */
export function codexEnv(home: string, path: string | undefined): Record<string, string> {
  return {
    PATH: path ?? "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    ...codexPrivateEnv(home),
    [FAKE_KEY_VARIABLE]: "sk-fake-session-bridge",
  };
}

/** config.toml selecting the fake provider: `base_url` ends in /v1, the key comes from the environment. */
export function prepareCodexHome(home: string, baseUrl: string): void {
  mkdirSync(codexHomeDir(home), { recursive: true });
  mkdirSync(join(home, "tmp"), { recursive: true });
  writeFileSync(
    join(codexHomeDir(home), "config.toml"),
    [
      `model = "${CODEX_MODEL}"`,
      `model_provider = "${CODEX_PROVIDER}"`,
      "",
      `[model_providers.${CODEX_PROVIDER}]`,
      `name = "Fake Responses"`,
      `base_url = "${baseUrl}"`,
      `env_key = "${FAKE_KEY_VARIABLE}"`,
      `wire_api = "responses"`,
      "",
    ].join("\n"),
  );
}

export function runCodex(
  bin: string,
  cwd: string,
  args: string[],
  timeoutMs: number,
  env: Record<string, string>,
): Promise<RunCodexResult> {
  return spawnCollect(bin, args, { cwd, env, timeoutMs });
}

/**
 * The thread id `codex exec --json` announces on its first event: the first `"thread_id":"…"` after the first
 * `"thread.started"` of a line. Read line by line with indexOf: a lazy pattern would search to the line's end
 * again from every `"thread.started"` in it (a later one in a line can only find less).
 */
export function threadIdOf(stdout: string): string | undefined {
  for (const line of stdout.split(/[\n\r\u2028\u2029]/)) {
    const started = line.indexOf('"thread.started"');
    if (started === -1) continue;
    const id = /"thread_id":"([0-9a-f-]{36})"/.exec(line.slice(started))?.[1];
    if (id !== undefined) return id;
  }
  return undefined;
}

/**
 * A home Codex has never run in has no state database, and a handoff refuses to guess its schema. Codex creates
 * it (with all migrations) on any command that opens the thread store; archiving an id that does not exist is
 * one that needs no model and changes nothing else.
 */
export async function initCodexStore(
  bin: string,
  home: string,
  cwd: string,
  env: Record<string, string>,
): Promise<void> {
  if (newestStateDb(codexHomeDir(home))) return;
  await runCodex(bin, cwd, ["archive", "00000000-0000-7000-8000-000000000000"], 60_000, env);
}
