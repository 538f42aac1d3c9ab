/**
 * Hermes Agent with the user's providers in a private home (real mode): the environment (provider API keys),
 * and from their Hermes home `config.yaml` (provider, model, base URL), `.env` (the keys Hermes loads itself)
 * and `auth.json` (OAuth logins). A profile other than the default is not followed.
 */
import { copyPresent, userEnvironment, userHarnessHome } from "../../../certify-kit/user-config.ts";
import { hermesPrivateEnv, writeUpdateStamp } from "./run.ts";

/** Prepares `hermesHome` from the user's Hermes and returns the environment to run it with. */
export function userHermesHome(
  home: string,
  hermesHome: string,
  tmp: string,
  version: string,
  env: NodeJS.ProcessEnv,
  homeVariables: readonly string[],
): Record<string, string> {
  writeUpdateStamp(hermesHome, version);
  copyPresent(userHarnessHome(env, "HERMES_HOME", ".hermes"), hermesHome, [
    "config.yaml",
    ".env",
    "auth.json",
  ]);
  return { ...userEnvironment(env, homeVariables), ...hermesPrivateEnv(home, hermesHome, tmp) };
}
