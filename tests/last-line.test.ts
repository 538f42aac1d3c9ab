/**
 * Reading a file backwards for its last line that says something (lib/io/last-line.ts), the way listings find a
 * session's last message: the same line whatever the windows' sizes, a line longer than the longest taken passed
 * over without being held, and nothing opened that is not a regular file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { lastLineWhere } from "../lib/io/last-line.ts";
import { tempDir } from "./helpers/tmp.ts";

function file(text: string): string {
  const path = join(tempDir(), "lines.jsonl");
  writeFileSync(path, text);
  return path;
}

/** Lines not starting with "y", as text. */
const notY = (line: Buffer) => (line[0] === 0x79 ? undefined : line.toString("utf8"));

test("the last line a reader accepts is found whatever the windows' sizes, blank lines and CRLF passed over", () => {
  const path = file(`first\nkeep me\r\n\n  \n${"y".repeat(200)}\n${"y".repeat(7)}`);
  for (let firstWindow = 1; firstWindow <= 300; firstWindow++) {
    const found = lastLineWhere(path, notY, { firstWindow, largestWindow: 64 });
    assert.equal(found.value, "keep me\r", `first window ${firstWindow}`);
  }
  assert.equal(lastLineWhere(file("only line"), notY).value, "only line");
  assert.equal(lastLineWhere(file("y1\ny2\n"), notY).value, undefined);
});

test("a line longer than the longest taken is passed over unread by the reader, the lines before it still found", () => {
  const path = file(`a\nkeep me\n${"z".repeat(5000)}`);
  const seen: number[] = [];
  const longest = (line: Buffer) => {
    seen.push(line.length);
    return line.toString("utf8");
  };
  for (const firstWindow of [1, 7, 16, 100, 6000]) {
    seen.length = 0;
    const found = lastLineWhere(path, longest, { firstWindow, maxLineBytes: 1000 });
    if (firstWindow === 6000) {
      // Read in one window, the long line is whole at once: it is the reader's to refuse.
      assert.equal(found.value, "z".repeat(5000));
      continue;
    }
    assert.equal(found.value, "keep me", `first window ${firstWindow}`);
    assert.deepEqual(seen, [7], "the long line never reached the reader");
  }
});

test("a FIFO or a folder where a session file would be is no line, never opened", () => {
  const dir = tempDir();
  const fifo = join(dir, "fifo.jsonl");
  execFileSync("mkfifo", [fifo]);
  mkdirSync(join(dir, "folder.jsonl"));
  for (const path of [fifo, join(dir, "folder.jsonl"), join(dir, "absent.jsonl")]) {
    assert.deepEqual(lastLineWhere(path, notY), { value: undefined, bytesRead: 0 });
  }
});
