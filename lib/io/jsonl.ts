import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { InputError } from "../errors.ts";
import { assertRegularFile } from "./file-kind.ts";
import { nestsDeeperThan, tooDeep } from "./json.ts";
import { type Feedback, startProgress } from "./progress.ts";
import { yieldAndCheckpoint } from "./interrupt.ts";
import { ALL_EVERY, garbagePacer, YOUNG_EVERY } from "./garbage.ts";

/**
 * The longest record (one line, in bytes) a JSONL file may hold. A line is decoded and parsed whole, so memory
 * follows the longest line: beyond the limit a file is refused as bad input, naming file and line, after
 * reading no more of that line than the limit. 256 MB is far past any record a harness writes (a pasted image
 * is a few MB) and stays under the longest string a JavaScript engine can make (about 512 MB in V8).
 */
export const DEFAULT_MAX_RECORD_BYTES = 256 * 1024 * 1024;

/** The variable the CLI reads the limit from (`512M`, `1G`, `65536`): see recordLimitFrom. */
export const MAX_RECORD_VARIABLE = "SESSION_BRIDGE_MAX_RECORD";

const CHUNK_BYTES = 64 * 1024;

/**
 * How much is read between two visits to the event loop: a long read lets a Ctrl-C be seen (and stop a write
 * that holds signals) within a few milliseconds, without paying for a visit per line.
 */
const YIELD_BYTES = 4 * 1024 * 1024;

/** The limit `env` sets through SESSION_BRIDGE_MAX_RECORD (bytes, or with a K, M or G suffix), else the default. */
export function recordLimitFrom(env: NodeJS.ProcessEnv): number {
  return sizeFrom(env, MAX_RECORD_VARIABLE, DEFAULT_MAX_RECORD_BYTES, 1);
}

/**
 * From this size on a session file is converted streamed, its live thread read again for each pass instead of
 * held: a held session costs about four times its file in memory, a streamed one a small index per record,
 * paid for with two more reads of the file (about twice the CPU).
 */
export const DEFAULT_STREAM_FROM_BYTES = 128 * 1024 * 1024;

/** The variable the CLI reads the streaming size from (`0` streams every session). */
export const STREAM_FROM_VARIABLE = "SESSION_BRIDGE_STREAM_FROM";

/**
 * The limits a call reads sessions with: given by its caller (the CLI reads them from its environment once, at
 * its entry: readLimitsFrom), never set for the process, so two calls in one process each keep their own.
 */
export interface ReadLimits {
  /** The longest record allowed, in bytes. */
  maxRecordBytes: number;
  /** From this size on a session file is converted streamed. */
  streamFromBytes: number;
}

/** What a caller that gives no limits reads with. */
export const DEFAULT_READ_LIMITS: ReadLimits = Object.freeze({
  maxRecordBytes: DEFAULT_MAX_RECORD_BYTES,
  streamFromBytes: DEFAULT_STREAM_FROM_BYTES,
});

/** Both limits from `env` (each read before the other is used, so a bad one is said before any read). */
export function readLimitsFrom(env: NodeJS.ProcessEnv): ReadLimits {
  return { maxRecordBytes: recordLimitFrom(env), streamFromBytes: streamFromBytes(env) };
}

/** Whether a session file of `bytes` is converted streamed under `limits`. */
export const streams = (bytes: number, limits: ReadLimits = DEFAULT_READ_LIMITS): boolean =>
  bytes >= limits.streamFromBytes;

/** The size `env` sets through SESSION_BRIDGE_STREAM_FROM, else the default. */
export function streamFromBytes(env: NodeJS.ProcessEnv): number {
  return sizeFrom(env, STREAM_FROM_VARIABLE, DEFAULT_STREAM_FROM_BYTES, 0);
}

function sizeFrom(env: NodeJS.ProcessEnv, variable: string, fallback: number, least: number): number {
  const given = env[variable];
  if (given === undefined || given === "") return fallback;
  // Trimmed first: `\s*` on both sides of an empty unit would share a run of spaces in quadratically many ways.
  const m = /^(\d+)\s*([KMG]?)i?B?$/i.exec(given.trim());
  const bytes = m ? Number(m[1]) * 1024 ** " KMG".indexOf((m[2] || " ").toUpperCase()) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < least) {
    throw new InputError(
      `${variable}=${JSON.stringify(given)} is not a size (expected bytes, or a number with K, M or G)`,
    );
  }
  return bytes;
}

