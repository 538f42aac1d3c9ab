import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { BackgroundSync, SYNC_EVERY } from "../lib/io/background-sync.ts";
import { publishFile } from "../lib/io/publish.ts";
import { tempDir } from "./helpers/tmp.ts";

test("a sync started in the background is waited for by settled(), and its failure thrown there", async () => {
  const root = tempDir();
  const fd = openSync(join(root, "file"), "w");
  try {
    writeSync(fd, "x".repeat(1000));
    const sync = new BackgroundSync(fd);
    sync.written(SYNC_EVERY);
    await sync.settled();
  } finally {
    closeSync(fd);
  }
  // A FIFO takes no sync (EINVAL): the failure reaches settled(), not an unhandled error.
  const fifo = join(root, "fifo");
  assert.equal(spawnSync("mkfifo", [fifo]).status, 0);
  const pipe = openSync(fifo, "r+");
  try {
    const failing = new BackgroundSync(pipe);
    failing.written(SYNC_EVERY);
    await assert.rejects(failing.settled(), (error: NodeJS.ErrnoException) => error.code === "EINVAL");
  } finally {
    closeSync(pipe);
  }
});

test("a file published in more than one background sync's stretch holds every line, in order", async () => {
  const root = tempDir();
  const path = join(root, "long.jsonl");
  const line = JSON.stringify({ text: "y".repeat(1000) });
  const count = Math.ceil((2.5 * SYNC_EVERY) / (line.length + 1));
  async function* lines() {
    for (let i = 0; i < count; i++) yield line;
  }
  await publishFile(path, lines(), false);
  const text = readFileSync(path, "utf8");
  assert.equal(text.length, count * (line.length + 1));
  assert.ok(text.split("\n").slice(0, -1).every((l) => l === line));
});
