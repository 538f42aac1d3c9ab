/**
 * What is at a path, found by stat alone. A FIFO, socket or device opened for reading can block forever (a
 * FIFO waits for a writer) or never end, and a directory fails with a bare EISDIR; so anything read as a
 * file (a session, a state database, a config file) is checked here first and refused with one line naming
 * it, without ever being opened.
 */
import { type Stats, statSync } from "node:fs";
import { InputError } from "../errors.ts";

/** The kind of a non-regular file, as the refusal names it. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return "a special file";
}

/**
 * True when a regular file is there (a symlink counts as what it points to), false when nothing is; anything
 * else is bad input naming the path and what it is.
 */
export function regularFileIfPresent(path: string): boolean {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats) return false;
  if (!stats.isFile()) throw notRegular(path, stats);
  return true;
}

/** Refuses anything but an existing regular file, naming the path. */
export function assertRegularFile(path: string): void {
  if (!regularFileIfPresent(path)) throw new InputError(`${path}: no such file`);
}

function notRegular(path: string, stats: Stats): InputError {
  return new InputError(`${path}: is ${kindOf(stats)}, not a regular file (refused without reading it)`);
}
