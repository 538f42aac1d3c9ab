/**
 * The backup retention rule. Every handoff and undo backs up what it is about to change, so one large session
 * handed off and taken back a few times would otherwise fill the disk with near-identical database snapshots.
 * The rule, applied after every successful handoff and undo and by `session-bridge prune`:
 *   1. a copy that a pending handoff's undo restores from (a replaced file, replaced rows) is always kept, and
 *      so is every copy of a handoff still under way (its intent names the folder): another handoff finishing
 *      meanwhile must not remove what this one's undo or recovery will restore from;
 *   2. of the other copies of one original (a store database, a session file), the newest KEEP are kept;
 *   3. everything else is removed, with the folders it leaves without a copy (a folder that never held one,
 *      left by a process killed outright, goes after a day).
 * Folders written before manifests existed group their copies by file name.
 */
import { lstatSync, readdirSync, rmSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { backupsRoot, MANIFEST, readManifest } from "./backup.ts";
import { pendingOperations } from "./ledger.ts";
import { listIntents } from "./intent.ts";
import { refuseLinksBelow } from "../io/links.ts";

export const DEFAULT_KEEP = 2;
const STALE_EMPTY_FOLDER_MS = 24 * 60 * 60 * 1000;

export interface BackupCopy {
  path: string;
  /** What it is a copy of (absolute path), or `?/<name>` for a folder without a manifest. */
  original: string;
  /** When it was taken, from its folder's name (ISO 8601). */
  at: string;
  bytes: number;
}

export interface PrunePlan {
  keep: (BackupCopy & { reason: "newest" | "undo" })[];
  remove: BackupCopy[];
  /** Backup folders that hold no copy once the plan is carried out (removed with it). */
  folders: string[];
  bytes: number;
}

/** `2026-12-01T02-40-00-123Z-codex-…` back to `2026-12-01T02:40:00.123Z`. */
function folderTime(name: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z/.exec(name);
  return m ? `${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z` : "";
}

/**
 * `read()`, or undefined when what it reads is gone: another handoff or undo running at the same time applies
 * the rule to the same folder and may remove a copy or folder between our listing and our look at it.
 */
function unlessRemoved<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

function listCopies(bridgeHome: string): { copies: BackupCopy[]; folders: string[] } {
  const root = backupsRoot(bridgeHome);
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return { copies: [], folders: [] };
  }
  const copies: BackupCopy[] = [];
  const folders: string[] = [];
  for (const name of names.sort()) {
    const dir = join(root, name);
    // Looked at with lstat: a link among the backups is a copy of a link (backupFile), never walked into.
    const files = unlessRemoved(() => lstatSync(dir).isDirectory() ? readdirSync(dir) : undefined);
    if (!files) continue;
    folders.push(dir);
    const manifest = readManifest(dir);
    for (const file of files) {
      if (file === MANIFEST || file.startsWith(".")) continue;
      const path = join(dir, file);
      const original = manifest?.copies[file];
      // A copy the manifest names is looked at as it is: a copy of a link is that link (backupFile), dangling
      // or not. Anything else is followed, and passed over when nothing is there.
      const bytes = unlessRemoved(() => (original === undefined ? statSync : lstatSync)(path).size);
      if (bytes === undefined) continue;
      copies.push({ path, original: original ?? `?/${file}`, at: folderTime(name), bytes });
    }
  }
  return { copies, folders };
}

/** Copies an undo of a pending handoff restores from. */
function neededByUndo(bridgeHome: string): Set<string> {
  const needed = new Set<string>();
  for (const entry of pendingOperations(bridgeHome)) {
    for (const r of entry.replaced) needed.add(r.backup);
    for (const row of entry.rows) if (row.restoreFrom) needed.add(row.restoreFrom);
  }
  return needed;
}

export function planPrune(bridgeHome: string, keep: number, now: Date): PrunePlan {
  const { copies, folders } = listCopies(bridgeHome);
  const needed = neededByUndo(bridgeHome);
  const underWay = new Set(
    listIntents(bridgeHome).flatMap((intent) => intent.kind === "output" ? [] : [intent.backupFolder]),
  );
  const plan: PrunePlan = { keep: [], remove: [], folders: [], bytes: 0 };
  const byOriginal = new Map<string, BackupCopy[]>();
  for (const c of copies) byOriginal.set(c.original, [...(byOriginal.get(c.original) ?? []), c]);
  for (const group of byOriginal.values()) {
    // Newest first; equal times by path, so the order never depends on the directory listing.
    group.sort((a, b) => b.at.localeCompare(a.at) || b.path.localeCompare(a.path));
    let kept = 0;
    for (const c of group) {
      if (needed.has(c.path) || underWay.has(dirname(c.path))) plan.keep.push({ ...c, reason: "undo" });
      else if (kept < keep) {
        kept++;
        plan.keep.push({ ...c, reason: "newest" });
      } else plan.remove.push(c);
    }
  }
  const kept = new Set(plan.keep.map((c) => dirname(c.path)));
  const emptied = new Set(plan.remove.map((c) => dirname(c.path)));
  const holding = new Set(copies.map((c) => dirname(c.path)));
  // A folder with no copy at all is left for a day: another process may have just made it for its backup.
  const stale = new Date(now.getTime() - STALE_EMPTY_FOLDER_MS).toISOString();
  plan.folders = folders.filter((f) =>
    !kept.has(f) && (emptied.has(f) || (!holding.has(f) && folderTime(basename(f)) < stale))
  );
  plan.bytes = plan.remove.reduce((sum, c) => sum + c.bytes, 0);
  plan.keep.sort((a, b) => a.path.localeCompare(b.path));
  plan.remove.sort((a, b) => a.path.localeCompare(b.path));
  return plan;
}

/** Removes what `plan` says, refused whole when the backups folder of `bridgeHome` is a link (lib/io/links.ts). */
export function carryOutPrune(plan: PrunePlan, bridgeHome: string): void {
  refuseLinksBelow(bridgeHome, backupsRoot(bridgeHome));
  for (const c of plan.remove) rmSync(c.path, { force: true });
  for (const dir of plan.folders) rmSync(dir, { recursive: true, force: true });
}

/** The rule applied after a successful handoff or undo; returns what it removed. */
export function applyRetention(bridgeHome: string, now: Date): PrunePlan {
  const plan = planPrune(bridgeHome, DEFAULT_KEEP, now);
  carryOutPrune(plan, bridgeHome);
  return plan;
}
