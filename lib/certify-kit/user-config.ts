/**
 * Real mode runs each harness in a private temp home, but with the user's own providers: their environment
 * (API keys, base URLs, proxies, cloud switches) and the few files in their real harness home that say which
 * provider to use and hold its login. Nothing else of the user's home is read, and nothing in it is written.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { definedEnv } from "./spawn.ts";

/** Variables that locate homes whatever harnesses are registered; the private home replaces them. */
const OWN_HOME_VARIABLES = ["HOME", "TMPDIR", "SESSION_BRIDGE_HOME"];

/**
 * The user's environment as a child env: defined values only, without the variables that locate homes (ours,
 * and `harnessHomes`: every registered harness's home variable, from its descriptor).
 */
export function userEnvironment(
  env: NodeJS.ProcessEnv,
  harnessHomes: readonly string[],
): Record<string, string> {
  return definedEnv(env, [...OWN_HOME_VARIABLES, ...harnessHomes]);
}

/** The user's home folder as their environment names it. */
export function userHome(env: NodeJS.ProcessEnv): string {
  return env.HOME || homedir();
}

/** A harness home the user's environment selects: its own variable, else `~/<fallback>`. */
export function userHarnessHome(env: NodeJS.ProcessEnv, variable: string, fallback: string): string {
  return env[variable] || join(userHome(env), fallback);
}

/** Copies each named file that exists from one folder to another; returns the names copied. */
export function copyPresent(from: string, to: string, names: string[]): string[] {
  const copied: string[] = [];
  for (const name of names) {
    const source = join(from, name);
    if (!existsSync(source)) continue;
    mkdirSync(dirname(join(to, name)), { recursive: true });
    copyFileSync(source, join(to, name));
    copied.push(name);
  }
  return copied;
}

/** A JSON object file, or an empty object when it is missing or not an object. */
export function readJsonObject(path: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(readFileSync(path, "utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? value as Record<string, unknown>
      : {};
  } catch {
    return {};
  }
}

/** The entries of `object` whose keys are listed. */
export function pick(object: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([key]) => keys.includes(key)));
}
