/**
 * Messages spilled to an unlinked temporary file and read back as a thread (lib/ir/spill.ts): every message
 * comes back as it was added (by its JSON, byte for byte), in order, as often as the thread is iterated, and
 * only the prefix asked for; nothing is left in the folder, and a full disk is an error naming the spill.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import type { Message } from "../lib/ir/schema.ts";
import { type MessageSpill, spillMessages } from "../lib/ir/spill.ts";
import { DiskFullError } from "../lib/errors.ts";
import { tempDir } from "./helpers/tmp.ts";
import { mountTmpfs, TMPFS_SKIP, unmount } from "./helpers/tmpfs.ts";

const CLAUDE_ROOT = fileURLToPath(new URL("../fixtures/claude-code", import.meta.url));

/** Every Claude Code transcript the real harness wrote for the fixtures, of every version captured. */
function transcripts(dir = CLAUDE_ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "subagents" ? [] : transcripts(path);
    return entry.name.endsWith(".jsonl") && !entry.name.endsWith(".requests.jsonl") ? [path] : [];
  });
}

/** Every message of those sessions (live thread and the others), as the Claude Code reader gives them. */
async function fixtureMessages(): Promise<Message[]> {
  const messages: Message[] = [];
  for (const path of transcripts()) {
    const session = await readClaudeSession(path);
    messages.push(...session.messages, ...session.threads.flatMap((t) => t.messages));
  }
  return messages;
}

/** A small message whose text is `text`. */
function said(text: string, uid = "m"): Message {
  return { uid, parentUid: null, role: "user", kind: "turn", blocks: [{ type: "text", text }] };
}

const jsonOf = (messages: Iterable<Message>): string[] => [...messages].map((m) => JSON.stringify(m));

/** A spill in a folder of its own, closed when the test ends. */
function spillIn(t: { after(fn: () => void): void }, dir = tempDir()): MessageSpill {
  const spill = spillMessages(dir);
  t.after(() => spill.close());
  return spill;
}

test("the messages of real sessions come back as they were added, byte for byte by their JSON", async (t) => {
  const session = await fixtureMessages();
  assert.ok(session.length >= 200, `only ${session.length} messages in the fixtures`);
  // Added again and again, past a few megabytes: the file is written, and read, across several megabytes.
  const rounds = Math.ceil(4 * 1024 * 1024 / jsonOf(session).join("\n").length);
  const messages = Array.from({ length: rounds }, () => session).flat();
  const spill = spillIn(t);
  for (const m of messages) spill.add(m);
  assert.equal(spill.count, messages.length);
  const thread = spill.records(messages.length);
  assert.equal(thread.length, messages.length);
  const expected = jsonOf(messages);
  assert.deepEqual(jsonOf(thread), expected);
  assert.deepEqual(jsonOf(thread), expected, "a second iteration reads them again");
  const k = Math.floor(messages.length / 3) + 1;
  const prefix = spill.records(k);
  assert.equal(prefix.length, k);
  assert.deepEqual(jsonOf(prefix), expected.slice(0, k));
  assert.deepEqual(jsonOf(spill.records(0)), []);
  // A range from the middle, across the megabytes written: the window starts where the range does.
  const middle = spill.records(k, k);
  assert.equal(middle.length, k);
  assert.deepEqual(jsonOf(middle), expected.slice(k, 2 * k));
  assert.deepEqual(jsonOf(spill.records(0, messages.length)), []);
  // A run in the middle, as threads sharing one spill read theirs, starting past the first window.
  const run = spill.records(k, messages.length - k);
  assert.equal(run.length, k);
  assert.deepEqual(jsonOf(run), expected.slice(messages.length - k));
  assert.throws(() => spill.records(k, messages.length - k + 1), RangeError);
});

test("a prefix asked for is read alone, while more are added, even during its iteration", (t) => {
  const spill = spillIn(t);
  // Long enough that adding during the iteration writes to the file (a write is gathered up to a megabyte).
  const texts = Array.from({ length: 3000 }, (_, i) => `${i}:${"x".repeat(i % 2999)}`);
  for (const text of texts.slice(0, 1000)) spill.add(said(text));
  const thread = spill.records(1000);
  let added = 1000;
  const seen: string[] = [];
  for (const m of thread) {
    seen.push(JSON.stringify(m));
    spill.add(said(texts[added++]!));
  }
  assert.equal(spill.count, 2000);
  assert.deepEqual(seen, texts.slice(0, 1000).map((text) => JSON.stringify(said(text))));
  for (const text of texts.slice(2000)) spill.add(said(text));
  assert.deepEqual(jsonOf(thread), seen, "the same thousand, however many came after");
  assert.deepEqual(jsonOf(spill.records(3000)), texts.map((text) => JSON.stringify(said(text))));
});

