/**
 * A lock folder of another program's, held by a handoff's commit while it edits that program's file: the
 * proper-lockfile convention (`<file>.lock`, made with mkdir, its time refreshed while held, taken over by anyone
 * who finds it older than the program's staleness). A commit killed while holding one leaves it behind, so its
 * times follow session-bridge's own schedule: stamped at `stamp` when made (a whole second, fixed before the
 * commit starts so that the write-ahead intent records it), then every LOCK_REFRESH_MS set to the stamp plus a
 * whole multiple of it. Recovery tells a folder the killed commit left (its time still on that schedule) from
 * one the program took over or refreshed since (the time of its own clock, to the nanosecond): only the first
 * is removed.
 *
 * The refresh runs on the event loop, which the commit visits at least every megabyte it writes; a loop held
 * longer than the program's staleness less LOCK_REFRESH_MS (a disk stalled for seconds) lets the program take
 * the lock over mid-commit. Then the commit no longer refreshes it, and leaves it to its new holder.
 */
import { lstatSync, mkdirSync, readdirSync, rmdirSync, utimesSync } from "node:fs";

/** Half of proper-lockfile's default staleness (10 s), as its own refresh. */
export const LOCK_REFRESH_MS = 5_000;

/** A stamp for lock folders made from now on: this second (whole seconds survive every file system's times). */
export const lockStampNow = (): number => Math.floor(Date.now() / 1000) * 1000;

/**
 * Makes the lock folder (mkdir's EEXIST thrown as is: someone holds it), stamps it and keeps it fresh; the
 * function returned stops refreshing and removes it, unless someone else has taken it over meanwhile.
 */
export function holdLockFolder(path: string, stamp: number): () => void {
  mkdirSync(path);
  // The schedule's latest point: a lock made after a wait (another holder had it) is not born stale.
  const scheduled = () =>
    stamp + Math.max(0, Math.floor((Date.now() - stamp) / LOCK_REFRESH_MS)) * LOCK_REFRESH_MS;
  let last = scheduled();
  let ours = true;
  const setTime = (ms: number) => utimesSync(path, ms / 1000, ms / 1000);
  const refresh = () => {
    const next = scheduled();
    if (next === last) return;
    try {
      // Someone took it over (its time is not the one set last): it is theirs now.
      if (lstatSync(path).mtimeMs !== last) throw new Error("taken over");
      setTime(next);
      last = next;
    } catch {
      ours = false;
      clearInterval(timer);
    }
  };
  try {
    setTime(last);
  } catch (error) {
    rmdirSync(path);
    throw error;
  }
  const timer = setInterval(refresh, LOCK_REFRESH_MS);
  return () => {
    clearInterval(timer);
    if (ours && onSchedule(path, stamp)) rmdirSync(path);
  };
}

/**
 * Whether the lock folder at `path` is still one a commit stamped at `stamp` left: an empty folder (not a link)
 * whose time is on that commit's schedule. Recovery removes it then; otherwise it is someone else's (or gone).
 */
export function onSchedule(path: string, stamp: number): boolean {
  try {
    const info = lstatSync(path);
    const since = info.mtimeMs - stamp;
    return info.isDirectory() && since >= 0 && since % LOCK_REFRESH_MS === 0 &&
      readdirSync(path).length === 0;
  } catch {
    return false;
  }
}
