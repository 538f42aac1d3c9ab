import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { readJsonl } from "../lib/io/jsonl.ts";
import { InputError } from "../lib/errors.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir();

async function collect(path: string, tail = {}) {
  const out = [];
  for await (const l of readJsonl(path, tail)) out.push(l);
  return out;
}

test("streams lines with their byte offsets", async () => {
  const path = join(dir, "a.jsonl");
  writeFileSync(path, '{"a":1}\n{"b":"é"}\n\n{"c":3}\n');
  const lines = await collect(path);
  assert.deepEqual(lines.map((l) => [l.line, l.offset, l.text]), [[1, 0, '{"a":1}'], [2, 8, '{"b":"é"}'], [
    4,
    20,
    '{"c":3}',
  ]]);
});

test("a truncated last line from a live writer is tolerated and reported", async () => {
  const path = join(dir, "live.jsonl");
  writeFileSync(path, '{"a":1}\n{"b":');
  const tail: { truncatedLine?: number } = {};
  const lines = await collect(path, tail);
  assert.equal(lines.length, 1);
  assert.equal(tail.truncatedLine, 2);
});

test("a broken interior line is an input error naming file and line", async () => {
  const path = join(dir, "broken.jsonl");
  writeFileSync(path, '{"a":1}\nnot json\n{"c":3}\n');
  await assert.rejects(
    collect(path),
    (e: Error) => e instanceof InputError && e.message === `${path}:2: not valid JSON`,
  );
});

test("a binary file is refused as not text", async () => {
  const path = join(dir, "bin.jsonl");
  writeFileSync(path, Buffer.from([0x7b, 0x00, 0x01, 0x02, 0x0a]));
  await assert.rejects(collect(path), /not a text file/);
});

test("lines longer than one read chunk are reassembled", async () => {
  const path = join(dir, "long.jsonl");
  const big = "x".repeat(300_000);
  writeFileSync(path, `{"big":"${big}"}\n{"n":2}\n`);
  const lines = await collect(path);
  assert.equal((lines[0]!.value as { big: string }).big.length, 300_000);
  assert.equal(lines[1]!.offset, big.length + 11);
});
