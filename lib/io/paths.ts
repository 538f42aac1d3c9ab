import { realpathSync } from "node:fs";
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
