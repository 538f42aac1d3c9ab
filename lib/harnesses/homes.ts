/**
 * Where each harness keeps its store, decided once at the edge: flag, else the harness's own environment
 * variable, else its default under the user's home. Homes are made absolute here, because they end up in
 * places read later from another directory (Codex's `threads.rollout_path`, printed resume commands).
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { Homes } from "./types.ts";

export interface HomeFlags {
  claudeHome?: string;
  codexHome?: string;
  hermesHome?: string;
}

/** The variable each harness reads its home from; a resume command sets it whenever the home is not the default. */
export const HOME_VARIABLES: Record<keyof Homes, string> = {
  claudeHome: "CLAUDE_CONFIG_DIR",
  codexHome: "CODEX_HOME",
  hermesHome: "HERMES_HOME",
};

const DEFAULT_FOLDERS: Record<keyof Homes, string> = {
  claudeHome: ".claude",
  codexHome: ".codex",
  hermesHome: ".hermes",
};

const userHome = (env: NodeJS.ProcessEnv): string => resolve(env.HOME || homedir());

/** `~` and `~/x` as a shell would have expanded them (a `--flag=~/x` reaches us unexpanded). */
function expandTilde(path: string, env: NodeJS.ProcessEnv): string {
  return path === "~" || path.startsWith("~/") ? join(userHome(env), path.slice(1)) : path;
}

/** The home each harness uses when neither a flag nor its variable names one. */
export function defaultHome(which: keyof Homes, env: NodeJS.ProcessEnv = process.env): string {
  return join(userHome(env), DEFAULT_FOLDERS[which]);
}

/** Flags first, then each harness's own environment variable, then its default; always absolute. */
export function resolveHomes(
  flags: HomeFlags,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Homes {
  const pick = (which: keyof Homes): string => {
    const given = flags[which] || env[HOME_VARIABLES[which]];
    return given ? resolve(cwd, expandTilde(given, env)) : defaultHome(which, env);
  };
  return { claudeHome: pick("claudeHome"), codexHome: pick("codexHome"), hermesHome: pick("hermesHome") };
}

/**
 * The environment a printed command needs for a harness to find `home`: its variable when the home is not
 * the default one (a fresh terminal may not have the variable set), nothing otherwise.
 */
export function homeEnvironment(
  which: keyof Homes,
  home: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  return resolve(home) === defaultHome(which, env) ? {} : { [HOME_VARIABLES[which]]: resolve(home) };
}
