/**
 * OpenCode with the user's providers in a private home (real mode): the environment (provider API keys, and
 * OPENCODE_CONFIG or OPENCODE_CONFIG_CONTENT when they set them), their user config from
 * `${XDG_CONFIG_HOME:-~/.config}/opencode` (provider, model) and their logins (`auth.json` in OpenCode's data
 * folder, `${XDG_DATA_HOME:-~/.local/share}/opencode`).
 */
import { join } from "node:path";
import { copyPresent, userEnvironment, userHome } from "../../../certify-kit/user-config.ts";
import { opencodeDataHome, type OpencodeFolders, opencodePrivateEnv } from "./run.ts";

/** Prepares `folders` from the user's OpenCode and returns the environment to run it with. */
export function userOpencodeHome(
  folders: OpencodeFolders,
  env: NodeJS.ProcessEnv,
  homeVariables: readonly string[],
): Record<string, string> {
  const configHome = env.XDG_CONFIG_HOME || join(userHome(env), ".config");
  const dataHome = env.XDG_DATA_HOME || join(userHome(env), ".local", "share");
  copyPresent(join(configHome, "opencode"), join(folders.config, "opencode"), [
    "opencode.json",
    "opencode.jsonc",
    "config.json",
  ]);
  copyPresent(join(dataHome, "opencode"), opencodeDataHome(folders), ["auth.json"]);
  return {
    ...userEnvironment(env, homeVariables),
    ...opencodePrivateEnv(folders),
    OPENCODE_DISABLE_AUTOUPDATE: "true",
  };
}
