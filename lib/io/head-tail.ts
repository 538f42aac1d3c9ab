/**
 * The two ends of a JSONL file, for listings that show what a session starts with (its directory, first
 * prompt) and what was appended last (a title set by a rename): at most `bytes` from each end, whatever the
 * file's size, as whole lines. A file no longer than both ends together is read once, whole.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

export interface Ends {
  /** The complete lines at the start of the file, in order (a line cut by the window's end is left out). */
  head: string[];
  /** The complete lines at its end, in order; empty when the head already held the whole file. */
  tail: string[];
  /** Whether `head` is every line of the file. */
  whole: boolean;
  /** The file's size in bytes. */
  size: number;
}

export function readEnds(path: string, bytes: number): Ends {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const whole = size <= 2 * bytes;
    const headBuffer = Buffer.alloc(whole ? size : bytes);
    const headRead = readSync(fd, headBuffer, 0, headBuffer.length, 0);
    const headText = headBuffer.toString("utf8", 0, headRead);
    if (whole) return { head: lines(headText), tail: [], whole: true, size };
    const tailBuffer = Buffer.alloc(bytes);
    const tailRead = readSync(fd, tailBuffer, 0, bytes, size - bytes);
    const tailText = tailBuffer.toString("utf8", 0, tailRead);
    // The head's last line may be cut at the window, the tail's first line certainly is.
    return {
      head: lines(headText.slice(0, headText.lastIndexOf("\n") + 1)),
      tail: lines(tailText.slice(tailText.indexOf("\n") + 1)),
      whole: false,
      size,
    };
  } finally {
    closeSync(fd);
  }
}

function lines(text: string): string[] {
  return text.split("\n").filter((l) => l.trim() !== "");
}
