/**
 * Backups taken before any write to an existing store object. Files are copied; SQLite databases go through
 * the online backup API, which reads a consistent snapshot even while another process writes (issue #3, #4).
 * Each backup folder holds a manifest naming what every copy was copied from, so the retention rule
 * (lib/store/prune.ts) can keep the newest copies of each original and drop the rest.
 */
import {
  closeSync,
  copyFileSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { entryPresent, isLink, makeOwnFolder, openOwnFile, refuseLinksBelow } from "../io/links.ts";
import { crashPoint } from "../io/crash-points.ts";

/**
 * session-bridge's own folder (backups, the undo ledger, tool provenance) as the environment names it: read
 * once, at the edge, and passed down as a value. Absolute, because the ledger records paths in it that a later
 * undo, run from anywhere, must find.
 */
export function resolveBridgeHome(env: NodeJS.ProcessEnv): string {
  return resolve(env.SESSION_BRIDGE_HOME || join(env.HOME || homedir(), ".session-bridge"));
}

export function backupsRoot(bridgeHome: string): string {
  return join(bridgeHome, "backups");
}

export const MANIFEST = "manifest.json";

export interface Manifest {
  /** Copy file name (in the folder) to the absolute path it was copied from. */
  copies: Record<string, string>;
}

/** A fresh folder for one operation's backups under session-bridge's own folder, named so they sort by time. */
export function backupDir(label: string, now: Date, home: string): string {
  const stamp = now.toISOString().replace(/[:.]/g, "-");
  return join(backupsRoot(home), `${stamp}-${label}`);
}

/**
 * The folder handoff `op` into `harness` of session `id` keeps its backups in: named before any is taken, so the
 * write-ahead intent (lib/store/intent.ts) can say where they will be, and the commit writes where it says.
 * The operation makes it its own: two handoffs of one id in one millisecond (processes racing) copied the
 * database into one file at once, and the loser's rollback removed the winner's copy.
 */
export function handoffBackupDir(harness: string, id: string, op: string, now: Date, home: string): string {
  return backupDir(`${harness}-${id}-${op}`, now, home);
}

/**
 * Copies `path` into the backup folder `dir`. A link is copied as the link it is, so that putting it back
 * (copyIntoPlace) makes the same link again, not a file holding what it pointed at; a dangling one too.
 */
export function backupFile(path: string, dir: string): string | undefined {
  if (!entryPresent(path)) return undefined;
  const target = backupTarget(dir, basename(path));
  if (isLink(path)) symlinkSync(readlinkSync(path), target);
  else copyFileSync(path, target);
  recordCopy(target, path);
  crashPoint("backup-taken");
  return target;
}

/** The session-bridge folder backup folder `dir` is in (see backupDir). */
const homeOfBackupFolder = (dir: string): string => dirname(dirname(dir));

/**
 * Where a copy named `name` goes in backup folder `dir` (made if missing), refused when anything on the way in
 * session-bridge's own folder is a link: backupDir puts every backup folder two levels below it.
 */
export function backupTarget(dir: string, name: string): string {
  const home = homeOfBackupFolder(dir);
  makeOwnFolder(home, dir);
  const target = join(dir, name);
  refuseLinksBelow(home, target);
  return target;
}

export function readManifest(dir: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, MANIFEST), "utf8")) as Manifest;
  } catch {
    return undefined;
  }
}

/** Notes in the copy's folder where it came from (written whole and renamed: never half a manifest). */
export function recordCopy(copy: string, original: string): void {
  const dir = dirname(copy);
  const manifest = readManifest(dir) ?? { copies: {} };
  manifest.copies[basename(copy)] = original;
  const temp = join(dir, `.${MANIFEST}.tmp`);
  const fd = openOwnFile(homeOfBackupFolder(dir), temp, "replace");
  try {
    writeFileSync(fd, `${JSON.stringify(manifest, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, join(dir, MANIFEST));
}
