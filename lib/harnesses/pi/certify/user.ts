/**
 * Pi with the user's providers in a private home (real mode): the environment (provider API keys), and from
 * their agent folder (PI_CODING_AGENT_DIR, default ~/.pi/agent) the files that say which provider and model to
 * use and hold its login: `settings.json` (defaultProvider, defaultModel), `models.json` (custom providers) and
 * `auth.json` (API keys and OAuth logins `/login` saved).
 */
import { copyPresent, userEnvironment, userHarnessHome } from "../../../certify-kit/user-config.ts";
import { type PiFolders, piPrivateEnv } from "./run.ts";

/** Prepares `folders` from the user's Pi and returns the environment to run it with. */
export function userPiHome(
  folders: PiFolders,
  env: NodeJS.ProcessEnv,
  homeVariables: readonly string[],
): Record<string, string> {
  copyPresent(userHarnessHome(env, "PI_CODING_AGENT_DIR", ".pi/agent"), folders.agent, [
    "settings.json",
    "models.json",
    "auth.json",
  ]);
  return { ...userEnvironment(env, homeVariables), ...piPrivateEnv(folders) };
}
