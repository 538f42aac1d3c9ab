/**
 * Room on a disk, taken before a step that must not fail for want of it: a file of `bytes` bytes really
 * written (a sparse or preallocated file may be given back by compression or never counted by a quota), so a
 * full disk or quota says so here, while nothing else is written yet. Removing the file gives the room back.
 */
import { closeSync, rmSync, writeSync } from "node:fs";
import { randomFillSync } from "node:crypto";

const CHUNK_BYTES = 64 * 1024;

/**
 * Writes `bytes` bytes to the file open at `fd` (opened for writing by the caller, who decides how it may be
 * opened: in session-bridge's own folder, never through a link), and closes it; on failure none of it stays
 * and the error is thrown.
 */
export function reserveRoom(fd: number, path: string, bytes: number): void {
  try {
    // Random bytes, made per reservation (not at start-up): a compressing file system (btrfs, ZFS) would keep
    // a run of zeros in no room.
    const chunk = randomFillSync(Buffer.alloc(Math.min(bytes, CHUNK_BYTES)));
    for (let left = bytes; left > 0; left -= chunk.length) {
      writeSync(fd, chunk, 0, Math.min(left, chunk.length));
    }
  } catch (error) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw error;
  }
  closeSync(fd);
}
