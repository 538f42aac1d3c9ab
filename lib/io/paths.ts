import { realpathSync, statSync } from "node:fs";
import { InputError } from "../errors.ts";
import { resolve } from "node:path";

/** Harnesses key projects by the realpath of the cwd; a path that does not exist yet is kept as given. */
export function canonicalCwd(cwd: string): string {
  const absolute = resolve(cwd);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** Refuses a path that is not an existing directory, naming the flag it came from. */
export function assertDirectory(path: string, what: string): void {
  let isDir = false;
  try {
    isDir = statSync(path).isDirectory();
  } catch {
    isDir = false;
  }
  if (!isDir) throw new InputError(`${what}: ${path || "(none)"} is not an existing directory`);
}