test("one message asked for by its place is read alone, the first, a middle one, one still unwritten and the last", (t) => {
  const spill = spillIn(t);
  const texts = ["first", "x".repeat(2 * 1024 * 1024), "third", "€ fourth"];
  texts.forEach((text, i) => spill.add(said(text, `m${i}`)));
  texts.forEach((text, i) => assert.equal(JSON.stringify(spill.at(i)), JSON.stringify(said(text, `m${i}`))));
  assert.throws(() => spill.at(texts.length), RangeError);
  assert.throws(() => spill.at(-1), RangeError);
});

test("a message longer than the read window comes back whole, between short ones", (t) => {
  const spill = spillIn(t);
  const long = said("长".repeat(1_500_000), "long"); // 4.5 MB of UTF-8
  const messages = [said("before"), long, said("after"), said("y".repeat(1024 * 1024 - 40), "window-sized")];
  for (const m of messages) spill.add(m);
  assert.deepEqual(jsonOf(spill.records(4)), jsonOf(messages));
  assert.deepEqual(jsonOf(spill.records(2)), jsonOf(messages.slice(0, 2)));
});

test("text in any script, emoji, lone surrogates and line ends come back unchanged", (t) => {
  const spill = spillIn(t);
  const texts = [
    "日本語のテキストと中文文本",
    "emoji 😀👩‍👩‍👧 flags 🇯🇵",
    "lone high \ud800 and lone low \udc00, reversed \udc00\ud800",
    "line\nends\r\nand separators \u2028\u2029 and NUL \u0000",
  ];
  for (const text of texts) spill.add(said(text));
  const read = [...spill.records(texts.length)];
  assert.deepEqual(read.map((m) => JSON.stringify(m)), texts.map((text) => JSON.stringify(said(text))));
  assert.equal((read[2]!.blocks[0] as { text: string }).text, texts[2], "the lone surrogates themselves");
});

test("after close, iterating throws, even an iteration begun before; close twice is harmless", (t) => {
  const spill = spillIn(t);
  for (let i = 0; i < 5; i++) spill.add(said(String(i)));
  const thread = spill.records(5);
  const begun = thread[Symbol.iterator]();
  assert.equal(begun.next().done, false);
  spill.close();
  spill.close();
  assert.throws(() => begun.next(), /spill was closed/);
  assert.throws(() => [...thread], /spill was closed/);
  assert.throws(() => spill.add(said("late")), /spill was closed/);
});

test("more messages than were added, or from before the first, is an error", (t) => {
  const spill = spillIn(t);
  spill.add(said("one"));
  assert.throws(() => spill.records(2), RangeError);
  assert.throws(() => spill.records(-1), RangeError);
  assert.throws(() => spill.records(1, 1), RangeError);
  assert.throws(() => spill.records(0, -1), RangeError);
  assert.equal(spill.records(1).length, 1);
});

test("the spill leaves nothing in its folder, from the moment it is made", {
  skip: process.platform === "win32" ? "Windows does not let an open file be removed" : false,
}, (t) => {
  const dir = tempDir();
  const spill = spillIn(t, dir);
  assert.deepEqual(readdirSync(dir), []);
  for (let i = 0; i < 20_000; i++) spill.add(said(`message ${i}`));
  assert.equal([...spill.records(20_000)].length, 20_000);
  assert.deepEqual(readdirSync(dir), []);
  spill.close();
  assert.deepEqual(readdirSync(dir), []);
});

test("fifty thousand small messages are counted and all read back", (t) => {
  const spill = spillIn(t);
  const n = 50_000;
  for (let i = 0; i < n; i++) spill.add(said(String(i), `m${i}`));
  assert.equal(spill.count, n);
  let read = 0;
  for (const m of spill.records(n)) {
    assert.equal(m.uid, `m${read}`);
    read++;
  }
  assert.equal(read, n);
});

test("a full disk is an error naming the spill", { skip: TMPFS_SKIP }, () => {
  const mount = join(tempDir(), "tmpfs");
  assert.ok(mountTmpfs(mount, "1m"));
  try {
    const spill = spillMessages(mount);
    assert.throws(
      () => {
        for (let i = 0; i < 4; i++) spill.add(said("z".repeat(1024 * 1024)));
      },
      (error: Error) => {
        assert.ok(error instanceof DiskFullError, String(error));
        assert.ok(error.message.includes(mount) && error.message.includes("spilled"), error.message);
        return true;
      },
    );
    assert.throws(() => spill.records(1), /spill was closed/, "a spill a write failed in is not read");
    spill.close();
  } finally {
    unmount(mount);
  }
});
