/**
 * The two ends of a JSONL file, for listings that show what a session starts with (its directory, first
 * prompt) and what was appended last (a title set by a rename): a window at each end, whatever the file's
 * size, as whole lines. A file no longer than `Windows.whole` is read once, whole. Lines stay bytes:
 * a listing decodes the few it reads (decoding every line of every transcript's ends was a fifth of `list`).
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

export interface Ends {
  /** The complete lines at the start of the file, in order (a line cut by the window's end is left out). */
  head: Buffer[];
  /** The complete lines at its end, in order; empty when the head already held the whole file. */
  tail: Buffer[];
  /** Whether `head` is every line of the file. */
  whole: boolean;
  /** The file's size in bytes. */
  size: number;
  /** When the file was last written. */
  modified: Date;
}

/** How much of a file `withEnds` reads. */
export interface Windows {
  /** Bytes from the start. */
  head: number;
  /** Bytes from the end. */
  tail: number;
  /** A file no longer than this (at least head + tail) is read whole instead. */
  whole: number;
}

/**
 * Reads the ends of `path` and hands them to `use`. The lines are views of one buffer that the next read
 * reuses (allocating two windows per transcript cost a listing more than reading them): valid only inside
 * `use`, which copies or decodes what it keeps.
 */
export function withEnds<T>(path: string, windows: Windows, use: (ends: Ends) => T): T {
  const fd = openSync(path, "r");
  try {
    const { size, mtime: modified } = fstatSync(fd);
    const whole = size <= windows.whole;
    if (scratch.length < windows.whole) scratch = Buffer.allocUnsafe(windows.whole);
    const head = readAt(fd, scratch.subarray(0, whole ? size : windows.head), 0);
    if (whole) return use({ head: lines(head), tail: [], whole: true, size, modified });
    const tail = readAt(fd, scratch.subarray(windows.head, windows.head + windows.tail), size - windows.tail);
    // The head's last line may be cut at the window, the tail's first line certainly is.
    return use({
      head: lines(head.subarray(0, head.lastIndexOf(NEWLINE) + 1)),
      tail: lines(tail.subarray(tail.indexOf(NEWLINE) + 1)),
      whole: false,
      size,
      modified,
    });
  } finally {
    closeSync(fd);
  }
}

/** The windows of the latest read (only the bytes read are looked at, so never zero-filled). */
let scratch = Buffer.allocUnsafe(0);

const NEWLINE = 0x0a;

function readAt(fd: number, buffer: Buffer, position: number): Buffer {
  return buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, position));
}

/** The non-blank lines of `text`, each a view of its bytes (no copy). */
function lines(text: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let start = 0; start < text.length;) {
    const found = text.indexOf(NEWLINE, start);
    const end = found === -1 ? text.length : found;
    if (!blank(text, start, end)) out.push(text.subarray(start, end));
    start = end + 1;
  }
  return out;
}

/** Only JSON's whitespace between the newlines: a line that holds no record. */
function blank(text: Buffer, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = text[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}
