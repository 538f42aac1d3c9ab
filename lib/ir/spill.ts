/**
 * Messages spilled to a temporary file as they pass, read back in order, synchronously, as often as asked: how
 * a thread of possibly hundreds of megabytes (a streamed session's older messages, made a fitted session's
 * compacted thread) is kept without being held. Those messages are seen once, while they are counted, and
 * which of them become the thread is known only after that pass; so each is written as it passes, and the
 * prefix chosen is read back later from the file.
 *
 * The file is unlinked as soon as it is made, where the system allows it (POSIX), so nothing is left behind
 * even if the process is killed: its open descriptor keeps it readable until it is closed.
 */
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Buffer } from "node:buffer";
import { fileSystemReason, writeFailure } from "../errors.ts";
import { float64Column } from "../io/columns.ts";
import { decodeRange, recordText } from "../io/jsonl.ts";
import type { Message } from "./schema.ts";
import type { ThreadMessages } from "./stream.ts";

/** Messages written to a temporary file as they are added, read back as a thread (see the module's comment). */
export interface MessageSpill {
  /** Appends one message (serialized as one JSON line). */
  add(message: Message): void;
  /** How many were added. */
  readonly count: number;
  /**
   * `count` messages from message `from` on (default: the first) as a ThreadMessages: each iteration reads them
   * again from the file, in order, holding a window of about a megabyte and the message in hand (a message
   * longer than the window is read whole, alone). Several threads can share one spill, each a run of it.
   */
  messages(count: number, from?: number): ThreadMessages;
  /** Message `i` alone, read from the file. */
  at(i: number): Message;
  /** Closes the file (iterating after that throws). Idempotent. */
  close(): void;
}

/** How much text is gathered before one write: a write per message would be a system call per message. */
const WRITE_BYTES = 1024 * 1024;

/** A spill to a new temporary file in `dir` (default: the system's temporary folder). */
export function spillMessages(dir: string = tmpdir()): MessageSpill {
  // A folder of its own, made only for this user, so the file's name is one nobody else can have taken.
  const folder = mkdtempSync(join(dir, "session-bridge-spill-"));
  const path = join(folder, "messages.jsonl");
  const where = `${path} (a temporary file of messages spilled from memory)`;
  let fd: number;
  try {
    fd = openSync(path, "wx+", 0o600);
  } catch (error) {
    rmdirSync(folder);
    throw error;
  }
  // Where the system refuses to remove an open file (Windows), it is removed when closed.
  let removed = removeSpill(folder, path);
  /** Each message's end in the file, in bytes (after its line end): eight bytes a message, not an object. */
  const ends = float64Column();
  let pending: string[] = [];
  let pendingBytes = 0;
  /** Bytes written to the file. */
  let written = 0;
  let closed = false;

  const failure = (error: unknown): unknown => {
    const classified = writeFailure(error, where);
    return classified === error
      ? new Error(`${where}: ${fileSystemReason(error)}`, { cause: error })
      : classified;
  };
  const refuseClosed = () => {
    if (closed) throw new Error(`${where}: the spilled messages were read after the spill was closed`);
  };
  const flush = () => {
    if (pending.length === 0) return;
    const bytes = Buffer.from(pending.join(""));
    pending = [];
    pendingBytes = 0;
    try {
      for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at, written + at);
    } catch (error) {
      // Part of the text may be written: the spill cannot be trusted any more, so it ends here.
      spill.close();
      throw failure(error);
    }
    written += bytes.length;
  };

  /** Message `i`, its text read by `text`. */
  const read = (text: (offset: number, length: number) => string, i: number): Message => {
    // Checked before every read: once closed, the descriptor's number may be another file's.
    refuseClosed();
    const start = i ? ends.get(i - 1) : 0;
    try {
      return JSON.parse(text(start, ends.get(i) - start - 1)) as Message;
    } catch (error) {
      throw failure(error);
    }
  };

  const spill: MessageSpill = {
    add(message) {
      refuseClosed();
      // JSON.stringify escapes every line end (and a lone surrogate as \udXXX): one message is one line.
      const line = `${JSON.stringify(message)}\n`;
      pending.push(line);
      pendingBytes += Buffer.byteLength(line);
      ends.push(written + pendingBytes);
      if (pendingBytes >= WRITE_BYTES) flush();
    },
    get count() {
      return ends.length;
    },
    messages(n, from = 0) {
      if (
        !Number.isSafeInteger(n) || !Number.isSafeInteger(from) || n < 0 || from < 0 || from + n > ends.length
      ) {
        throw new RangeError(
          `${n} spilled messages from ${from} on were asked for, but ${ends.length} were added`,
        );
      }
      refuseClosed();
      flush();
      return {
        length: n,
        *[Symbol.iterator]() {
          refuseClosed();
          const text = recordText(fd);
          for (let i = from; i < from + n; i++) yield read(text, i);
        },
      };
    },
    at(i) {
      if (!Number.isSafeInteger(i) || i < 0 || i >= ends.length) {
        throw new RangeError(`spilled message ${i} was asked for, but ${ends.length} were added`);
      }
      refuseClosed();
      flush();
      // One message alone: read as it is, not through a megabyte's window.
      return read((offset, length) => decodeRange(fd, offset, length), i);
    },
    close() {
      if (closed) return;
      closed = true;
      pending = [];
      closeSync(fd);
      // Removing it may still fail (a file the system holds open elsewhere): the conversion is not failed for a
      // temporary file left in the temporary folder.
      if (!removed) removed = removeSpill(folder, path);
    },
  };
  return spill;
}

/** Removes the spill's file and its folder: whether the system allowed it (not for an open file, on Windows). */
function removeSpill(folder: string, path: string): boolean {
  try {
    rmSync(path, { force: true });
    rmdirSync(folder);
    return true;
  } catch {
    return false;
  }
}