/** `268435456` as `256 MB`, for an error a person reads. */
function size(bytes: number): string {
  for (const [unit, n] of [["GB", 1024 ** 3], ["MB", 1024 ** 2], ["KB", 1024]] as const) {
    if (bytes >= n && bytes % n === 0) return `${bytes / n} ${unit}`;
  }
  return `${bytes} bytes`;
}

/** One line of a JSONL file with where it came from, so errors and byte-faithful copies can point back to it. */
export interface JsonlLine {
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte in the file. */
  offset: number;
  /** The record's length in bytes (without its line end). */
  length: number;
  value: unknown;
  /**
   * The record exactly as written, for copies that keep a record byte for byte. A long record's text is not
   * kept beside its parsed value (that would hold it in memory twice): it is read again from the file, once,
   * when asked. Call it while the line is the current one; the reader closes the file when it ends.
   */
  text(): string;
}

export interface JsonlTail {
  /** A last line without a newline that does not parse: a live writer was mid-append. */
  truncatedLine?: number;
}

export interface JsonlOptions {
  /** The longest record allowed, in bytes (default: DEFAULT_MAX_RECORD_BYTES; a call's own: ReadLimits). */
  maxRecordBytes?: number;
  /** The line to start reading at (default: the first), as an earlier read gave it. */
  start?: JsonlStart;
  /** Where the read reports how far it has got (default: nowhere). */
  feedback?: Feedback;
}

/** A line of a JSONL file to read from: its first byte's offset and its 1-based number. */
export interface JsonlStart {
  offset: number;
  line: number;
}

/** Records shorter than this keep their text for `text()`; longer ones are read again from the file. */
const KEEP_TEXT_BYTES = 64 * 1024;

/**
 * Streams a JSONL file line by line without holding it in memory. A broken interior line is an input error
 * naming file and line; a broken *last* line with no trailing newline is what a live writer leaves mid-append,
 * so it is tolerated and reported through `tail` instead. A line longer than the record limit is an input
 * error naming file and line, raised once the limit is passed: the rest of that line is never read.
 *
 * Memory follows the longest record, at about twice its size: a line longer than one chunk is measured
 * first, then read whole into bytes of exactly its length, decoded, and the bytes freed before it is parsed,
 * so at no moment are more than two copies of it alive (bytes and text, then text and value).
 */
export async function* readJsonl(
  path: string,
  tail: JsonlTail = {},
  options: JsonlOptions = {},
): AsyncGenerator<JsonlLine> {
  for await (const lines of readJsonlBatches(path, tail, options)) {
    for (const line of lines) yield line;
  }
}

/**
 * readJsonl a chunk's lines at a time (a long line alone): for a reader of hundreds of thousands of records,
 * one turn of the async iteration (its promises and functions) per chunk instead of one per record. A batch's
 * lines are current (see JsonlLine.text) until the next is asked for. A line that is refused is refused after
 * the lines before it are given, as readJsonl gives them.
 */
