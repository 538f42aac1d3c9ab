/**
 * Where a permission failure really is. A store inside a home of mode 000 fails on whatever is opened first in
 * it (its database, its profiles folder), and the error names that; the home is what to name and to fix.
 */
import { accessSync, constants } from "node:fs";
import { dirname } from "node:path";
import { PermissionError } from "../errors.ts";

/**
 * The same refusal naming the outermost folder on the way to its path that this user may not pass through, or
 * the path itself when every folder above it may be passed.
 */
export function deniedAt(error: PermissionError): PermissionError {
  const above: string[] = [];
  for (let dir = dirname(error.path); dirname(dir) !== dir; dir = dirname(dir)) above.push(dir);
  const closed = above.reverse().find((dir) => !passable(dir));
  return closed ? new PermissionError(closed) : error;
}

function passable(dir: string): boolean {
  try {
    accessSync(dir, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
