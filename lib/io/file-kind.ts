/**
 * What is at a path, found by stat alone. A FIFO, socket or device opened for reading can block forever (a
 * FIFO waits for a writer) or never end, and a directory fails with a bare EISDIR; so anything read as a
 * file (a session, a state database, a config file) is checked here first and refused with one line naming
 * it, without ever being opened.
 */
import { type Dirent, type Stats, statSync } from "node:fs";
import { join } from "node:path";
import { InputError, LinkLoopError } from "../errors.ts";

/** The kind of what is at a path, as a refusal names it. */
function kindOf(stats: Stats): string {
  if (stats.isFile()) return "a file";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO (named pipe)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice()) return "a character device";
  if (stats.isBlockDevice()) return "a block device";
  return "a special file";
}

/**
 * True when a regular file is there (a symlink counts as what it points to), false when nothing is (a name too
 * long for the system, such as one under a session's hostile cwd, names nothing); anything else is bad input
 * naming the path and what it is.
 */
export function regularFileIfPresent(path: string): boolean {
  const stats = statOrNothing(path);
  if (!stats) return false;
  if (!stats.isFile()) throw notRegular(path, stats);
  return true;
}

/**
 * Whether a regular file is there, for a reader that passes over anything else: nothing there, a path it may
 * not look at (a folder it cannot search) or whose name is too long, as much as a FIFO or a directory.
 */
export function isRegularFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

function statOrNothing(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENAMETOOLONG") return undefined;
    throw error;
  }
}

/** Refuses anything but an existing regular file, naming the path. */
export function assertRegularFile(path: string): void {
  if (!regularFileIfPresent(path)) throw new InputError(`${path}: no such file`);
}

function notRegular(path: string, stats: Stats): InputError {
  return new InputError(`${path}: is ${kindOf(stats)}, not a regular file (refused without reading it)`);
}

/**
 * True when a folder is there (a symlink counts as what it points to), false when nothing is (a link to
 * nothing included); anything else fails naming the path: a file, a link that loops, a folder above it this user
 * may not pass through. `existsSync` says false for all of those, so a store that cannot be read looked empty.
 */
export function directoryIfPresent(path: string): boolean {
  const stats = statSync(path, { throwIfNoEntry: false });
  if (!stats) return false;
  if (!stats.isDirectory()) throw new InputError(`${path}: is ${kindOf(stats)}, not a folder`);
  return true;
}

/**
 * Refuses an entry of folder `dir` that is a symbolic link that loops, naming it. Walks over a store's folders
 * take only real folders and files, so they passed over such a link without a word, where the harness, which
 * opens its files by path, fails on it. A link to anything else is left to the walk, as before.
 */
export function assertNotLinkLoop(dir: string, entry: Dirent): void {
  if (!entry.isSymbolicLink()) return;
  const path = join(dir, entry.name);
  try {
    statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") throw new LinkLoopError(path);
  }
}
