/**
 * Where Hermes keeps its state. A home (`--hermes-home`, `HERMES_HOME`, `~/.hermes`) holds `state.db`, the
 * source of truth, plus legacy files under `sessions/`. Named profiles are complete homes of their own under
 * `<root>/profiles/<name>/`, and the sticky `<root>/active_profile` file picks the one a bare `hermes` runs in
 * (hermes_cli/profiles.py and `_apply_profile_override` in hermes_cli/main.py, 0.19.0).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { directoryIfPresent, regularFileIfPresent } from "../../io/file-kind.ts";

/** Profile names as Hermes accepts them (`_PROFILE_ID_RE`). */
const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface HermesHome {
  dir: string;
  /** The profile name when `dir` is `<root>/profiles/<name>`. */
  profile?: string;
}

export const stateDbPath = (home: string): string => join(home, "state.db");
export const legacySessionsDir = (home: string): string => join(home, "sessions");
export const configPath = (home: string): string => join(home, "config.yaml");

/**
 * A home, absolute (a relative `--hermes-home` would be stored and printed relative to wherever the command
 * ran), and whether it is itself a profile directory (Hermes trusts HERMES_HOME then, ignoring active_profile).
 */
function asProfile(home: string): HermesHome {
  const dir = resolve(home);
  const name = basename(dir);
  return basename(dirname(dir)) === "profiles" && PROFILE_NAME.test(name) ? { dir, profile: name } : { dir };
}

/**
 * The home and, when it is a profile root, every named profile under it. A `profiles` that cannot be read (a
 * home this user may not enter, a link that loops) fails naming it: passed over, the store would look empty.
 */
export function hermesHomes(hermesHome: string): HermesHome[] {
  const root = asProfile(hermesHome);
  if (root.profile) return [root];
  const profilesDir = join(root.dir, "profiles");
  const profiles = directoryIfPresent(profilesDir)
    ? readdirSync(profilesDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && PROFILE_NAME.test(e.name) && e.name !== "default")
      .map((e) => ({ dir: join(profilesDir, e.name), profile: e.name }))
      .sort((a, b) => a.dir.localeCompare(b.dir))
    : [];
  return [root, ...profiles];
}

/** The home a plain `hermes` started with this home works in: a profile dir, else the sticky active profile. */
export function activeHome(hermesHome: string): HermesHome {
  const home = asProfile(hermesHome);
  if (home.profile) return home;
  const name = activeProfileName(home.dir);
  const dir = join(home.dir, "profiles", name);
  return name && name !== "default" && PROFILE_NAME.test(name) && existsSync(dir)
    ? { dir, profile: name }
    : home;
}

/**
 * The name in `<root>/active_profile`, "" when there is none. A marker that cannot be read (a folder or a FIFO
 * there, a link that loops, a home this user may not enter) names no profile: Hermes passes over it the same
 * way (`except OSError` around its read) and runs in the root. A FIFO is never opened: it would block.
 */
function activeProfileName(root: string): string {
  const marker = join(root, "active_profile");
  try {
    return regularFileIfPresent(marker) ? readFileSync(marker, "utf8").trim() : "";
  } catch {
    return "";
  }
}

export { sessionLocator } from "../locator.ts";
export { parseLocator } from "../locator.ts";
