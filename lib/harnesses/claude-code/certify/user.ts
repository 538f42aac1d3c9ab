/**
 * Claude Code with the user's providers in a private home (real mode): the environment (ANTHROPIC_API_KEY,
 * ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL, CLAUDE_CODE_USE_BEDROCK / _VERTEX and their cloud variables, ...),
 * the subscription login (`.credentials.json`), an API key stored by `/login` (`primaryApiKey` in
 * `.claude.json`), and the settings that choose a provider or model (`env`, `apiKeyHelper`, `model`, AWS hooks).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  copyPresent,
  pick,
  readJsonObject,
  userEnvironment,
  userHarnessHome,
  userHome,
} from "../../../certify-kit/user-config.ts";
import { CLAUDE_SETTINGS, claudeConfigDir, claudePrivateEnv, prepareClaudeHome } from "./run.ts";

const PROVIDER_SETTINGS = ["env", "apiKeyHelper", "model", "awsAuthRefresh", "awsCredentialExport"];

/** Prepares `home` from the user's Claude Code and returns the environment to run it with. */
export function userClaudeHome(
  home: string,
  env: NodeJS.ProcessEnv,
  homeVariables: readonly string[],
): Record<string, string> {
  const userConfig = userHarnessHome(env, "CLAUDE_CONFIG_DIR", ".claude");
  const config = claudeConfigDir(home);
  const settings = readJsonObject(join(userConfig, "settings.json"));
  prepareClaudeHome(home, { ...pick(settings, PROVIDER_SETTINGS), ...CLAUDE_SETTINGS });
  copyPresent(userConfig, config, [".credentials.json"]);
  // `.claude.json` sits in the config dir when CLAUDE_CONFIG_DIR is set, else in the home folder.
  const state = readJsonObject(
    env.CLAUDE_CONFIG_DIR ? join(userConfig, ".claude.json") : join(userHome(env), ".claude.json"),
  );
  const key = pick(state, ["primaryApiKey"]);
  if (Object.keys(key).length) writeFileSync(join(config, ".claude.json"), JSON.stringify(key) + "\n");
  return { ...userEnvironment(env, homeVariables), ...claudePrivateEnv(home) };
}
