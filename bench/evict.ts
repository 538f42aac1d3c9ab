/**
 * Cold listing runs: every file of a folder dropped from the page cache before a run, so `list` reads the disk
 * as the first listing after a reboot would, not pages the world's build or the previous run left in memory.
 * GNU dd's `oflag=nocache` with `count=0` asks the kernel to drop a file's cached pages and changes nothing
 * else (not the bytes, not the mtime a listing shows). Only our scratch world's files are dropped; where dd
 * cannot do it (macOS's dd has no nocache), this says so and the runs are warm.
 */
import { spawnSync } from "node:child_process";

const DROP = 'for f; do dd of="$f" oflag=nocache conv=notrunc,fdatasync count=0 status=none || exit 1; done';

/** Drops every file under `dir` from the page cache; false when this system's dd cannot. */
export function evictFolder(dir: string): boolean {
  const r = spawnSync("sh", ["-c", `find "$1" -type f -exec sh -c '${DROP}' sh {} +`, "sh", dir]);
  return r.status === 0;
}
