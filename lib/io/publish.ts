/**
 * Publishing files into a live store: content is streamed to a temp file in the destination folder, fsynced,
 * then linked into place. `link` fails if the name exists, so nothing is ever overwritten by accident; with
 * `replace` the file is renamed over the old one (the caller has backed it up). A failed or interrupted publish
 * leaves nothing.
 */
import { garbagePacer } from "./garbage.ts";
import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";
import { RefusedError, writeFailure } from "../errors.ts";
import { regularFileIfPresent } from "./file-kind.ts";
import { entryPresent, isLink } from "./links.ts";
import { yieldAndCheckpoint } from "./interrupt.ts";
import { terminalText } from "./control-characters.ts";
import { isTerminal } from "./is-terminal.ts";
import { crashPoint } from "./crash-points.ts";
import { randomHex } from "../ids.ts";
import { type Feedback, startProgress } from "./progress.ts";
import { type Rendered, renderedText } from "./rendered.ts";
import { BackgroundSync } from "./background-sync.ts";

const FLUSH_BYTES = 1 << 20;

/**
 * Writes lines (each followed by '\n'; a line's parts by nothing, see rendered.ts) to `fd`, encoded straight
 * into one reused buffer that goes out a megabyte at a time: a large session streams in bounded memory, and no
 * line is joined or encoded twice. A terminal gets display-steering characters as `\uXXXX` escapes: the lines
 * are JSON, so they still read back as the same values, and a session cannot repaint the screen it is printed
 * on (a piece is neutralized alone: pieces are cut between JSON values).
 */
export async function writeLines(
  fd: number,
  lines: AsyncIterable<Rendered>,
  progress?: { what: string; feedback?: Feedback },
  /** Told how many bytes have gone out, after every megabyte. */
  flushed?: (bytes: number) => void,
): Promise<void> {
  const shown = isTerminal(fd) ? terminalText : (l: string) => l;
  const out = Buffer.allocUnsafe(FLUSH_BYTES);
  let used = 0;
  const step = progress ? startProgress(progress.feedback, progress.what, "bytes") : undefined;
  let written = 0;
  // What is rendered dies as soon as it is out: collected as it goes, not left to pile up (garbage.ts).
  const collect = garbagePacer();
  let collected = 0;
  /**
   * What every megabyte out is followed by: progress, collecting what it left, a crash point for the campaign, a
   * visit to the loop.
   */
  const sent = async () => {
    step?.advance(written);
    flushed?.(written);
    collect(written - collected);
    collected = written;
    crashPoint("chunk-written");
    await yieldAndCheckpoint();
  };
  try {
    for await (const item of lines) {
      const text = renderedText(item);
      const ends = typeof item === "string";
      const newline = ends ? 1 : 0;
      written += text.length + newline;
      const l = shown(text);
      // A UTF-16 unit takes at most three bytes: what may not fit is sent first, and a piece longer than the
      // buffer goes out in slices of its own.
      const most = 3 * l.length + newline;
      if (most > out.length - used && used > 0) {
        writeAll(fd, out, used);
        used = 0;
        await sent();
      }
      if (most > out.length) {
        writeInSlices(fd, l);
        if (ends) writeSync(fd, "\n");
        await sent();
        continue;
      }
      used += out.write(l, used);
      if (ends) out[used++] = 0x0a;
    }
    writeAll(fd, out, used);
    await yieldAndCheckpoint();
  } finally {
    step?.finish();
  }
}

/** The first `length` bytes of `bytes`, all of them: a pipe may take a write in parts. */
function writeAll(fd: number, bytes: Buffer, length: number): void {
  for (let at = 0; at < length;) at += writeSync(fd, bytes, at, length - at);
}

/** Writes `text` a slice at a time, never cutting a surrogate pair (each slice is encoded on its own). */
function writeInSlices(fd: number, text: string): void {
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + FLUSH_BYTES);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    writeSync(fd, text.slice(at, end));
    at = end;
  }
}

/** Folders this process created, oldest first, so a rollback can remove exactly those (when empty). */
export function ensureDir(path: string, created: string[]): void {
  const missing: string[] = [];
  for (let dir = path; !existsSync(dir); dir = dirname(dir)) missing.unshift(dir);
  if (!missing.length) return;
  mkdirSync(path, { recursive: true });
  created.push(...missing);
}

export function removeEmptyDirs(created: string[]): void {
  for (const dir of [...created].reverse()) {
    try {
      rmdirSync(dir);
    } catch {
      // Not empty (someone else wrote there meanwhile) or already gone: leave it.
    }
  }
}

export async function publishFile(
  path: string,
  lines: AsyncIterable<Rendered>,
  replace: boolean,
  /** Where writing it reports how far it has got (default: nowhere). */
  feedback?: Feedback,
): Promise<void> {
  // A directory or FIFO of that name is refused as it is, not renamed over or reported by the temp file's name.
  const present = regularFileIfPresent(path);
  if (!replace && present) {
    throw new RefusedError(`${path} already exists (use --force to replace it)`);
  }
  const temp = publishTempPath(path, process.pid);
  const fd = openSync(temp, "wx", 0o600);
  const early = new BackgroundSync(fd);
  try {
    await writeLines(fd, lines, { what: `writing ${path}`, feedback }, (bytes) => early.written(bytes));
    await early.settled();
    fsyncSync(fd);
  } catch (error) {
    await early.settled().catch(() => {});
    closeSync(fd);
    unlinkSync(temp);
    throw writeFailure(error, path);
  }
  closeSync(fd);
  crashPoint("temp-written");
  try {
    if (replace) renameSync(temp, path);
    else {
      linkSync(temp, path);
      unlinkSync(temp);
    }
  } catch (error) {
    if (existsSync(temp)) unlinkSync(temp);
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new RefusedError(`${path} already exists (use --force to replace it)`);
    }
    throw error;
  }
  crashPoint("file-published");
}

/**
 * Puts a copy of `source` at `path` whole: copied to a hidden temp file beside it (named as a publish's, so
 * recovery knows it as this process's debris), synced, then renamed over whatever is there. A `source` that is
 * a link (a backup of a link, see backupFile) puts the same link back, not a file holding what it points at.
 */
export function copyIntoPlace(source: string, path: string): void {
  const temp = publishTempPath(path, process.pid);
  try {
    if (isLink(source)) symlinkSync(readlinkSync(source), temp);
    else copyAndSync(source, temp);
    crashPoint("temp-written");
    renameSync(temp, path);
  } catch (error) {
    if (entryPresent(temp)) unlinkSync(temp);
    throw writeFailure(error, path);
  }
}

function copyAndSync(source: string, temp: string): void {
  copyFileSync(source, temp);
  const fd = openSync(temp, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * The hidden temp file a publish of `path` by process `pid` fills before linking it into place: named so that
 * recovery can tell exactly which temp files an interrupted handoff left (see isPublishTemp).
 */
export function publishTempPath(path: string, pid: number): string {
  return join(dirname(path), `.${basename(path)}.${pid}.${randomHex(4)}.tmp`);
}

/** Whether `name` (in the folder of `path`) is a temp file of a publish of `path` by process `pid`. */
export function isPublishTemp(name: string, path: string, pid: number): boolean {
  const prefix = `.${basename(path)}.${pid}.`;
  return name.startsWith(prefix) && /^[0-9a-f]{8}\.tmp$/.test(name.slice(prefix.length));
}
