import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { InputError } from "../errors.ts";
import { assertRegularFile } from "./file-kind.ts";
import { nestsDeeperThan, tooDeep } from "./json.ts";

/**
 * The longest record (one line, in bytes) a JSONL file may hold. A line is decoded and parsed whole, so memory
 * follows the longest line: beyond the limit a file is refused as bad input, naming file and line, after
 * reading no more of that line than the limit. 256 MB is far past any record a harness writes (a pasted image
 * is a few MB) and stays under the longest string a JavaScript engine can make (about 512 MB in V8).
 */
export const DEFAULT_MAX_RECORD_BYTES = 256 * 1024 * 1024;

/** The variable the CLI reads the limit from (`512M`, `1G`, `65536`): see recordLimitFrom. */
export const MAX_RECORD_VARIABLE = "SESSION_BRIDGE_MAX_RECORD";

let maxRecordBytes = DEFAULT_MAX_RECORD_BYTES;

const CHUNK_BYTES = 64 * 1024;

/**
 * Sets the limit every later read in this process applies (the CLI, from its environment, at the edge) and
 * returns the previous one, so a caller can put it back.
 */
export function setMaxRecordBytes(bytes: number): number {
  const previous = maxRecordBytes;
  maxRecordBytes = bytes;
  return previous;
}

/** The limit `env` sets through SESSION_BRIDGE_MAX_RECORD (bytes, or with a K, M or G suffix), else the default. */
export function recordLimitFrom(env: NodeJS.ProcessEnv): number {
  const given = env[MAX_RECORD_VARIABLE];
  if (given === undefined || given === "") return DEFAULT_MAX_RECORD_BYTES;
  const m = /^\s*(\d+)\s*([KMG]?)i?B?\s*$/i.exec(given);
  const bytes = m ? Number(m[1]) * 1024 ** " KMG".indexOf((m[2] || " ").toUpperCase()) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes <= 0) {
    throw new InputError(
      `${MAX_RECORD_VARIABLE}=${
        JSON.stringify(given)
      } is not a size (expected bytes, or a number with K, M or G)`,
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
  text: string;
  value: unknown;
}

export interface JsonlTail {
  /** A last line without a newline that does not parse: a live writer was mid-append. */
  truncatedLine?: number;
}

export interface JsonlLimits {
  /** The longest record allowed, in bytes (default: the process's, DEFAULT_MAX_RECORD_BYTES unless set). */
  maxRecordBytes?: number;
}

/**
 * Streams a JSONL file line by line without holding it in memory. A broken interior line is an input error
 * naming file and line; a broken *last* line with no trailing newline is what a live writer leaves mid-append,
 * so it is tolerated and reported through `tail` instead. A line longer than the record limit is an input
 * error naming file and line, raised once the limit is passed: the rest of that line is never read.
 */
export async function* readJsonl(
  path: string,
  tail: JsonlTail = {},
  limits: JsonlLimits = {},
): AsyncGenerator<JsonlLine> {
  assertRegularFile(path);
  const limit = limits.maxRecordBytes ?? maxRecordBytes;
  // One buffer, read into again and again: a long line leaves no trail of chunks behind for the collector.
  const fd = openSync(path, "r");
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  // The line so far is kept decoded (the decoder holds a character split across chunks), so a record is in
  // memory once as text pieces and once joined, never also as bytes: about twice the limit at most.
  const decoder = new StringDecoder("utf8");
  let pieces: string[] = [];
  let lineBytes = 0;
  let offset = 0;
  let lineNo = 0;

  const tooLong = () =>
    new InputError(
      `${path}:${lineNo + 1}: a record longer than ${
        size(limit)
      }, the limit (set ${MAX_RECORD_VARIABLE} to raise it)`,
    );
  const take = (): string => {
    const text = pieces.join("") + decoder.end();
    pieces = [];
    return text;
  };

  try {
    for (let read; (read = readSync(fd, buffer, 0, CHUNK_BYTES, null)) > 0;) {
      let chunk = buffer.subarray(0, read);
      if (chunk.includes(0)) throw new InputError(`${path}: not a text file (contains NUL bytes)`);
      let newline: number;
      while ((newline = chunk.indexOf(10)) !== -1) {
        if (lineBytes + newline > limit) throw tooLong();
        pieces.push(decoder.write(chunk.subarray(0, newline)));
        const bytes = lineBytes + newline;
        chunk = chunk.subarray(newline + 1);
        lineNo++;
        const parsed = parseLine(path, lineNo, offset, take());
        offset += bytes + 1;
        lineBytes = 0;
        if (parsed) yield parsed;
      }
      if (chunk.length) {
        if (lineBytes + chunk.length > limit) throw tooLong();
        pieces.push(decoder.write(chunk));
        lineBytes += chunk.length;
      }
    }
  } finally {
    // Refused mid-line, or the caller stopped early: the file is closed now, not when collected.
    closeSync(fd);
  }
  if (lineBytes) {
    lineNo++;
    try {
      const parsed = parseLine(path, lineNo, offset, take());
      if (parsed) yield parsed;
    } catch {
      tail.truncatedLine = lineNo;
    }
  }
}

function parseLine(path: string, line: number, offset: number, decoded: string): JsonlLine | null {
  // slice, not replace: a record of hundreds of MB is not copied again to drop one character.
  const text = decoded.endsWith("\r") ? decoded.slice(0, -1) : decoded;
  if (!/\S/.test(text)) return null;
  if (nestsDeeperThan(text)) throw new InputError(`${path}:${line}: ${tooDeep}`);
  try {
    return { line, offset, text, value: JSON.parse(text) };
  } catch {
    throw new InputError(`${path}:${line}: not valid JSON`);
  }
}
