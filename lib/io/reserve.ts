/**
 * Room on a disk, taken before a step that must not fail for want of it: a file of `bytes` bytes really
 * written (a sparse or preallocated file may be given back by compression or never counted by a quota), so a
 * full disk or quota says so here, while nothing else is written yet. Removing the file gives the room back.
 */
import { closeSync, rmSync, writeSync } from "node:fs";
import { randomFillSync } from "node:crypto";

/** Filled with random bytes: a compressing file system (btrfs, ZFS) would keep a run of zeros in no room. */
const CHUNK = randomFillSync(Buffer.alloc(64 * 1024));

/**
 * Writes `bytes` bytes to the file open at `fd` (opened for writing by the caller, who decides how it may be
 * opened: in session-bridge's own folder, never through a link), and closes it; on failure none of it stays
 * and the error is thrown.
 */
export function reserveRoom(fd: number, path: string, bytes: number): void {
  try {
    for (let left = bytes; left > 0; left -= CHUNK.length) {
      writeSync(fd, CHUNK, 0, Math.min(left, CHUNK.length));
    }
  } catch (error) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw error;
  }
  closeSync(fd);
}
