/**
 * A large Claude Code session is converted streamed (lib/harnesses/claude-code/read.ts `openClaudeSession`):
 * indexed once, its live thread read again from the file on each pass. What it gives must be the very session
 * the held reader gives, on every transcript the real harness wrote, and a file that changes under a pass is
 * bad input naming the file, never a wrong session.
 */
import { assertStreamedAsHeld, STREAM_ALL } from "./helpers/streaming.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openClaudeSession, readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { holdSession } from "../lib/ir/stream.ts";
import { DEFAULT_STREAM_FROM_BYTES, streamFromBytes } from "../lib/io/jsonl.ts";
import { tempDir } from "./helpers/tmp.ts";
import { holdingSignals } from "../lib/io/interrupt.ts";
import { InputError, InterruptedError } from "../lib/errors.ts";
import type { ProgressUpdate } from "../lib/io/progress.ts";
import { generateClaudeSession } from "../bench/session.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/claude-code", import.meta.url));

/** Every main transcript the real Claude Code wrote (subagent transcripts are read with their session). */
function transcripts(dir = FIXTURES): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "subagents" ? [] : transcripts(path);
    return name.endsWith(".jsonl") && !name.endsWith(".requests.jsonl") ? [path] : [];
  });
}

test("a streamed Claude Code session is the held session, on every transcript the real harness wrote", async () => {
  const paths = transcripts();
  assert.ok(paths.length >= 20, `only ${paths.length} transcripts found`);
  for (const path of paths) {
    const held = await readClaudeSession(path);
    const opened = await openClaudeSession(path, STREAM_ALL);
    await assertStreamedAsHeld(path, opened, held);
  }
});

test("a session under the streaming size is held; SESSION_BRIDGE_STREAM_FROM sets the size", async () => {
  const path = transcripts()[0]!;
  assert.ok(Array.isArray((await openClaudeSession(path)).messages));
  assert.equal(streamFromBytes({}), DEFAULT_STREAM_FROM_BYTES);
  assert.equal(streamFromBytes({ SESSION_BRIDGE_STREAM_FROM: "0" }), 0);
  assert.equal(streamFromBytes({ SESSION_BRIDGE_STREAM_FROM: "64M" }), 64 * 1024 * 1024);
  assert.throws(() => streamFromBytes({ SESSION_BRIDGE_STREAM_FROM: "big" }), InputError);
});

test("a streamed session whose file is rewritten between passes is bad input naming the file", async () => {
  const path = join(tempDir(), "session.jsonl");
  copyFileSync(join(FIXTURES, "2.1.328", "thinking-tool-use.jsonl"), path);
  const opened = await openClaudeSession(path, STREAM_ALL);
  writeFileSync(path, "x".repeat(statSync(path).size));
  await assert.rejects(holdSession(opened), (error: Error) => {
    assert.ok(error instanceof InputError, String(error));
    assert.ok(error.message.startsWith(path), error.message);
    return true;
  });
});

test("a pass over a streamed thread shows its progress and stops at a Ctrl-C within a few megabytes", async () => {
  const path = join(tempDir(), "long.jsonl");
  generateClaudeSession(path, 12);
  const updates: ProgressUpdate[] = [];
  const opened = await openClaudeSession(path, {
    ...STREAM_ALL,
    feedback: { progress: (u) => updates.push(u) },
  });
  let read = 0;
  await assert.rejects(
    holdingSignals(async () => {
      for await (const _ of opened.messages) {
        if (++read === 10) process.emit("SIGINT", "SIGINT");
      }
    }),
    InterruptedError,
  );
  const pass = updates.filter((u) => u.what === `reading ${path}`);
  assert.ok(pass.length >= 2 && pass.at(-1)!.finished, `${pass.length} updates`);
  // Stopped at the pass's next visit to the event loop, long before the thread's end.
  const total = (await holdSession(opened)).messages.length;
  assert.ok(read > 10 && read < total / 2, `${read} of ${total} messages read before stopping`);
});

test("a tree of uppercase, short and dangling uuids, a child written before its parent, reads as written, streamed or held", async () => {
  const dir = tempDir();
  const path = join(dir, "0f0e0d0c-0b0a-4909-8807-060504030201.jsonl");
  const record = (n: number, type: "user" | "assistant", uuid: string, parentUuid: string | null) =>
    JSON.stringify({
      type,
      uuid,
      parentUuid,
      isSidechain: false,
      sessionId: "0f0e0d0c-0b0a-4909-8807-060504030201",
      cwd: "/home/user/project",
      version: "2.1.328",
      timestamp: `2026-01-01T00:00:0${n}.000Z`,
      message: type === "user" ? { role: "user", content: `prompt ${n}` } : {
        role: "assistant",
        id: `msg_${n}`,
        model: "claude-opus-5-5",
        content: [{ type: "text", text: `answer ${n}` }],
      },
    });
  const live = [
    "AAAAAAAA-1111-4222-8333-444444444444",
    "a2a2a2a2-1111-4222-8333-444444444444",
    "u3",
    "a4a4a4a4-1111-4222-8333-444444444444",
    "p7p7",
    "c6c6c6c6-1111-4222-8333-444444444444",
  ];
  writeFileSync(
    path,
    [
      record(0, "user", "0e0e0e0e-1111-4222-8333-444444444444", "ffffffff-0000-4000-8000-000000000000"),
      record(1, "user", live[0]!, null),
      record(2, "assistant", live[1]!, live[0]!),
      record(3, "user", live[2]!, live[1]!),
      record(4, "assistant", live[3]!, live[2]!),
      record(5, "user", live[5]!, live[4]!),
      record(6, "assistant", live[4]!, live[3]!),
    ].join("\n") + "\n",
  );
  const held = await readClaudeSession(path);
  assert.deepEqual(held.messages.map((m) => m.uid), live);
  assert.deepEqual(held.messages.map((m) => m.parentUid), [null, ...live.slice(0, -1)]);
  assert.deepEqual(
    held.threads.map((t) => [t.kind, t.messages.map((m) => [m.uid, m.parentUid])]),
    [["abandoned-branch", [[
      "0e0e0e0e-1111-4222-8333-444444444444",
      "ffffffff-0000-4000-8000-000000000000",
    ]]]],
  );
  await assertStreamedAsHeld(path, await openClaudeSession(path, STREAM_ALL), held);
});
