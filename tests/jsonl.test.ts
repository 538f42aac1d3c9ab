import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { DEFAULT_MAX_RECORD_BYTES, readJsonl, readJsonlBatches, recordLimitFrom } from "../lib/io/jsonl.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { runCli } from "./helpers/cli.ts";
import { InputError } from "../lib/errors.ts";
import { tempDir } from "./helpers/tmp.ts";
import { scriptArgv } from "../lib/runtime.ts";
import { run } from "../lib/cli/main.ts";
import { outputTo } from "../lib/cli/output.ts";

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
  assert.deepEqual(lines.map((l) => [l.line, l.offset, l.text()]), [[1, 0, '{"a":1}'], [2, 8, '{"b":"é"}'], [
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

test("lines read in batches are the lines read one by one, multi-byte text and CRLF included", async () => {
  const path = join(dir, "batches.jsonl");
  const records = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ i, s: "é日😀".repeat(i % 7) }));
  writeFileSync(path, records.map((r, i) => (i % 5 ? r : `${r}\r`)).join("\n") + "\n");
  const batched = [];
  for await (const batch of readJsonlBatches(path)) batched.push(...batch);
  const shown = (
    l: { line: number; offset: number; length: number; value: unknown },
  ) => [l.line, l.offset, l.length, l.value];
  assert.deepEqual(batched.map(shown), (await collect(path)).map(shown));
  assert.deepEqual(batched.map((l) => l.text()), records);
  assert.equal(batched.at(-1)!.offset + batched.at(-1)!.length + 1, readFileSync(path).length);
});

