/**
 * The write-ahead half of the undo ledger. Before a handoff touches its target, an intent record says what it
 * will write and where (files, with what was at each path before; databases and the rows it will insert, with a
 * fingerprint of what they held before; the backup folder), written whole and synced to disk. It is removed
 * once the ledger holds the finished operation. An intent still there after its process has died is an
 * interrupted handoff: recovery (lib/store/recover.ts) completes it when its commit happened, else rolls it back.
 * An undo writes one too (`UndoIntent`, carried out and recovered by lib/store/undo.ts), so a kill during an undo
 * is finished or rolled back the same way. One file per intent (`intents/<op>.json`, `intents/undo-<op>.json`),
 * so that finding interrupted operations costs one directory listing. Beside it, the room its records will take
 * in session-bridge's own folder once its commit is made (`<op>.room`, see lib/store/room.ts), reserved with the
 * intent and given back just before they are written: a full disk refuses the operation before anything is
 * written, not after its commit.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { hostname } from "node:os";
import { dirname, join } from "node:path";
import type { KeyedRows } from "./rows.ts";
import type { LedgerEntry } from "./ledger.ts";
import { isLink, makeOwnFolder, openOwnFile, refuseLinksBelow } from "../io/links.ts";
import { writeFailure } from "../errors.ts";
import { reserveRoom } from "../io/reserve.ts";
import { ledgerPath } from "./ledger.ts";
import { openReadOnly, quoteIdent } from "./sqlite.ts";

/** What identifies a file's content without reading it: a publish or a restore changes at least one. */
export interface FileStamp {
  ino: number;
  size: number;
  mtimeMs: number;
}

export interface IntentFile {
  path: string;
  /** What was at the path before (a `--force` replaces it); absent: the handoff creates the file. */
  before?: FileStamp;
}

export interface IntentRows extends KeyedRows {
  /** A fingerprint of the rows `key` matched before (null: none); a committed handoff changed them. */
  before: string | null;
}

/** What every intent records: its operation, when, and the process (on which host) carrying it out. */
interface IntentRun {
  op: string;
  at: string;
  /** The process carrying it out: while it runs, its intent is work in progress, not an interruption. */
  pid: number;
  host: string;
}

/** The session a handoff or an output reads, and where it writes the new one. */
interface IntentSession {
  source: { harness: string; id: string };
  target: { harness: string; id: string; path: string };
}

/** A handoff's intent. */
export interface Intent extends IntentRun, IntentSession {
  kind: "handoff";
  files: IntentFile[];
  /** Folders the files go in that did not exist yet: a rollback removes them again when empty. */
  folders: string[];
  databases: string[];
  rows: IntentRows[];
  /** Where the handoff's backups go (see handoffBackupDir). */
  backupFolder: string;
  /** Files in session-bridge's own folder it also writes whole (provenance): a kill may leave their temp file. */
  sidecars?: string[];
  /**
   * The harness's lock folders the commit holds (HandoffPlan.locks), with the time it stamps on them: a kill
   * leaves them, and recovery removes one still so stamped (lib/io/lock-folder.ts).
   */
  locks?: IntentLock[];
}

export interface IntentLock {
  path: string;
  /** Epoch milliseconds, a whole second: real time when the intent was written, not the handoff's `at`. */
  stamp: number;
}

/**
 * An undo's intent: the handoff it takes back, and everything the undo will do, fixed before it does any of it,
 * so that recovery carries out exactly the same steps (or none).
 */
export interface UndoIntent extends IntentRun {
  kind: "undo";
  /** The handoff being undone (the ledger entry's op). */
  op: string;
  entry: LedgerEntry;
  /** Files the undo removes, with what each was when the undo began: one that changed was already removed. */
  remove: { path: string; before?: FileStamp }[];
  /** Files it puts back from their backups (the handoff replaced them), with what each was when it began. */
  restore: { path: string; backup: string; before?: FileStamp }[];
  /** Rows it deletes (and puts back from `restoreFrom`), with a fingerprint of what they held before. */
  rows: IntentRows[];
  /** Files changed since the handoff that a forced undo saves before removing. */
  changed: string[];
  /** Where the undo's own backups go. */
  backupFolder: string;
}

/**
 * A `convert -o` or `export` writing one file outside any store: nothing to roll back (the file appears whole
 * or not at all), but a kill leaves the hidden temp file it was filling, which recovery removes by this name.
 */
