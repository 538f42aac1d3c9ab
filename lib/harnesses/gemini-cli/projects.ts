/**
 * Which project folder (`tmp/<slug>/`) Gemini CLI 0.61.0 keeps a working directory's sessions in, decided as its
 * ProjectRegistry decides it (read in the bundle, `packages/core/src/config/projectRegistry.ts`), read-only:
 *
 *   1. the slug `projects.json` maps the directory to, unless an ownership marker (`.project_root` in
 *      `tmp/<slug>/` or `history/<slug>/`) names another directory;
 *   2. else a slug folder whose marker names the directory (a registry that lost the entry);
 *   3. else a new slug: the directory's base name in lower case, each run of other characters than a-z and 0-9
 *      one `-` (`project` if nothing is left), then `-1`, `-2`, ... while the registry maps another directory
 *      to it or a marker on disk names another directory.
 *
 * The writer then adds what Gemini would have added: the entry in `projects.json` and the missing markers.
 */
import { existsSync, readdirSync, readFileSync, rmdirSync, statSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";
import { basename, join, resolve } from "node:path";
import { isObject } from "../../io/json.ts";
import { RefusedError } from "../../errors.ts";
import { refuse } from "../refuse.ts";
import { checkpoint } from "../../io/interrupt.ts";
import type { Feedback } from "../../io/progress.ts";
import { holdLockFolder } from "../../io/lock-folder.ts";

export const PROJECT_ROOT_FILE = ".project_root";

/** `projects.json`'s content: absolute directory to slug. */
export type Projects = Record<string, string>;

export interface ProjectPlace {
  slug: string;
  /** The directory as Gemini keys it (absolute). */
  root: string;
  /** Whether `projects.json` must gain (or correct) the directory's entry. */
  register: boolean;
  /** The ownership markers to write (absent ones). */
  markers: string[];
}

/** The folders a slug's marker lives in: `tmp/` (sessions) and `history/` (shell history). */
export const slugBases = (store: string): string[] => [join(store, "tmp"), join(store, "history")];

export const projectsFile = (store: string): string => join(store, "projects.json");

/**
 * The registry as Gemini reads it. A missing file is an empty registry; a file Gemini would not take (not JSON,
 * or not `{projects: {path: slug}}` with slugs of a-z, 0-9 and `-`) is refused: Gemini would reset it to empty,
 * dropping every project's entry, and a handoff does not do that to the user's file.
 */
export function readProjects(store: string): Projects {
  const path = projectsFile(store);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw refuse.unusable(path, "it is not JSON (Gemini CLI would reset it, losing every project's entry)");
  }
  const projects = isObject(parsed) ? parsed.projects : undefined;
  if (
    !isObject(projects) ||
    !Object.values(projects).every((slug) => typeof slug === "string" && /^[a-z0-9-]+$/.test(slug))
  ) {
    throw refuse.unusable(path, 'it is not {"projects": {"<directory>": "<slug>"}} as Gemini CLI keeps it');
  }
  return projects as Projects;
}

/** Where `cwd`'s sessions go in `store`, and what must be added for Gemini to find them there. */
export function projectPlace(store: string, cwd: string, projects: Projects): ProjectPlace {
  const root = resolve(cwd);
  const bases = slugBases(store);
  const registered = Object.hasOwn(projects, root) ? projects[root] : undefined;
  const owned = registered !== undefined && bases.every((base) => markerOwner(base, registered) !== "other");
  const slug = owned ? registered : markedSlug(bases, root) ?? newSlug(bases, root, projects);
  return {
    slug,
    root,
    register: registered !== slug,
    markers: bases.map((base) => join(base, slug, PROJECT_ROOT_FILE)).filter((path) => !existsSync(path)),
  };
}

/** Whose slug folder `base/slug` is by its marker: none there, this directory's, or another's (or unreadable). */
function markerOwner(base: string, slug: string, root?: string): "none" | "mine" | "other" {
  const path = join(base, slug, PROJECT_ROOT_FILE);
  if (!existsSync(path)) return "none";
  try {
    const owner = readFileSync(path, "utf8").trim();
    return root !== undefined && resolve(owner) === root ? "mine" : "other";
  } catch {
    return "other";
  }
}