test("a broken line read in batches is refused after the lines before it are given", async () => {
  const path = join(dir, "broken-batch.jsonl");
  writeFileSync(path, '{"a":1}\n{"b":2}\nnot json\n{"c":3}\n');
  const given: unknown[] = [];
  await assert.rejects(
    (async () => {
      for await (const batch of readJsonlBatches(path)) for (const l of batch) given.push(l.value);
    })(),
    (e: Error) => e instanceof InputError && e.message === `${path}:3: not valid JSON`,
  );
  assert.deepEqual(given, [{ a: 1 }, { b: 2 }]);
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

test("a record longer than the limit is bad input naming file and line; one at the limit is read", async () => {
  const path = join(dir, "long.jsonl");
  const record = (bytes: number) => JSON.stringify({ s: "x".repeat(bytes - 8) });
  assert.equal(record(1024).length, 1024);
  // The long line spans several of the stream's 64 KB chunks.
  writeFileSync(path, `${record(1024)}\n${record(200_000)}\n{"c":3}\n`);
  const read: number[] = [];
  await assert.rejects(
    (async () => {
      for await (const l of readJsonl(path, {}, { maxRecordBytes: 1024 })) read.push(l.line);
    })(),
    (e: Error) =>
      e instanceof InputError &&
      e.message ===
        `${path}:2: a record longer than 1 KB, the limit (set SESSION_BRIDGE_MAX_RECORD to raise it)`,
  );
  assert.deepEqual(read, [1]);
  const unfinished = join(dir, "long-last.jsonl");
  writeFileSync(unfinished, `{"a":1}\n${record(200_000).slice(0, -2)}`);
  await assert.rejects(
    (async () => {
      for await (const _ of readJsonl(unfinished, {}, { maxRecordBytes: 100_000 })) continue;
    })(),
    new RegExp(`^InputError: ${unfinished.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2: a record longer than`),
  );
});

test("a record of multi-byte characters split across read chunks is decoded whole", async () => {
  const path = join(dir, "wide.jsonl");
  const wide = "é€😀".repeat(40_000);
  writeFileSync(path, `${JSON.stringify({ s: wide })}\r\n{"b":2}\n`);
  const lines = await collect(path);
  assert.equal((lines[0]!.value as { s: string }).s, wide);
  assert.equal(lines[1]!.offset, Buffer.byteLength(JSON.stringify({ s: wide })) + 2);
});

test("the record limit comes from SESSION_BRIDGE_MAX_RECORD: a longer line is refused (exit 2) naming file and line", async () => {
  const path = join(dir, "session.jsonl");
  const first = readFileSync(claudeFixture("interactive"), "utf8").split("\n")[0]!;
  writeFileSync(path, `${first}\n${JSON.stringify({ type: "user", text: "y".repeat(5000) })}\n`);
  const r = await runCli(["inspect", path], { SESSION_BRIDGE_MAX_RECORD: "4K" });
  assert.equal(r.code, 2, r.stderr);
  assert.deepEqual(r.stderr.trim().split("\n"), [
    `session-bridge: ${path}:2: a record longer than 4 KB, the limit (set SESSION_BRIDGE_MAX_RECORD to raise it)`,
  ]);
  assert.notEqual((await runCli(["inspect", path], { SESSION_BRIDGE_MAX_RECORD: "8K" })).code, 2);
  const bad = await runCli(["inspect", path], { SESSION_BRIDGE_MAX_RECORD: "lots" });
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^session-bridge: SESSION_BRIDGE_MAX_RECORD="lots" is not a size/);
  assert.equal((await collect(path)).length, 2, "a run's limit does not outlast the run");
});

test("two in-process CLI runs at once each read with their own record limit", async () => {
  const path = join(dir, "both.jsonl");
  const first = readFileSync(claudeFixture("interactive"), "utf8").split("\n")[0]!;
  writeFileSync(path, `${first}\n${JSON.stringify({ type: "user", text: "y".repeat(5000) })}\n`);
  const env = { HOME: dir, SESSION_BRIDGE_HOME: join(dir, "bridge") };
  // Their output is not looked at: each run's exit code says which limit it read with.
  const output = outputTo(() => {});
  const [tight, roomy] = await Promise.all([
    run(["inspect", path], { ...env, SESSION_BRIDGE_MAX_RECORD: "4K" }, { output }),
    run(["inspect", path], env, { output }),
  ]);
  assert.equal(tight, 2);
  assert.equal(roomy, 0);
});

test("the record limit defaults to 256 MB and reads sizes in bytes, K, M or G", () => {
  assert.equal(DEFAULT_MAX_RECORD_BYTES, 256 * 1024 * 1024);
  assert.equal(recordLimitFrom({}), DEFAULT_MAX_RECORD_BYTES);
  assert.equal(recordLimitFrom({ SESSION_BRIDGE_MAX_RECORD: "65536" }), 65536);
  assert.equal(recordLimitFrom({ SESSION_BRIDGE_MAX_RECORD: "512M" }), 512 * 1024 * 1024);
  assert.equal(recordLimitFrom({ SESSION_BRIDGE_MAX_RECORD: "1g" }), 1024 ** 3);
  for (const bad of ["0", "-1", "1T", "1.5M"]) {
    assert.throws(() => recordLimitFrom({ SESSION_BRIDGE_MAX_RECORD: bad }), InputError);
  }
});

test("a long record's text is read again from the file exactly as written, CRLF and split characters included", async () => {
  const path = join(dir, "long-text.jsonl");
  const first = JSON.stringify({ s: "é€😀".repeat(30_000) });
  const second = JSON.stringify({ t: "y".repeat(70_000) });
  writeFileSync(path, `${first}\r\n{"short":1}\n${second}`);
  const texts: string[] = [];
  for await (const l of readJsonl(path)) texts.push(l.text());
  assert.deepEqual(texts, [first, '{"short":1}', second]);
});

test("reading a record at the record limit peaks at about twice its size, not three times", () => {
  // The same session twice, with a 24 MB record and with an empty one, each read in a fresh process under a
  // limit equal to its record: the difference in peak memory is what the record cost, about 2x its size
  // (bytes then text, text then value: never bytes, text and value at once, nor text kept beside value).
  // It was 3.2x.
  const peakReading = (content: string) => {
    const path = join(dir, `at-limit-${content.length}.jsonl`);
    const record = JSON.stringify({
      type: "user",
      uuid: "00000000-0000-4000-8000-000000000001",
      parentUuid: null,
      sessionId: "00000000-0000-4000-8000-000000000000",
      cwd: "/work",
      timestamp: "2026-01-01T00:00:00.000Z",
      message: { role: "user", content },
    });
    writeFileSync(path, `${record}\n`);
    const [command, ...args] = scriptArgv(join(import.meta.dirname!, "helpers/record-memory-probe.ts"));
    const result = spawnSync(command!, [...args, path], {
      encoding: "utf8",
      env: { ...process.env, SESSION_BRIDGE_MAX_RECORD: String(Buffer.byteLength(record)) },
    });
    assert.equal(result.status, 0, result.stderr);
    const { messages, peak } = JSON.parse(result.stdout) as { messages: number; peak: number };
    assert.equal(messages, 1);
    return peak;
  };
  const size = 24 * 1024 * 1024;
  const ratio = (peakReading("x".repeat(size)) - peakReading("")) / size;
  assert.ok(ratio < 2.5, `reading the record took ${ratio.toFixed(2)}x its size at the peak`);
});