export interface OutputIntent extends IntentRun, IntentSession {
  kind: "output";
  command: "convert" | "export";
  /** A fresh id for this run. */
  op: string;
  /** What was at the path before (a `--force` replaces it); absent: the run creates the file. */
  before?: FileStamp;
  sidecars?: string[];
}

export type AnyIntent = Intent | UndoIntent | OutputIntent;

/** What an intent is about, in the terms a user knows: which command, from which session to which. */
export function intentSubject(intent: AnyIntent): {
  command: "handoff" | "undo" | OutputIntent["command"];
  source: { harness: string; id: string };
  target: { harness: string; id: string; path: string };
} {
  const { source, target } = intent.kind === "undo" ? intent.entry : intent;
  return { command: intent.kind === "output" ? intent.command : intent.kind, source, target };
}

function intentsDir(bridgeHome: string): string {
  return join(bridgeHome, "intents");
}

/** The intent's file: named after the operation, an undo's with an `undo-` prefix (it shares the op). */
function intentPath(bridgeHome: string, intent: Pick<AnyIntent, "kind" | "op">): string {
  return join(intentsDir(bridgeHome), `${intentName(intent)}.json`);
}

/** The room reserved for the intent's records (not `.json`: no intent is read from it). */
function roomPath(bridgeHome: string, intent: Pick<AnyIntent, "kind" | "op">): string {
  return join(intentsDir(bridgeHome), `${intentName(intent)}.room`);
}

const intentName = (intent: Pick<AnyIntent, "kind" | "op">): string =>
  `${intent.kind === "undo" ? "undo-" : ""}${intent.op}`;

/** The stamp of what is at `path` itself: a link's own, so that replacing a link by a file shows. */
export function fileStamp(path: string): FileStamp | undefined {
  try {
    const s = lstatSync(path);
    return { ino: s.ino, size: s.size, mtimeMs: s.mtimeMs };
  } catch {
    return undefined;
  }
}

export const sameStamp = (a: FileStamp | undefined, b: FileStamp | undefined): boolean =>
  a?.ino === b?.ino && a?.size === b?.size && a?.mtimeMs === b?.mtimeMs;

/** A fingerprint of the rows `key` matches (null when none), read on a read-only connection. */
export function rowsFingerprint(rows: KeyedRows): string | null {
  const db = openReadOnly(rows.database);
  try {
    const names = Object.keys(rows.key);
    const where = names.map((n) => `${quoteIdent(n)} = ?`).join(" AND ");
    const found = db.prepare(`SELECT * FROM ${quoteIdent(rows.table)} WHERE ${where} ORDER BY rowid`).all(
      ...names.map((n) => rows.key[n]!),
    );
    if (!found.length) return null;
    const hash = createHash("sha256");
    for (const row of found) {
      hash.update(
        JSON.stringify(
          row,
          (_, v) => (typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? [...v] : v),
        ),
      );
    }
    return hash.digest("hex");
  } finally {
    db.close();
  }
}

/** The folders of `paths` that do not exist yet, outermost first. */
export function missingFolders(paths: string[]): string[] {
  const missing = new Set<string>();
  for (const path of paths) {
    for (let dir = dirname(path); !existsSync(dir) && dirname(dir) !== dir; dir = dirname(dir)) {
      missing.add(dir);
    }
  }
  return [...missing].sort((a, b) => a.length - b.length);
}

/**
 * Writes the intent whole (a temp file synced, then renamed, the folder synced), checks that the ledger itself
 * can be appended to, and reserves `room` bytes for the records written after the commit, before anything else
 * is written. Throws when any of it cannot be written, leaving none of it, or when anything the operation will
 * write in session-bridge's own folder is behind a link there (lib/io/links.ts): refused now, not once the
 * target is written.
 */
