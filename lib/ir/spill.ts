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

/**
 * Records (JSON values: messages, or any list too long to hold) written to a temporary file as they are added,
 * read back in order (see the module's comment).
 */
export interface RecordSpill<T> {
  /** Appends one record (serialized as one JSON line). */
  add(record: T): void;
  /** How many were added. */
  readonly count: number;
  /**
   * `count` records from the `from`th on (the first, by default): each iteration reads them again from the
   * file, in order, holding a window of about a megabyte and the record in hand (a record longer than the
   * window is read whole, alone). Of messages, a ThreadMessages.
   */
  records(count: number, from?: number): Iterable<T> & { readonly length: number };
  /** Record `i` alone, read from the file. */
  at(i: number): T;
  /** Closes the file (iterating after that throws). Idempotent. */
  close(): void;
}

/** Messages spilled: a thread kept in a file. */
export type MessageSpill = RecordSpill<Message>;

/** A spill of messages to a new temporary file in `dir` (see spillRecords). */
export const spillMessages = (dir?: string): MessageSpill => spillRecords<Message>(dir);

/** How much text is gathered before one write: a write per record would be a system call per record. */
const WRITE_BYTES = 1024 * 1024;

/** A spill to a new temporary file in `dir` (default: the system's temporary folder). */
export function spillRecords<T>(dir: string = tmpdir()): RecordSpill<T> {
  // A folder of its own, made only for this user, so the file's name is one nobody else can have taken.
  const folder = mkdtempSync(join(dir, "session-bridge-spill-"));
  const path = join(folder, "records.jsonl");
  const where = `${path} (a temporary file of records spilled from memory)`;
  let fd: number;
  try {
    fd = openSync(path, "wx+", 0o600);
  } catch (error) {
    rmdirSync(folder);
    throw error;
  }
  // Where the system refuses to remove an open file (Windows), it is removed when closed.
  let removed = removeSpill(folder, path);
  /** Each record's end in the file, in bytes (after its line end): eight bytes a record, not an object. */
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
    if (closed) throw new Error(`${where}: the spilled records were read after the spill was closed`);
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

  /** Record `i`, its text read by `text`. */
  const read = (text: (offset: number, length: number) => string, i: number): T => {
    // Checked before every read: once closed, the descriptor's number may be another file's.
    refuseClosed();
    const start = i ? ends.get(i - 1) : 0;
    try {
      return JSON.parse(text(start, ends.get(i) - start - 1)) as T;
    } catch (error) {
      throw failure(error);
    }
  };

  const spill: RecordSpill<T> = {
    add(record) {
      refuseClosed();
      // JSON.stringify escapes every line end (and a lone surrogate as \udXXX): one record is one line.
      const line = `${JSON.stringify(record)}\n`;
      pending.push(line);
      pendingBytes += Buffer.byteLength(line);
      ends.push(written + pendingBytes);
      if (pendingBytes >= WRITE_BYTES) flush();
    },
    get count() {
      return ends.length;
    },
    records(n, from = 0) {
      if (
        !Number.isSafeInteger(n) || !Number.isSafeInteger(from) || n < 0 || from < 0 || from + n > ends.length
      ) {
        throw new RangeError(
          `${n} spilled records from ${from} were asked for, but ${ends.length} were added`,
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
        throw new RangeError(`spilled record ${i} was asked for, but ${ends.length} were added`);
      }
      refuseClosed();
      flush();
      // One record alone: read as it is, not through a megabyte's window.
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
