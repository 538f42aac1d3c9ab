/**
 * Where each harness keeps its store, decided once at the edge: flag, else the harness's own environment
 * variable, else its default under the user's home, as its descriptor's `home` says. Homes are made absolute
 * here, because they end up in places read later from another directory (Codex's `threads.rollout_path`,
 * printed resume commands).
 */
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import type { Harness, Homes, HomeSpec } from "./types.ts";

/** The homes given as flags, by harness name (absent when the flag was not given). */
export type HomeFlags = Readonly<Record<string, string | undefined>>;

const userHome = (env: NodeJS.ProcessEnv): string => resolve(env.HOME || homedir());

/** `~` and `~/x` as a shell would have expanded them (a `--flag=~/x` reaches us unexpanded). */
function expandTilde(path: string, env: NodeJS.ProcessEnv): string {
  return path === "~" || path.startsWith("~/") ? join(userHome(env), path.slice(1)) : path;
}

/** The home a harness uses when neither a flag nor its variable names one. */
export function defaultHome(spec: HomeSpec, env: NodeJS.ProcessEnv): string {
  return join(userHome(env), spec.folder);
}

/**
 * For every harness: its flag first, then its own environment variable, then its default; always absolute. A
 * harness whose variable names its store's file (HomeSpec.storeFile) has that file, found from the home, when
 * no flag names one.
 */
export function resolveHomes(
  harnesses: readonly Harness[],
  flags: HomeFlags,
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
): Homes {
  return Object.fromEntries(harnesses.map((h) => {
    const flag = flags[h.name];
    if (flag) return [h.name, resolve(cwd, expandTilde(flag, env))];
    const variable = env[h.home.env];
    const home = variable
      ? resolve(cwd, expandTilde(join(variable, h.home.subfolder ?? ""), env))
      : defaultHome(h.home, env);
    const file = h.home.storeFile ? env[h.home.storeFile] : undefined;
    return [h.name, file ? resolve(home, expandTilde(file, env)) : home];
  }));
}

/**
 * The environment a printed command needs for a harness to find `home`: its variable when the home is not
 * the default one (a fresh terminal may not have the variable set), nothing otherwise.
 */
export function homeEnvironment(
  spec: HomeSpec,
  home: string,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  if (resolve(home) === defaultHome(spec, env)) return {};
  const value = homeVariableValue(spec, home);
  return value === undefined ? {} : { [spec.env]: value };
}

/**
 * What the harness's variable must say for it to find `home`: the home itself, or the folder holding it when
 * the home is a subfolder of the variable's (`$XDG_DATA_HOME/opencode`). Undefined when no value can say it (a
 * home not named as that subfolder): its harness then names the home another way, or the command fails.
 */
export function homeVariableValue(spec: HomeSpec, home: string): string | undefined {
  const absolute = resolve(home);
  if (spec.subfolder === undefined) return absolute;
  return basename(absolute) === spec.subfolder ? dirname(absolute) : undefined;
}

/**
 * Every variable that moves a harness's store: its home's, and the one naming its store's file. A run in a
 * private home must get none of the user's, or it would reach the user's own store.
 */
export const homeVariables = (harnesses: readonly Harness[]): string[] =>
  harnesses.flatMap((h) => [h.home.env, ...(h.home.storeFile ? [h.home.storeFile] : [])]);

/** A harness's own home among the resolved ones (the edge resolves one for every registered harness). */
export function homeOf(homes: Homes, h: Harness): string {
  const home = homes[h.name];
  if (home === undefined) throw new Error(`no home resolved for ${h.name}`);
  return home;
}
