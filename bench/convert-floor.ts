/**
 * The floor under a conversion: what Bun alone takes to read a JSONL session line by line, parse every record,
 * stringify it again and write the lines to a file that is synced, with nothing converted (the "reading,
 * parsing every line, stringifying, writing"). Run by the bench in its own process, with the JavaScriptCore
 * options the binary converts with (lib/runtime.ts LONG_WORK_OPTIONS), so its CPU is comparable to ours and
 * to the reference's. Run as a program: `bun bench/convert-floor.ts <session.jsonl> <out.jsonl>`.
 */
import { closeSync, fsyncSync, openSync, readSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

const CHUNK = 1 << 20;

/** Every line of `path` parsed and stringified again into `out`; returns how many lines. */
export function floorCopy(path: string, out: string): number {
  const input = openSync(path, "r");
  const output = openSync(out, "w");
  const buffer = Buffer.allocUnsafe(CHUNK);
  const sink = Buffer.allocUnsafe(CHUNK * 4);
  let used = 0;
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
        const line = JSON.stringify(JSON.parse(part));
        if (3 * line.length + 1 > sink.length - used) {
          writeSync(output, sink, 0, used);
          used = 0;
        }
        if (3 * line.length + 1 > sink.length) {
          writeSync(output, `${line}\n`);
          lines++;
          continue;
        }
        used += sink.write(line, used);
        sink[used++] = 0x0a;
        lines++;
      }
    }
    if (carry) throw new Error(`${path}: a last line without a line end`);
    writeSync(output, sink, 0, used);
    fsyncSync(output);
    return lines;
  } finally {
    closeSync(input);
    closeSync(output);
  }
}

if (import.meta.main) {
  const [path, out] = process.argv.slice(2);
  console.log(JSON.stringify({ lines: floorCopy(path!, out!) }));
}
