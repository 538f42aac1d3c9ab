/**
 * Writing never goes through a symbolic link. A link planted in session-bridge's own folder (a `ledger.jsonl`
 * or `backups` pointing elsewhere) would make an append or a backup land in an unrelated file outside it, and a
 * linked harness file (a `state.db` pointing elsewhere) would be written at the link's target. So:
 *   - in session-bridge's own folder, nothing below its root may be a link: every write checks each entry
 *     between the root and the file with lstat just before it opens, and opens with O_NOFOLLOW. The root itself
 *     may be a link to a folder: that is where its user chose to keep it (another disk, a synced folder), just
 *     as the variable naming the folder would;
 *   - in a harness's home, folders are followed as the harness follows them (`projects` linked to a bigger
 *     disk), but the file written is never a link: checked with lstat before it is opened, and files are
 *     published by rename, which replaces a link at the destination instead of following it.
 * On a platform without O_NOFOLLOW (Windows) the lstat checks stand alone.
 */
import { constants, lstatSync, mkdirSync, openSync, type Stats } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { RefusedError } from "../errors.ts";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** A write refused because `link`, on its way, is a symbolic link (exit 1, one line naming the link). */
export class LinkRefusedError extends RefusedError {
  override name = "LinkRefusedError";
  constructor(readonly link: string, where: "its own folder" | "a harness's home") {
    super(
      where === "its own folder"
        ? `${link} is a symbolic link; session-bridge does not write through links in its own folder`
        : `${link} is a symbolic link; session-bridge does not write a harness's file through a link`,
    );
  }
}

/** What is at `path` itself; nothing when nothing can be there (see below). */
function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (error) {
    // A file on the way, or a name longer than the file system allows: nothing can be there (as existsSync
    // says), and the caller's own checks name why (a Claude Code bucket past 255 bytes is refused by name).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTDIR" || code === "ENAMETOOLONG") return undefined;
    throw error;
  }
}

/** Whether anything is at `path` itself: a link is there even when what it points at is not (dangling). */
export function entryPresent(path: string): boolean {
  return lstatOrUndefined(path) !== undefined;
}

/** Whether `path` itself is a symbolic link. */
export function isLink(path: string): boolean {
  return lstatOrUndefined(path)?.isSymbolicLink() ?? false;
}

/**
 * Refuses a write to `path` in session-bridge's own folder `home` when any entry below `home` on the way to
 * it, `path` included, is a symbolic link. Entries not there yet end the walk: they will be made by us.
 */
export function refuseLinksBelow(home: string, path: string): void {
  const below = relative(home, path);
  if (below.startsWith("..") || isAbsolute(below)) throw new Error(`${path} is not in ${home}`);
  let at = home;
  for (const part of below.split(sep)) {
    if (!part) continue;
    at = join(at, part);
    const stats = lstatOrUndefined(at);
    if (!stats) return;
    if (stats.isSymbolicLink()) throw new LinkRefusedError(at, "its own folder");
  }
}

/** Makes folder `dir` in session-bridge's own folder `home` (readable by its owner), never through a link. */
export function makeOwnFolder(home: string, dir: string): void {
  refuseLinksBelow(home, dir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

const OPEN_FLAGS = {
  /** Appending to a log (the ledger), which may be read back through the same descriptor. */
  append: constants.O_RDWR | constants.O_APPEND | constants.O_CREAT,
  /** Filling a temp file of this process whole (a leftover of the same name is emptied). */
  replace: constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC,
} as const;

/**
 * Opens `path` in session-bridge's own folder `home` (made if missing), never through a link: every entry on
 * the way checked just before, the file itself opened with O_NOFOLLOW (a link swapped in meanwhile fails the
 * open, and is refused the same way).
 */
export function openOwnFile(home: string, path: string, how: keyof typeof OPEN_FLAGS): number {
  makeOwnFolder(home, join(path, ".."));
  refuseLinksBelow(home, path);
  try {
    return openSync(path, OPEN_FLAGS[how] | NOFOLLOW, 0o600);
  } catch (error) {
    if (isLink(path)) throw new LinkRefusedError(path, "its own folder");
    throw error;
  }
}

/**
 * Refuses to write a harness's file at `path` when it is a symbolic link (its folders may be links: the
 * harness follows them too). Checked just before the file is opened.
 */
export function refuseLinkedFile(path: string): void {
  if (isLink(path)) throw new LinkRefusedError(path, "a harness's home");
}
