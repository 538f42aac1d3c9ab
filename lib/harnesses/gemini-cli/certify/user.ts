/**
 * Gemini CLI with the user's providers in a private home (real mode): the environment (GEMINI_API_KEY,
 * GOOGLE_API_KEY, GOOGLE_CLOUD_PROJECT, GOOGLE_GENAI_USE_VERTEXAI, ...), and from their `.gemini` folder the
 * settings (the auth type and model they chose), the Google login (`oauth_creds.json`, `google_accounts.json`)
 * and the `.env` the CLI loads itself.
 */
import { copyPresent, userEnvironment, userHarnessHome } from "../../../certify-kit/user-config.ts";
import { geminiPrivateEnv, geminiStoreDir, prepareGeminiHome } from "./run.ts";

/** Prepares `home` from the user's Gemini CLI and returns the environment to run it with. */
export function userGeminiHome(
  home: string,
  env: NodeJS.ProcessEnv,
  homeVariables: readonly string[],
): Record<string, string> {
  // GEMINI_CLI_HOME names the folder that holds `.gemini`, as the home folder does when it is unset.
  const userStore = geminiStoreDir(userHarnessHome(env, "GEMINI_CLI_HOME", ""));
  copyPresent(userStore, geminiStoreDir(home), [
    "settings.json",
    "oauth_creds.json",
    "google_accounts.json",
    ".env",
  ]);
  prepareGeminiHome(home);
  return { ...userEnvironment(env, homeVariables), ...geminiPrivateEnv(home) };
}
