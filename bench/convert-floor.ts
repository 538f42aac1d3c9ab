/**
 * The floor under a conversion: what Bun alone takes to read a JSONL session line by line, parse every record,
 * stringify it again and write the lines to a file that is synced, with nothing converted (the issue's "reading,
 * parsing every line, stringifying, writing"). Run by the bench in its own process, with the JavaScriptCore
 * options the binary converts with (lib/runtime.ts LONG_WORK_OPTIONS), so its CPU is comparable to ours and
 * to the reference's. Run as a program: `bun bench/convert-floor.ts <session.jsonl> <out.jsonl>`.
 * Its two halves (eachLine, LineSink) are the pair floors' too (bench/pair-floor.ts).
 */
import { closeSync, fsyncSync, openSync, readSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

const CHUNK = 1 << 20;

/** Calls `each` with every non-empty line of `path`, read in chunks; returns how many. */
export function eachLine(path: string, each: (line: string) => void): number {
  const input = openSync(path, "r");
  const buffer = Buffer.allocUnsafe(CHUNK);
  let lines = 0;
  let carry = "";
  // A chunk may end inside a character: the decoder keeps its first bytes for the next one.
  const decoder = new StringDecoder("utf8");
  try {
    for (let read; (read = readSync(input, buffer, 0, CHUNK, null)) > 0;) {
      const text = carry + decoder.write(buffer.subarray(0, read));
      const parts = text.split("\n");
      carry = parts.pop()!;
      for (const part of parts) {
        if (!part) continue;
        each(part);
        lines++;
      }
    }
    if (carry) {
      each(carry);
      lines++;
    }
    return lines;
  } finally {
    closeSync(input);
  }
}

/** Lines written to a file through one buffer, synced when closed. */
export class LineSink {
  readonly #output: number;
  readonly #sink = Buffer.allocUnsafe(CHUNK * 4);
  #used = 0;

  constructor(path: string) {
    this.#output = openSync(path, "w");
  }

  write(line: string): void {
    if (3 * line.length + 1 > this.#sink.length - this.#used) {
      writeSync(this.#output, this.#sink, 0, this.#used);
      this.#used = 0;
    }
    if (3 * line.length + 1 > this.#sink.length) {
      writeSync(this.#output, `${line}\n`);
      return;
    }
    this.#used += this.#sink.write(line, this.#used);
    this.#sink[this.#used++] = 0x0a;
  }

  close(): void {
    try {
      writeSync(this.#output, this.#sink, 0, this.#used);
      fsyncSync(this.#output);
    } finally {
      closeSync(this.#output);
    }
  }
}

/** Every line of `path` parsed and stringified again into `out`; returns how many lines. */
export function floorCopy(path: string, out: string): number {
  const sink = new LineSink(out);
  try {
    return eachLine(path, (line) => sink.write(JSON.stringify(JSON.parse(line))));
  } finally {
    sink.close();
  }
}

if (import.meta.main) {
  const [path, out] = process.argv.slice(2);
  console.log(JSON.stringify({ lines: floorCopy(path!, out!) }));
}