function markedSlug(bases: string[], root: string): string | undefined {
  for (const base of bases) {
    let names: string[];
    try {
      names = readdirSync(base);
    } catch {
      continue;
    }
    const found = names.find((name) => markerOwner(base, name, root) === "mine");
    if (found !== undefined) return found;
  }
  return undefined;
}

export function slugify(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "project";
}

function newSlug(bases: string[], root: string, projects: Projects): string {
  const base = slugify(basename(root) || "project");
  const taken = new Set(Object.values(projects));
  for (let counter = 0;; counter++) {
    const candidate = counter === 0 ? base : `${base}-${counter}`;
    if (taken.has(candidate)) continue;
    if (bases.some((b) => markerOwner(b, candidate, root) === "other")) continue;
    return candidate;
  }
}

/** The registry with `place`'s entry added, as Gemini saves it (two-space JSON). */
export function registeredText(projects: Projects, place: ProjectPlace): string {
  return JSON.stringify({ projects: { ...projects, [place.root]: place.slug } }, null, 2);
}

/**
 * Gemini's lock on `projects.json` (proper-lockfile: a `projects.json.lock` folder, its time refreshed while
 * held, stale after 10 seconds).
 */
const STALE_LOCK_MS = 10_000;

export const registryLock = (store: string): string => `${projectsFile(store)}.lock`;

/** The registry's lock: none, held by a live process, or left stale by a dead one (taken over). */
function lockState(store: string, now: number): "free" | "held" | "stale" {
  const stats = statSync(registryLock(store), { throwIfNoEntry: false });
  if (!stats) return "free";
  return now - stats.mtimeMs < STALE_LOCK_MS ? "held" : "stale";
}

/**
 * How long a handoff waits for another holder of the lock (a Gemini CLI registering a project, another handoff
 * publishing into the same store): as long as a write waits for a harness's database, polling as Gemini does.
 */
const LOCK_WAIT_MS = 30_000;
const LOCK_POLL_MS = 100;

/**
 * Takes the registry's lock as Gemini does, stamped at `stamp`: waits while a live holder has it (Gemini itself retries for 10 s),
 * takes over a stale one, and is refused when it stays held. A store not made yet has no Gemini using it, and no
 * folder is made for the lock alone.
 */
export async function lockRegistry(store: string, stamp: number, feedback?: Feedback): Promise<() => void> {
  const lock = registryLock(store);
  if (!existsSync(store)) return () => {};
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (let told = false;; told = true) {
    // Only a stale lock is removed: a free one may be another taker's the instant after it was seen free.
    const state = lockState(store, Date.now());
    if (state === "stale") removeLock(lock);
    if (state !== "held") {
      try {
        // Stamped and kept fresh (lib/io/lock-folder.ts), so that a handoff killed holding it leaves one recovery
        // knows as its own (the plan names it in `locks`); one taken over meanwhile is left to its new holder.
        return holdLockFolder(lock, stamp);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
    if (Date.now() > deadline) throw refuse.locked(projectsFile(store));
    if (!told) {
      feedback?.notice?.(
        `${projectsFile(store)} is locked by another process: waiting up to ${LOCK_WAIT_MS / 1000} s ` +
          "(Ctrl-C stops and changes nothing)",
      );
    }
    await delay(LOCK_POLL_MS);
    checkpoint();
  }
}

/** Removes the lock, unless another taker has just removed it. */
function removeLock(lock: string): void {
  try {
    rmdirSync(lock);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** Whether `marker` is there and names `root`: Gemini (or another handoff) owns the slug for the directory. */
export function markerNames(marker: string, root: string): boolean {
  try {
    return resolve(readFileSync(marker, "utf8").trim()) === root;
  } catch {
    return false;
  }
}

/** The registry changed since planning in a way that moves the session elsewhere: refused, nothing written. */
export function registryMoved(store: string): RefusedError {
  return new RefusedError(
    `${projectsFile(store)} changed while the handoff was planned (run it again)`,
  );
}
