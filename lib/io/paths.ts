import { realpathSync, statSync } from "node:fs";
import { InputError } from "../errors.ts";
import { dirname, resolve } from "node:path";

/** Harnesses key projects by the realpath of the cwd; a path that does not exist yet is kept as given. */
export function canonicalCwd(cwd: string): string {
  const absolute = resolve(cwd);
  try {
    return realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** Whether `path` is an existing directory (following links). */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Refuses a path that is not an existing directory, naming the flag it came from. */
export function assertDirectory(path: string, what: string): void {
  if (!isDirectory(path)) throw new InputError(`${what}: ${path || "(none)"} is not an existing directory`);
}

/**
 * Refuses an output path that cannot be a new file: its folder must exist, and the path itself must not be a
 * directory (`-o ~/exports` means a file name was forgotten; it is said so, naming the directory).
 */
export function assertOutputFile(path: string, what: string): void {
  if (isDirectory(path)) throw new InputError(`${what}: ${path} is a directory: name a file to write in it`);
  assertDirectory(dirname(path), what);
}
