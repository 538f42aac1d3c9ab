/**
 * A large Gemini CLI log is converted streamed (lib/harnesses/gemini-cli/read.ts `openGeminiSession`): indexed
 * once holding only where each message was last defined, its compacted and rewound threads spilled to a file,
 * its live thread read again by those places on each pass. What it gives must be the very session the held
 * reader gives, on every log the real Gemini CLI wrote, and a file that changes under a pass is bad input
 * naming the file, never a wrong session.
 */
import {
  assertRewrittenRefused,
  assertSpilledApart,
  assertStreamedAsHeld,
  STREAM_ALL,
} from "./helpers/streaming.ts";
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openGeminiSession, readGeminiSession } from "../lib/harnesses/gemini-cli/read.ts";
import { holdSession } from "../lib/ir/stream.ts";
import { spillMessages } from "../lib/ir/spill.ts";
import { openRecords, readJsonl } from "../lib/io/jsonl.ts";
import { decodeGeminiStreamed, type StreamedLog } from "../lib/harnesses/gemini-cli/streamed.ts";
import { seedGeminiHome } from "./helpers/harnesses/gemini-cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/gemini-cli/", import.meta.url));
const fixture = (name: string) => join(FIXTURES, "0.61.0", `${name}.jsonl`);

/** Every log the real CLI wrote (not the requests it sent), each placed in a home of its own as the CLI left it. */
function capturedLogs(): string[] {
  return readdirSync(FIXTURES).flatMap((version) =>
    readdirSync(join(FIXTURES, version))
      .filter((f) => f.endsWith(".jsonl") && !f.endsWith(".requests.jsonl"))
      .map((f) => seedGeminiHome(join(FIXTURES, version, f), tempDir()))
  );
}

test("a streamed Gemini CLI log is the held session, on every log the real harness wrote", async () => {
  const paths = capturedLogs();
  assert.equal(paths.length, 18);
  const kinds = new Set<string>();
  for (const path of paths) {
    const held = await readGeminiSession(path);
    for (const t of held.threads) kinds.add(t.kind);
    await assertStreamedAsHeld(path, await openGeminiSession(path, STREAM_ALL), held);
  }
  assert.deepEqual([...kinds].sort(), ["abandoned-branch", "compacted", "subagent"]);
});

test("a Gemini CLI log under the streaming size is held, and a legacy .json is held at any size", async () => {
  assert.ok(Array.isArray((await openGeminiSession(fixture("exec-tool"))).messages));
  const legacy = join(FIXTURES, "0.61.0", "legacy-resumed.json");
  assert.ok(Array.isArray((await openGeminiSession(legacy, STREAM_ALL)).messages));
});

for (const name of ["exec-tool", "compressed"]) {
  test(`a streamed ${name} log rewritten between passes is bad input naming the file`, async () => {
    const path = join(tempDir(), "session-x.jsonl");
    copyFileSync(fixture(name), path);
    await assertRewrittenRefused(path, await openGeminiSession(path, STREAM_ALL));
  });
}

test("lines a live writer appends after a streamed log was indexed are not part of the session", async () => {
  const path = join(tempDir(), "session-x.jsonl");
  copyFileSync(fixture("exec-resumed"), path);
  const held = await readGeminiSession(path);
  const opened = await openGeminiSession(path, STREAM_ALL);
  const later = { id: "0f8d5a57-35c3-4c3a-9d1f-6f0e6e1b2a10", timestamp: held.meta.updatedAt, type: "user" };
  writeFileSync(path, `${JSON.stringify({ ...later, content: [{ text: "typed later" }] })}\n`, { flag: "a" });
  writeFileSync(path, `${JSON.stringify({ $rewindTo: held.messages[0]!.uid })}\n`, { flag: "a" });
  assert.deepEqual(await holdSession(opened), held);
  opened.release?.();
});

for (const [name, kind] of [["compressed", "compacted"], ["rewound", "abandoned-branch"]] as const) {
  test(`a streamed ${name} log's ${kind} threads are kept in a file, not held, until it is released`, async () => {
    const path = fixture(name);
    const held = await readGeminiSession(path);
    const kept = assertSpilledApart(name, await openGeminiSession(path, STREAM_ALL), held, kind);
    assert.ok(kept > 0, `the fixture has a ${kind} thread`);
  });
}

test("a streamed log's passes keep only how to open it again, not its first read (which reaches its index)", async () => {
  const path = fixture("compressed");
  const held = await readGeminiSession(path);
  const tail = {};
  const { proxy, revoke } = Proxy.revocable<StreamedLog>({
    path,
    lines: readJsonl(path, tail),
    tail,
    open: () => openRecords(path),
    spill: spillMessages,
  }, {});
  const { session } = await decodeGeminiStreamed(proxy, () => []);
  // Any later use of the log, or of anything reached only through it, would throw now.
  revoke();
  for (let pass = 0; pass < 2; pass++) {
    const { messages, threads } = await holdSession(session);
    assert.deepEqual({ messages, threads }, { messages: held.messages, threads: held.threads });
  }
  session.release?.();
});
