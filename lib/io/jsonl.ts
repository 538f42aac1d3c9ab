import { createReadStream } from "node:fs";
import { InputError } from "../errors.ts";
import { assertRegularFile } from "./file-kind.ts";

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

/**
 * Streams a JSONL file line by line without holding it in memory. A broken interior line is an input error
 * naming file and line; a broken *last* line with no trailing newline is what a live writer leaves mid-append,
 * so it is tolerated and reported through `tail` instead.
 */
export async function* readJsonl(path: string, tail: JsonlTail = {}): AsyncGenerator<JsonlLine> {
  assertRegularFile(path);
  const stream = createReadStream(path);
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let offset = 0;
  let lineNo = 0;
  let sawNul = false;

  const take = (chunk: Buffer, end: number): Buffer => {
    const head = chunk.subarray(0, end);
    const whole = pending.length ? Buffer.concat([...pending, head]) : head;
    pending = [];
    pendingBytes = 0;
    return whole;
  };

  for await (const raw of stream) {
    let chunk = raw as Buffer;
    if (!sawNul && chunk.includes(0)) sawNul = true;
    if (sawNul) throw new InputError(`${path}: not a text file (contains NUL bytes)`);
    let newline: number;
    while ((newline = chunk.indexOf(10)) !== -1) {
      const bytes = take(chunk, newline);
      chunk = chunk.subarray(newline + 1);
      lineNo++;
      const parsed = parseLine(path, lineNo, offset, bytes);
      offset += bytes.length + 1;
      if (parsed) yield parsed;
    }
    if (chunk.length) {
      pending.push(Buffer.from(chunk));
      pendingBytes += chunk.length;
    }
  }
  if (pendingBytes) {
    lineNo++;
    const bytes = take(Buffer.alloc(0), 0);
    try {
      const parsed = parseLine(path, lineNo, offset, bytes);
      if (parsed) yield parsed;
    } catch {
      tail.truncatedLine = lineNo;
    }
  }
}

function parseLine(path: string, line: number, offset: number, bytes: Buffer): JsonlLine | null {
  const text = bytes.toString("utf8").replace(/\r$/, "");
  if (!text.trim()) return null;
  try {
    return { line, offset, text, value: JSON.parse(text) };
  } catch {
    throw new InputError(`${path}:${line}: not valid JSON`);
  }
}