export async function* readJsonlBatches(
  path: string,
  tail: JsonlTail = {},
  options: JsonlOptions = {},
): AsyncGenerator<JsonlLine[]> {
  assertRegularFile(path);
  const limit = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  // One buffer, read into again and again: lines leave no trail of chunks behind for the collector.
  const fd = openSync(path, "r");
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let open = true;
  let lineNo = (options.start?.line ?? 1) - 1;
  /** File offset of the first byte not yet consumed: always the start of a line. */
  let offset = options.start?.offset ?? 0;

  const tooLong = () =>
    new InputError(
      `${path}:${lineNo + 1}: a record longer than ${
        size(limit)
      }, the limit (set ${MAX_RECORD_VARIABLE} to raise it)`,
    );
  const notText = () => new InputError(`${path}: not a text file (contains NUL bytes)`);
  const file: RecordFile = {
    reread(at, length) {
      if (!open) throw new Error(`${path}:${at}: a record's text was asked for after its file was closed`);
      return decodeRange(fd, at, length);
    },
  };
  const lineOf = (decoded: string, at: number, length: number): JsonlLine | null => {
    lineNo++;
    // slice, not replace: a record of hundreds of MB is not copied again to drop one character.
    const crlf = decoded.endsWith("\r");
    const text = crlf ? decoded.slice(0, -1) : decoded;
    const value = parseLine(path, lineNo, text);
    if (value === BLANK) return null;
    const bytes = crlf ? length - 1 : length;
    return new Line(lineNo, at, bytes, value, bytes < KEEP_TEXT_BYTES ? text : undefined, file);
  };

  const step = startProgress(options.feedback, `reading ${path}`, "bytes", fstatSync(fd).size);
  let visited = offset;
  const collect = garbagePacer(YOUNG_EVERY, ALL_EVERY);
  try {
    for (;;) {
      if (offset - visited >= YIELD_BYTES) {
        collect(offset - visited);
        visited = offset;
        step.advance(offset);
        await yieldAndCheckpoint();
      }
      const read = readSync(fd, buffer, 0, CHUNK_BYTES, offset);
      if (read === 0) return;
      const chunk = buffer.subarray(0, read);
      if (chunk.includes(0)) throw notText();
      // The chunk's whole lines are decoded at once, not line by line: one call into the decoder per chunk
      // instead of one per record. A line end is one byte and one character (no UTF-8 sequence holds 0x0A), so
      // the n-th line end of the bytes is the n-th of the text; all-ASCII text (most chunks) is the bytes.
      const last = chunk.lastIndexOf(10);
      const text = last === -1 ? "" : chunk.toString("utf8", 0, last + 1);
      const ascii = text.length === last + 1;
      let start = 0;
      const batch: JsonlLine[] = [];
      try {
        for (let newline, at = 0, end; start <= last; start = newline + 1, at = end + 1) {
          newline = ascii ? text.indexOf("\n", start) : chunk.indexOf(10, start);
          end = ascii ? newline : text.indexOf("\n", at);
          if (newline - start > limit) throw tooLong();
          const line = lineOf(text.slice(at, end), offset + start, newline - start);
          if (line) batch.push(line);
        }
      } catch (refused) {
        if (batch.length) yield batch;
        throw refused;
      }
      if (batch.length) yield batch;
      // The unfinished line at the chunk's end is read again from its start with the next chunk.
      offset += start;
      if (start > 0) continue;
      // No line end in a whole chunk: a long line, or the last one. Measured first (its bytes are not kept),
      // then read whole.
      const measured = measureLine(fd, buffer, offset, read, limit);
      if (measured === "too-long") throw tooLong();
      if (measured === "not-text") throw notText();
      const decoded = decodeRange(fd, offset, measured.bytes);
      if (!measured.ended) {
        // A last line without a line end that does not parse: a live writer was mid-append.
        try {
          const line = lineOf(decoded, offset, measured.bytes);
          if (line) yield [line];
        } catch {
          tail.truncatedLine = lineNo;
        }
        return;
      }
      const line = lineOf(decoded, offset, measured.bytes);
      offset += measured.bytes + 1;
      if (line) yield [line];
    }
  } finally {
    // Refused mid-line, or the caller stopped early: the file is closed now, not when collected.
    step.finish();
    open = false;
    closeSync(fd);
  }
}

/**
 * The length in bytes of the line starting at `offset`, of which the first `known` bytes (holding no line end)
 * are already seen, and whether a line end closes it (else the file ends first). Reads no more than `limit`
 * bytes of it.
 */
function measureLine(
  fd: number,
  buffer: Buffer,
  offset: number,
  known: number,
  limit: number,
): { bytes: number; ended: boolean } | "too-long" | "not-text" {
  let bytes = known;
  for (;;) {
    if (bytes > limit) return "too-long";
    const read = readSync(fd, buffer, 0, CHUNK_BYTES, offset + bytes);
    if (read === 0) return { bytes, ended: false };
    const chunk = buffer.subarray(0, read);
    if (chunk.includes(0)) return "not-text";
    const newline = chunk.indexOf(10);
    if (newline !== -1) return bytes + newline > limit ? "too-long" : { bytes: bytes + newline, ended: true };
    bytes += read;
  }
}

/**
 * `length` bytes at `offset`, decoded. The bytes are released as soon as they are decoded (their buffer is
 * detached, not left for the collector), so a long record is never held as bytes and text and parsed value
 * at once.
 */
