/**
 * The Claude Code writer takes a streamed thread (issue #12): rendering, and a handoff planned and committed into
 * a private Claude home, from a thread read anew on each iteration give exactly what the same session held
 * gives, and read the thread once. Real fixtures: Claude Code sources (copied record by record, among them one
 * whose reader relinks a queued prompt, and one left with an open call) and Codex sources (rendered from the IR).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { claudeCode } from "../lib/harnesses/claude-code/index.ts";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { readCodexSession } from "../lib/harnesses/codex/read.ts";
import { HANDSHAKE_CLOSE, HANDSHAKE_OPEN } from "../lib/handshake/handshake.ts";
import type { Session } from "../lib/ir/schema.ts";
import { type SessionStream, streamedMessages } from "../lib/ir/stream.ts";
import type { RenderOptions } from "../lib/harnesses/types.ts";
import { wholeLines } from "../lib/io/rendered.ts";
import { claudeFixture, FIXTURE_CWD, jsonLines } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const now = new Date("2026-12-01T03:00:00Z");
const codexFixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/codex/0.171.0/${name}.jsonl`, import.meta.url));

const SOURCES: { name: string; path: string; read: (path: string) => Promise<Session> }[] = [
  {
    name: "claude interactive-interrupted",
    path: claudeFixture("interactive-interrupted"),
    read: readClaudeSession,
  },
  {
    name: "claude interrupted-tool-call",
    path: claudeFixture("interrupted-tool-call"),
    read: readClaudeSession,
  },
  { name: "codex interrupted", path: codexFixture("interrupted"), read: readCodexSession },
  { name: "codex tool-call", path: codexFixture("tool-call"), read: readCodexSession },
];

/** A thread that counts how often it is read and how far the current reading has got. */
interface Counted {
  session: SessionStream;
  readings: number;
  read: number;
}

function streamed(held: Session): Counted {
  const counted: Counted = { session: held, readings: 0, read: 0 };
  counted.session = {
    ...held,
    messages: streamedMessages(async function* () {
      counted.readings++;
      counted.read = 0;
      for (const m of held.messages) {
        counted.read++;
        yield m;
      }
    }),
  };
  return counted;
}

function options(): RenderOptions {
  return {
    id: "00000000-0000-4000-8000-0000000000aa",
    cwd: FIXTURE_CWD,
    now,
    stubOpenCalls: true,
    handshake: `${HANDSHAKE_OPEN}\nMoved by the streaming test.\n${HANDSHAKE_CLOSE}`,
  };
}

/** Fresh ids (record uuids, API message ids) replaced by the order they first appear in; all else kept. */
function normalized(lines: string[]): string[] {
  const seen = new Map<string, string>();
  const id = (s: string) => {
    if (!seen.has(s)) seen.set(s, `id-${seen.size}`);
    return seen.get(s)!;
  };
  return lines.map((l) =>
    l.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|msg_[0-9a-f]{24}/g, id)
  );
}

async function collect(lines: AsyncIterable<string>, onFirst?: () => void): Promise<string[]> {
  const out: string[] = [];
  for await (const l of lines) {
    if (!out.length) onFirst?.();
    out.push(l);
  }
  return out;
}

test("the fixture of the copy path has a message its reader relinks (what the copy's parent links are for)", async () => {
  const path = claudeFixture("interactive-interrupted");
  const recorded = new Map(jsonLines(path).map((r) => [r.uuid, r.parentUuid ?? null]));
  const session = await readClaudeSession(path);
  assert.ok(session.messages.some((m) => recorded.get(m.uid) !== m.parentUid));
});

for (const source of SOURCES) {
  test(`${source.name}: rendered from a streamed thread, read once, as from the held one`, async () => {
    const held = await source.read(source.path);
    const expected = await collect(wholeLines(claudeCode.store.render(held, options())));
    const counted = streamed(held);
    let readAtFirstLine = 0;
    const got = await collect(wholeLines(claudeCode.store.render(counted.session, options())), () => {
      readAtFirstLine = counted.read;
    });
    assert.deepEqual(normalized(got), normalized(expected));
    assert.equal(counted.readings, 1);
    assert.equal(counted.read, held.messages.length);
    assert.ok(held.messages.length > 1);
    // Rendered from the IR, the first records are out before the thread is read to its end; a copy reads the
    // thread's links first (see write.ts).
    if (held.meta.harness !== "claude-code") {
      assert.ok(readAtFirstLine < held.messages.length, `${readAtFirstLine}`);
    }
  });

  test(`${source.name}: a handoff planned from a streamed thread reads it only at commit, once`, async () => {
    const held = await source.read(source.path);
    const expected = await collect(wholeLines(claudeCode.store.render(held, options())));
    const counted = streamed(held);
    const home = join(root, source.name.replaceAll(" ", "-"));
    const plan = await claudeCode.store.plan(counted.session, options(), home, false);
    assert.equal(plan.refusal, undefined);
    assert.equal(counted.readings, 0);
    await plan.commit({ force: false, backup: true, backupFolder: join(home, "bridge", "backups", "b") });
    assert.equal(counted.readings, 1);
    assert.ok(plan.path.startsWith(home), plan.path);
    const written = readFileSync(plan.path, "utf8").split("\n").filter((l) => l);
    assert.deepEqual(normalized(written), normalized(expected));
    if (held.meta.harness === "claude-code") {
      // The copy links each live record where the reader put its message, the relinked ones too.
      const parents = new Map(
        written.map((l) => JSON.parse(l) as { uuid?: string; parentUuid?: string | null })
          .map((r) => [r.uuid, r.parentUuid]),
      );
      for (const m of held.messages) assert.equal(parents.get(m.uid), m.parentUid, m.uid);
    }
  });
}