export function writeIntent(bridgeHome: string, intent: AnyIntent, room = 0): void {
  const dir = intentsDir(bridgeHome);
  const ledger = ledgerPath(bridgeHome);
  for (const path of ownPathsOf(intent, ledger)) refuseLinksBelow(bridgeHome, path);
  makeOwnFolder(bridgeHome, dir);
  // The ledger the entry will be appended to must take it (a new one is made in the folder just written to).
  if (intent.kind !== "output" && existsSync(ledger)) closeSync(openOwnFile(bridgeHome, ledger, "append"));
  const path = intentPath(bridgeHome, intent);
  const temp = `${path}.${process.pid}.tmp`;
  const fd = openOwnFile(bridgeHome, temp, "replace");
  try {
    writeSync(fd, `${JSON.stringify(intent)}\n`);
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temp);
    throw writeFailure(error, path);
  }
  closeSync(fd);
  renameSync(temp, path);
  syncFolder(dir);
  if (room <= 0) return;
  try {
    const reserved = roomPath(bridgeHome, intent);
    reserveRoom(openOwnFile(bridgeHome, reserved, "replace"), reserved, room);
  } catch (error) {
    removeIntent(bridgeHome, intent);
    throw writeFailure(error, roomPath(bridgeHome, intent));
  }
}

/** Gives back the room reserved with the intent, for the records it was reserved for (none left: nothing). */
export function releaseRoom(bridgeHome: string, intent: Pick<AnyIntent, "kind" | "op">): void {
  rmSync(roomPath(bridgeHome, intent), { force: true });
}

/** What an operation writes in session-bridge's own folder besides its intent: the ledger, backups, sidecars. */
function ownPathsOf(intent: AnyIntent, ledger: string): string[] {
  if (intent.kind === "output") return intent.sidecars ?? [];
  return [ledger, intent.backupFolder, ...(intent.kind === "handoff" ? intent.sidecars ?? [] : [])];
}

/** The intent is over: the ledger holds the operation, or nothing of it is left. */
export function removeIntent(bridgeHome: string, intent: Pick<AnyIntent, "kind" | "op">): void {
  releaseRoom(bridgeHome, intent);
  const path = intentPath(bridgeHome, intent);
  if (existsSync(path)) unlinkSync(path);
  syncFolder(intentsDir(bridgeHome));
}

/** Whether any intent is left, or one cut short while being written (one listing; no file is read). */
export function hasIntents(bridgeHome: string): boolean {
  return intentNames(bridgeHome).length > 0;
}

/**
 * The names in the intents folder; none when there is no folder, or when it is a link: recovery acting on what
 * a link points at would remove files outside session-bridge's folder (a handoff refuses it, lib/io/links.ts).
 */
function intentNames(bridgeHome: string): string[] {
  const dir = intentsDir(bridgeHome);
  if (isLink(dir)) return [];
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Intents left, oldest first; one that cannot be read (cut short before its rename) is no intent. */
export function listIntents(bridgeHome: string): AnyIntent[] {
  const names = intentNames(bridgeHome).filter((f) => f.endsWith(".json"));
  const intents: AnyIntent[] = [];
  for (const name of names) {
    try {
      const intent = JSON.parse(readFileSync(join(intentsDir(bridgeHome), name), "utf8")) as AnyIntent;
      // Intents written before undo had its own were all handoffs'.
      intents.push(intent.kind ? intent : { ...(intent as Intent), kind: "handoff" });
    } catch {
      continue;
    }
  }
  return intents.sort((a, b) => a.at.localeCompare(b.at) || a.op.localeCompare(b.op));
}

/** Removes temp files of intents that never got renamed into place (their process was killed writing one). */
export function removeTornIntents(bridgeHome: string): string[] {
  const dir = intentsDir(bridgeHome);
  const names = intentNames(bridgeHome);
  const torn = names.filter((name) => {
    const pid = /^(?:undo-)?[0-9a-f-]{36}\.json\.(\d+)\.tmp$/.exec(name)?.[1];
    return pid !== undefined && !processAlive(Number(pid));
  });
  for (const name of torn) unlinkSync(join(dir, name));
  return torn.map((n) => join(dir, n));
}

/** Whether the process that wrote the intent is still running (on this machine): then it is not interrupted. */
export function stillRunning(intent: AnyIntent): boolean {
  return intent.host === hostname() && processAlive(intent.pid);
}

/** Whether process `pid` of this machine is running (this process counts). */
export function processAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

export const thisProcess = (): { pid: number; host: string } => ({ pid: process.pid, host: hostname() });

/** A rename or unlink in `dir` reaches the disk (where the platform lets a folder be synced). */
function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, "r");
    fsyncSync(fd);
  } catch {
    // Some platforms cannot sync a folder; the file itself was synced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
