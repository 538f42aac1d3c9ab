/**
 * Codex with the user's providers in a private home (real mode): the environment (OPENAI_API_KEY and whatever
 * `env_key` their providers name), `config.toml` (model, provider, profiles) and the login in `auth.json`.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { copyPresent, userEnvironment, userHarnessHome } from "../../../certify-kit/user-config.ts";
import { codexHomeDir, codexPrivateEnv } from "./run.ts";

/** Prepares `home` from the user's Codex and returns the environment to run it with. */
export function userCodexHome(
  home: string,
  env: NodeJS.ProcessEnv,
  homeVariables: readonly string[],
): Record<string, string> {
  mkdirSync(join(home, "tmp"), { recursive: true });
  copyPresent(userHarnessHome(env, "CODEX_HOME", ".codex"), codexHomeDir(home), ["config.toml", "auth.json"]);
  return { ...userEnvironment(env, homeVariables), ...codexPrivateEnv(home) };
}
