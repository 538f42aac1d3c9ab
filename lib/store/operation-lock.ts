/**
 * One process at a time per operation: an undo of handoff `op` runs holding `<bridgeHome>/undo-<op>.lock`, a
 * file created exclusively that names its holder (pid, host and a token of its own), removed when the undo
 * ends. Another undo of the same operation waits for it, then finds it undone. A lock whose holder is no longer
 * running (killed with -9, or the machine restarted since) is stale and taken over. Taking over is exclusive
 * too, per stale lock (a `.takeover` file named after it), and checks the lock is still the stale one, so two
 * processes that found it cannot both remove it, nor one remove a lock another process took meanwhile.
 * node has no flock, and SQLite's locks would leave a database behind per operation: a file does both jobs.
 */
import { randomUUID } from "node:crypto";
import { closeSync, fstatSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname, uptime } from "node:os";
import { join } from "node:path";
import { fileSystemReason, RefusedError } from "../errors.ts";
import type { Feedback } from "../io/progress.ts";
import { processAlive } from "./intent.ts";

/** A lock file left empty (its holder killed between creating and filling it) is stale after this long. */
const EMPTY_STALE_MS = 60_000;
/** Taking over lasts microseconds: a `.takeover` file older than this belonged to a process killed doing it. */
const TAKEOVER_STALE_MS = 60_000;
/** How long a waiter sleeps between looks at a lock held by a running process. */
const POLL_MS = 25;

/** A lock file as one look saw it: its content (`pid host token`, or empty while being filled) and identity. */
interface Seen {
  content: string;
  ino: number;
  mtimeMs: number;
}

export function operationLockPath(bridgeHome: string, op: string): string {
  return join(bridgeHome, `undo-${op}.lock`);
}

/** Runs `body` holding the lock on operation `op`, waiting for another process that holds it. */
export async function withOperationLock<T>(
  bridgeHome: string,
  op: string,
  body: () => Promise<T>,
  /** Who hears that another process holds it, while this one waits. */
  feedback?: Feedback,
): Promise<T> {
  const path = operationLockPath(bridgeHome, op);
  const mine = `${process.pid} ${hostname()} ${randomUUID()}`;
  await acquire(path, mine, op, feedback);
  try {
    return await body();
  } finally {
    release(path, mine);
  }
}

async function acquire(path: string, mine: string, op: string, feedback?: Feedback): Promise<void> {
  let told = false;
  for (;;) {
    if (created(path, mine)) return;
    const seen = look(path);
    // Gone since the create failed: its holder finished.
    if (!seen) continue;
    if (stale(seen)) {
      if (!takeOver(path, seen)) await pause();
      continue;
    }
    // Told once its holder has filled it in (an empty lock is being created this instant).
    if (!told && seen.content) {
      const [pid, host] = seen.content.split(" ");
      feedback?.notice?.(
        `operation ${op} is being undone by process ${pid} on ${host}: waiting for it (lock ${path})`,
      );
      told = true;
    }
    await pause();
  }
}

const pause = () => new Promise((resolve) => setTimeout(resolve, POLL_MS));

/** Creates the lock holding `mine`; false when another holds it. */
function created(path: string, mine: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new RefusedError(`cannot lock ${path} (${fileSystemReason(error)}); nothing was undone`);
  }
  try {
    writeSync(fd, mine);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The lock file's content and identity, read through one descriptor; undefined when there is none. */
function look(path: string): Seen | undefined {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return undefined;
  }
  try {
    const { ino, mtimeMs } = fstatSync(fd);
    return { content: readFileSync(fd, "utf8"), ino, mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the lock's holder is gone: on this host and not running, or the lock is older than the machine's
 * last start (its pid may name another process now). A holder on another host cannot be asked: its lock holds.
 */
function stale(seen: Seen): boolean {
  if (seen.mtimeMs < Date.now() - uptime() * 1000) return true;
  if (!seen.content) return Date.now() - seen.mtimeMs > EMPTY_STALE_MS;
  const [pid, host] = seen.content.split(" ");
  return host === hostname() && !processAlive(Number(pid));
}

/**
 * Removes the stale lock `seen`, unless it is not that lock any more; false when another process is taking it
 * over (this one waits for that).
 */
function takeOver(path: string, seen: Seen): boolean {
  const marker = `${path}.${seen.ino}.takeover`;
  let fd: number;
  try {
    fd = openSync(marker, "wx", 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
      throw new RefusedError(`cannot take over ${path} (${fileSystemReason(error)}); nothing was undone`);
    }
    // A marker left by a process killed while taking over goes, and the next look tries again.
    try {
      if (Date.now() - statSync(marker).mtimeMs > TAKEOVER_STALE_MS) unlinkSync(marker);
    } catch {
      // Gone meanwhile: that takeover finished.
    }
    return false;
  }
  closeSync(fd);
  try {
    const now = look(path);
    if (now && now.ino === seen.ino && now.mtimeMs === seen.mtimeMs && now.content === seen.content) {
      unlinkSync(path);
    }
  } finally {
    unlinkSync(marker);
  }
  return true;
}

/** Removes the lock on `op` if its holder is gone (recovery finished or rolled back what it was doing). */
export function removeStaleLock(bridgeHome: string, op: string): void {
  const path = operationLockPath(bridgeHome, op);
  const seen = look(path);
  if (seen && stale(seen)) takeOver(path, seen);
}

/** Removes the lock if it is still ours (a process wrongly judged gone may have had it taken over). */
function release(path: string, mine: string): void {
  if (look(path)?.content === mine) unlinkSync(path);
}
