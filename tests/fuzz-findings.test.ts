/**
 * Reader bugs the fuzz campaign (campaigns/fuzz.ts) found, each on the mutant it found (trimmed to a tiny
 * fixture in tests/fixtures/fuzz/) or on a real store damaged the same way.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import * as api from "../lib/mod.ts";
import { tempDir } from "./helpers/tmp.ts";

const FUZZ_FIXTURES = fileURLToPath(new URL("./fixtures/fuzz/", import.meta.url));
const now = new Date("2026-12-01T06:00:00Z");

function world() {
  const root = tempDir("sb-fuzz-found-");
  return {
    root,
    homes: { "claude-code": join(root, "claude"), codex: join(root, "codex"), hermes: join(root, "hermes") },
    bridgeHome: join(root, "bridge"),
  };
}

async function convertsToEveryHarness(
  where: ReturnType<typeof world>,
  session: api.Session,
): Promise<string[]> {
  const converted: string[] = [];
  for (const to of ["claude-code", "codex", "hermes"]) {
    const done = await api.convert({
      ...where,
      source: { session },
      to,
      output: join(where.root, `converted-${to}`),
      now,
    });
    converted.push(done.target.harness);
  }
  return converted;
}

test("a Hermes export whose model is not a string reads without a model, reports the drift and converts to every harness", async () => {
  // Found as seed 1 mutant 838: `"model": [null]` in a `hermes sessions export` line.
  const where = world();
  const { session } = await api.load({
    ...where,
    ref: join(FUZZ_FIXTURES, "hermes-export-model-not-a-string.jsonl"),
  });
  assert.deepEqual(session.meta.models, []);
  assert.deepEqual(session.messages.map((m) => [m.role, m.model]), [["user", undefined], [
    "assistant",
    undefined,
  ]]);
  assert.deepEqual(session.drift.map((d) => d.problem), ["unexpected shape at /model: must be string,null"]);
  assert.deepEqual(await convertsToEveryHarness(where, session), ["claude-code", "codex", "hermes"]);
});

test("a Hermes state.db row with blobs for its model and title and text for its token counts reads without them", async () => {
  const where = world();
  mkdirSync(where.homes.hermes, { recursive: true });
  const db = join(where.homes.hermes, "state.db");
  copyFileSync(fileURLToPath(new URL("../fixtures/hermes/0.19.0/text-turns.state.db", import.meta.url)), db);
  const conn = new DatabaseSync(db);
  conn.exec("UPDATE sessions SET model = x'ff00', input_tokens = 'many', title = x'01'");
  conn.close();
  const [listed] = (await api.list({ ...where, from: "hermes" })).sessions;
  const { session } = await api.load({ ...where, ref: listed!.path });
  assert.deepEqual(session.meta.models, []);
  assert.equal(session.meta.usage, undefined);
  assert.equal(typeof session.meta.title, "string");
  assert.deepEqual(await convertsToEveryHarness(where, session), ["claude-code", "codex", "hermes"]);
});

test("a Hermes row whose tool_calls list holds something that is no call copies to Hermes with the entry skipped for naming", async () => {
  // Found as seed 2026 mutant 2887: `"tool_calls": "[null]"` on an assistant row.
  const where = world();
  const { session } = await api.load({
    ...where,
    ref: join(FUZZ_FIXTURES, "hermes-tool-calls-holding-null.json"),
  });
  // Both rows were compacted in place: kept apart from the live thread.
  assert.deepEqual(session.threads.flatMap((t) => t.messages.map((m) => m.role)), ["user", "assistant"]);
  const done = await api.convert({
    ...where,
    source: { session },
    to: "hermes",
    output: join(where.root, "copied.jsonl"),
    cwd: "/home/user/project",
    now,
  });
  assert.equal(done.target.harness, "hermes");
});
