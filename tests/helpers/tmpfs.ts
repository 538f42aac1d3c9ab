/**
 * Size-limited file systems for full-disk tests and the disk-full campaign (campaigns/hostile): a tmpfs mounted
 * for the run and unmounted by it. Mounting needs root; where it cannot be done, `TMPFS_SKIP` says why (a test
 * skips with it, the campaign prints it). Nothing here needs node:test, so a campaign can import it.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Mounts a tmpfs of `size` (mount's notation: 1m, 512k) at `dir`; false where this process may not mount. */
export function mountTmpfs(dir: string, size = "1m"): boolean {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Detaches it even while a failed run still holds a file open there (lazily), so no mount outlives a test. */
export function unmount(dir: string): void {
  execFileSync("umount", ["--lazy", dir]);
}

// Probed once and unmounted at once, so no mount outlives a test that is filtered out.
const probe = mkdtempSync(join(tmpdir(), "sb-tmpfs-probe-"));
const canMount = mountTmpfs(probe) && (unmount(probe), true);
rmSync(probe, { recursive: true, force: true });

/** The `skip` option of a test that mounts one: false where it can run, else the reason it cannot. */
export const TMPFS_SKIP: false | string = canMount ? false : "mounting a tmpfs needs root (and mount(8))";

/** Bytes free for this process on the file system holding `dir`. */
export function freeBytes(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}