/** The text of `length` bytes at `offset` of the open file `fd`, read alone. */
export function decodeRange(fd: number, offset: number, length: number): string {
  const bytes = new ArrayBuffer(length);
  const view = Buffer.from(bytes);
  for (let at = 0; at < length;) {
    const read = readSync(fd, view, at, length - at, offset + at);
    if (read === 0) throw new Error(`the file ended while reading ${length} bytes at offset ${offset}`);
    at += read;
  }
  const text = view.toString("utf8");
  (bytes as ArrayBuffer & { transfer(length: number): ArrayBuffer }).transfer(0);
  return text;
}

/** What parseLine gives for a line of whitespace alone, which holds no record. */
const BLANK = Symbol("blank line");

function parseLine(path: string, line: number, text: string): unknown {
  if (!/\S/.test(text)) return BLANK;
  if (nestsDeeperThan(text)) throw new InputError(`${path}:${line}: ${tooDeep}`);
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError(`${path}:${line}: not valid JSON`);
  }
}

/** The open file a line's long text is read again from. */
interface RecordFile {
  reread(offset: number, length: number): string;
}

/** A line read: its short text kept, a long one read again from its file when asked (see JsonlLine.text). */
class Line implements JsonlLine {
  constructor(
    readonly line: number,
    readonly offset: number,
    readonly length: number,
    readonly value: unknown,
    private readonly kept: string | undefined,
    private readonly file: RecordFile,
  ) {}

  text(): string {
    return this.kept ?? this.file.reread(this.offset, this.length);
  }
}

/** Records of a file read by their place (see openRecords). */
export interface RecordReader {
  /** The record at `offset`, `length` bytes long, parsed. */
  at(offset: number, length: number): unknown;
  /**
   * After a few megabytes: a visit to the event loop (a Ctrl-C is seen there) that the caller awaits; else
   * nothing to wait for.
   */
  pause(): Promise<void> | undefined;
  close(): void;
}

/** How much of a file a record reader reads at once: records asked for in file order come from one read. */
const WINDOW_BYTES = 1024 * 1024;

/**
 * The text of the records of the open file `fd`, each by its place (offset and length in bytes), read a window
 * at a time: records asked for in file order cost one read per megabyte, not one per record, and a record
 * longer than the window is read alone, so a pass holds the window and the record in hand. The garbage a long
 * pass leaves is collected as it goes (garbage.ts).
 */
export function recordText(fd: number): (offset: number, length: number) => string {
  const window = Buffer.allocUnsafe(WINDOW_BYTES);
  let start = 0;
  let end = 0;
  const collect = garbagePacer(YOUNG_EVERY, ALL_EVERY);
  return (offset, length) => {
    collect(length);
    if (length > WINDOW_BYTES) return decodeRange(fd, offset, length);
    if (offset < start || offset + length > end) {
      start = offset;
      end = offset + readSync(fd, window, 0, WINDOW_BYTES, offset);
      if (offset + length > end) {
        throw new Error(`the file ended while reading ${length} bytes at offset ${offset}`);
      }
    }
    return window.toString("utf8", offset - start, offset - start + length);
  };
}

/**
 * Records of a JSONL file read again by their place (offset and length, as `readJsonl` gave them), each parsed
 * on its own: what a streamed session reads its thread from. Records are read a window at a time, so a pass in
 * file order costs one read per megabyte, not one per record; a record longer than the window is read alone.
 * Close it when the pass ends.
 */
export function openRecords(path: string, feedback?: Feedback): RecordReader {
  const fd = openSync(path, "r");
  const step = startProgress(feedback, `reading ${path}`, "bytes", fstatSync(fd).size);
  let sinceVisit = 0;
  let reached = 0;
  const text = recordText(fd);
  return {
    at(offset, length) {
      reached = offset + length;
      sinceVisit += length;
      try {
        return JSON.parse(text(offset, length));
      } catch {
        throw new InputError(
          `${path}: the record at byte ${offset} is no longer valid JSON (the file changed)`,
        );
      }
    },
    pause() {
      if (sinceVisit < YIELD_BYTES) return undefined;
      sinceVisit = 0;
      step.advance(reached);
      return yieldAndCheckpoint();
    },
    close() {
      step.finish();
      closeSync(fd);
    },
  };
}
