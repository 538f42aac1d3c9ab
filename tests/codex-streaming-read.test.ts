/**
 * A large Codex rollout is converted streamed (lib/harnesses/codex/read.ts `openCodexSession`): indexed once,
 * its live thread (what follows the last compaction) read again from the file on each pass. What it gives must
 * be the very session the held reader gives, on every rollout the real Codex wrote, and a file that changes
 * under a pass is bad input naming the file, never a wrong session.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openCodexSession, readCodexSession } from "../lib/harnesses/codex/read.ts";
import { holdSession } from "../lib/ir/stream.ts";
import { setStreamFromBytes } from "../lib/io/jsonl.ts";
import { InputError } from "../lib/errors.ts";
import { codexFixture } from "./helpers/codex.ts";
import { tempDir } from "./helpers/tmp.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/codex", import.meta.url));

/** Every rollout the real Codex wrote (its captured model requests are not rollouts). */
function rollouts(dir = FIXTURES): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return rollouts(path);
    return name.endsWith(".jsonl") && !name.endsWith(".requests.jsonl") ? [path] : [];
  });
}

/** Runs `body` with every session streamed, whatever its size. */
async function streamingAll<T>(body: () => Promise<T>): Promise<T> {
  const previous = setStreamFromBytes(0);
  try {
    return await body();
  } finally {
    setStreamFromBytes(previous);
  }
}

test("a streamed Codex session is the held session, on every rollout the real harness wrote", async () => {
  const paths = rollouts();
  assert.ok(paths.length >= 30, `only ${paths.length} rollouts found`);
  let compacted = 0;
  for (const path of paths) {
    const held = await readCodexSession(path);
    if (held.threads.some((t) => t.kind === "compacted")) compacted++;
    const opened = await streamingAll(() => openCodexSession(path));
    assert.ok(!Array.isArray(opened.messages), `${path}: not streamed`);
    // Each pass reads the thread again, and gives it whole again.
    assert.deepEqual(await holdSession(opened), held, path);
    assert.deepEqual(await holdSession(opened), held, `${path}, second pass`);
  }
  // The live thread of a compacted rollout starts at its last compaction, not at the first line.
  assert.ok(compacted >= 3, `only ${compacted} compacted rollouts`);
});

test("a Codex session under the streaming size is held", async () => {
  assert.ok(Array.isArray((await openCodexSession(codexFixture("0.171.0", "tool-call"))).messages));
});

for (const name of ["tool-call", "compacted"]) {
  test(`a streamed ${name} rollout rewritten between passes is bad input naming the file`, async () => {
    const path = join(tempDir(), "rollout.jsonl");
    copyFileSync(codexFixture("0.171.0", name), path);
    const opened = await streamingAll(() => openCodexSession(path));
    writeFileSync(path, "x".repeat(statSync(path).size));
    await assert.rejects(holdSession(opened), (error: Error) => {
      assert.ok(error instanceof InputError, String(error));
      assert.ok(error.message.startsWith(path), error.message);
      return true;
    });
  });
}

test("lines a live writer appends after a streamed rollout was indexed are not part of the session", async () => {
  const path = join(tempDir(), "rollout.jsonl");
  copyFileSync(codexFixture("0.171.0", "resumed"), path);
  const held = await readCodexSession(path);
  const opened = await streamingAll(() => openCodexSession(path));
  const payload = { type: "message", role: "user", content: [{ type: "input_text", text: "typed later" }] };
  const line = { timestamp: held.meta.updatedAt, type: "response_item", payload };
  writeFileSync(path, `${JSON.stringify(line)}\n`, { flag: "a" });
  assert.deepEqual(await holdSession(opened), held);
});
