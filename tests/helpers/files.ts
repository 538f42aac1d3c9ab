import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file under `dir`, relative to it, sorted (hidden temp files included); none when `dir` is absent. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}
