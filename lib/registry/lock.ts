/**
 * The exclusion LazyBridge's SessionRegistry uses around every write, reproduced so the two tools exclude each
 * other: first in-process (one queue per registry file), then the `<file>.lock` file created exclusively and
 * holding the owner's PID (no newline), removed afterwards. A lock file older than 30 s by mtime belonged to a
 * crashed process and is taken over; waiting gives up after 15 s.
 */
import { closeSync, mkdirSync, openSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import process from "node:process";
import { RefusedError } from "../errors.ts";

export const LOCK_STALE_MS = 30_000;
export const LOCK_TIMEOUT_MS = 15_000;

/** One queue per registry file in this process: writers to it run one at a time. */
const queues = new Map<string, Promise<unknown>>();

/** Runs `body` holding both locks on the registry file `path`. */
export function withRegistryLock<T>(path: string, body: () => T | Promise<T>): Promise<T> {
  const previous = queues.get(path) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => underLockFile(path, body));
  const settled = run.catch(() => undefined);
  queues.set(path, settled);
  void settled.then(() => {
    if (queues.get(path) === settled) queues.delete(path);
  });
  return run;
}

async function underLockFile<T>(path: string, body: () => T | Promise<T>): Promise<T> {
  mkdirSync(dirname(path), { recursive: true });
  const lockPath = `${path}.lock`;
  const deadline = performance.now() + LOCK_TIMEOUT_MS;
  let fd: number;
  for (;;) {
    try {
      // Python's os.open default mode, so the lock file looks the same whichever tool made it.
      fd = openSync(lockPath, "wx", 0o777);
      break;
    } catch (error) {
      const code = (error as { code?: string }).code;
      // EPERM/EACCES: Windows reports a lock file its owner is deleting this way.
      if (code !== "EEXIST" && code !== "EPERM" && code !== "EACCES") throw error;
      if (takeOverStale(lockPath)) continue;
      if (performance.now() > deadline) {
        throw new RefusedError(`could not lock session registry ${path} within ${LOCK_TIMEOUT_MS / 1000}s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
    }
  }
  try {
    try {
      writeSync(fd, String(process.pid));
    } catch {
      // The PID is for people reading the lock; the lock holds without it.
    }
    closeSync(fd);
    return await body();
  } finally {
    try {
      unlinkSync(lockPath);
    } catch {
      // Already taken over as stale by another process: nothing of ours to remove.
    }
  }
}

/** Removes a lock file whose mtime is more than 30 s old; whether it did. */
function takeOverStale(lockPath: string): boolean {
  try {
    if (Date.now() - statSync(lockPath).mtimeMs > LOCK_STALE_MS) {
      unlinkSync(lockPath);
      return true;
    }
  } catch {
    // Gone meanwhile (its owner finished) or unreadable: try to create it again.
  }
  return false;
}
