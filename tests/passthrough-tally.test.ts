/**
 * A source's records that are not messages (Codex's event and context lines, Claude Code's snapshots and
 * attachments) are kept as a tally by type (lib/ir/session.ts notePassthrough): how many and where the first
 * stands, not an object each, since half a long rollout's lines are such records. The tally must count every
 * one of them, as the lines on disk say.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readCodexSession } from "../lib/harnesses/codex/read.ts";

const CODEX_FIXTURES = fileURLToPath(new URL("../fixtures/codex/0.171.0/", import.meta.url));

test("a Codex rollout's non-message lines are tallied by type: every line counted, the first placed", async () => {
  const rollouts = readdirSync(CODEX_FIXTURES).filter((f) =>
    f.endsWith(".jsonl") && !f.includes(".requests")
  );
  assert.ok(rollouts.length >= 10);
  for (const name of rollouts) {
    const path = join(CODEX_FIXTURES, name);
    const text = readFileSync(path, "utf8");
    // Counted from the file itself: each line that is not a response item, by its type, and where the first is.
    const want = new Map<string, { count: number; offset: number }>();
    let offset = 0;
    for (const line of text.split("\n")) {
      if (line.trim()) {
        const type = String((JSON.parse(line) as { type?: unknown }).type ?? "");
        if (type !== "response_item") {
          const seen = want.get(type);
          if (seen) seen.count++;
          else want.set(type, { count: 1, offset });
        }
      }
      offset += Buffer.byteLength(line) + 1;
    }
    const session = await readCodexSession(path);
    assert.deepEqual(
      session.passthrough.map((p) => [p.type, p.count, p.first.offset]),
      [...want].map(([type, { count, offset }]) => [type, count, offset]),
      name,
    );
  }
});
