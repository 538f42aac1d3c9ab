/**
 * Copilot CLI with the user's providers in a private home (real mode): the environment (COPILOT_GITHUB_TOKEN,
 * GH_TOKEN, GITHUB_TOKEN, or COPILOT_PROVIDER_* for their own provider, COPILOT_MODEL), and from their
 * COPILOT_HOME (`~/.copilot`) `config.json` (the logged-in users, and the token where no system keychain
 * holds it) and `settings.json` (the model they chose).
 */
import { copyPresent, userEnvironment, userHarnessHome } from "../../../certify-kit/user-config.ts";
import { type CopilotFolders, copilotPrivateEnv } from "./run.ts";

/** Prepares `folders` from the user's Copilot CLI and returns the environment to run it with. */
export function userCopilotHome(
  folders: CopilotFolders,
  env: NodeJS.ProcessEnv,
  homeVariables: readonly string[],
): Record<string, string> {
  copyPresent(userHarnessHome(env, "COPILOT_HOME", ".copilot"), folders.copilot, [
    "config.json",
    "settings.json",
  ]);
  return { ...userEnvironment(env, homeVariables), ...copilotPrivateEnv(folders, env) };
}
