/**
 * The last line of a file that says something, found by reading backwards from its end: a window of the last
 * bytes, then windows further back, each twice as long as the one before, until a line is accepted or the start
 * is reached. Each byte is read once (a line longer than a window is held until its start is read, one longer
 * than any record a reader takes is passed over unheld), and since the windows double (up to a few MB), what is
 * read is at most about twice the bytes from the accepted line to the end: a 20 MB transcript whose last message
 * sits in its last kilobytes costs one small read, a last line of megabytes a few.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { isRegularFile } from "./file-kind.ts";
import { DEFAULT_MAX_RECORD_BYTES } from "./jsonl.ts";

const NEWLINE = 0x0a;
const KB = 1024;

export interface Backwards {
  /** The bytes read first, from the end. */
  firstWindow: number;
  /** The longest a window grows to: what one read holds in memory, besides the line it completes. */
  largestWindow: number;
  /** A longer line is passed over without being held whole (readers refuse it as too long). */
  maxLineBytes: number;
}

const BACKWARDS: Backwards = {
  firstWindow: 16 * KB,
  largestWindow: 4 * KB * KB,
  maxLineBytes: DEFAULT_MAX_RECORD_BYTES,
};

export interface FoundFromEnd<T> {
  /** What `pick` made of the last line it accepted; undefined when it accepted none. */
  value: T | undefined;
  /** How many bytes were read to find it. */
  bytesRead: number;
}

/**
 * The last non-blank line of `path` for which `pick` returns something, and that value. `pick` sees each line
 * as bytes (a view valid only during the call), the last first: it can pass over a line without decoding it.
 * Anything but a regular file holds no line and is never opened (a FIFO would block the open, a device never
 * end: lib/io/file-kind.ts); nothing there is no line either.
 */
export function lastLineWhere<T>(
  path: string,
  pick: (line: Buffer) => T | undefined,
  backwards: Partial<Backwards> = {},
): FoundFromEnd<T> {
  const { firstWindow, largestWindow, maxLineBytes } = { ...BACKWARDS, ...backwards };
  if (!isRegularFile(path)) return { value: undefined, bytesRead: 0 };
  const fd = openSync(path, "r");
  try {
    // `held`: the bytes read from `from` on that are in no line tried yet (the end of a line cut by a window);
    // `passing`: they were dropped, the line being longer than any line taken.
    let from = fstatSync(fd).size;
    let held: Buffer[] = [];
    let heldBytes = 0;
    let passing = false;
    let window = firstWindow;
    let bytesRead = 0;
    while (from > 0) {
      const start = Math.max(0, from - window);
      const buffer = Buffer.allocUnsafe(from - start);
      // Fewer bytes than asked only when the file was cut meanwhile: what was read is all there is.
      const chunk = buffer.subarray(0, readSync(fd, buffer, 0, buffer.length, start));
      bytesRead += chunk.length;
      from = start;
      window = Math.min(window * 2, largestWindow);
      // A line cut by the window's start is completed by the bytes before it, read next.
      const cut = start === 0 ? -1 : chunk.indexOf(NEWLINE);
      if (start > 0 && cut === -1) {
        if (!passing) held.unshift(chunk);
        heldBytes += chunk.length;
        if (heldBytes > maxLineBytes) [held, passing] = [[], true];
        continue;
      }
      // The whole lines after the cut: with the line held completed, or, the line passed over, those before it.
      const lines = passing
        ? chunk.subarray(cut + 1, chunk.lastIndexOf(NEWLINE) + 1)
        : Buffer.concat([chunk.subarray(cut + 1), ...held]);
      const value = lastPicked(lines, pick);
      if (value !== undefined) return { value, bytesRead };
      held = [chunk.subarray(0, cut + 1)];
      heldBytes = cut + 1;
      passing = false;
    }
    return { value: undefined, bytesRead };
  } finally {
    closeSync(fd);
  }
}

/** The value of the last line of `text` (whole lines) that `pick` accepts. */
function lastPicked<T>(text: Buffer, pick: (line: Buffer) => T | undefined): T | undefined {
  let end = text.length;
  while (end > 0) {
    const newline = text.lastIndexOf(NEWLINE, end - 1);
    const line = text.subarray(newline + 1, end);
    if (line.some((c) => c !== 0x20 && c !== 0x09 && c !== 0x0d)) {
      const value = pick(line);
      if (value !== undefined) return value;
    }
    end = newline === -1 ? 0 : newline;
  }
  return undefined;
}
