// Runs the real Codex CLI offline: private HOME / CODEX_HOME / TMPDIR, a custom model provider pointed at the
// fake Responses server (a custom provider also avoids Codex's websocket attempt), stdin closed.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { newestStateDb } from "../lib/harnesses/codex/locate.ts";

export const CODEX_MODEL = "gpt-5.5";
export const CODEX_PROVIDER = "fake";

export interface RunCodexResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

export function codexHomeDir(home: string): string {
  return join(home, ".codex");
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
      `env_key = "FAKE_OPENAI_API_KEY"`,
      `wire_api = "responses"`,
      "",
    ].join("\n"),
  );
}

export function runCodex(
  bin: string,
  home: string,
  cwd: string,
  args: string[],
  timeoutMs = 120_000,
): Promise<RunCodexResult> {
  const env = {
    PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
    HOME: home,
    CODEX_HOME: codexHomeDir(home),
    TMPDIR: join(home, "tmp"),
    FAKE_OPENAI_API_KEY: "sk-fake-session-bridge",
  };
  const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let timedOut = false;
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString("utf8")));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString("utf8")));
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, timedOut });
    });
  });
}

/** The thread id `codex exec --json` announces on its first event. */
export function threadIdOf(stdout: string): string | undefined {
  return /"thread\.started".*?"thread_id":"([0-9a-f-]{36})"/.exec(stdout)?.[1];
}

/**
 * A home Codex has never run in has no state database, and a handoff refuses to guess its schema. Codex creates
 * it (with all migrations) on any command that opens the thread store; archiving an id that does not exist is
 * one that needs no model and changes nothing else.
 */
export async function initCodexStore(bin: string, home: string, cwd: string): Promise<void> {
  if (newestStateDb(codexHomeDir(home))) return;
  await runCodex(bin, home, cwd, ["archive", "00000000-0000-7000-8000-000000000000"], 60_000);
}
