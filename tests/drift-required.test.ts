/**
 * `drift` is quiet on what a certified version writes in any configuration and loud on what would change
 * session-bridge's reading: a schema requires a field only where a reader uses it (the rule of
 * scripts/required-from-readers.ts, measured by running the real readers over every capture), and the types
 * of known fields, the closed levels and the record kinds are still checked.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { coveredVersions, requiredNotRead } from "../scripts/required-from-readers.ts";
import { runCliJson } from "./helpers/cli.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { tempDir } from "./helpers/tmp.ts";

interface DriftJson {
  clean: boolean;
  drift: { version: string; where: string; problem: string }[];
}

async function driftOf(home: string) {
  const r = await runCliJson(["drift", "--from", "codex", "--codex-home", home]);
  return { code: r.code, scan: r.json as unknown as DriftJson };
}

test("every required field of an embedded record schema is one a reader uses", async () => {
  const unread: string[] = [];
  for await (const { harness, version, usage } of coveredVersions()) {
    assert.ok(usage.size > 0, `${harness} ${version}: the readers met no record`);
    unread.push(...requiredNotRead(harness, version, usage));
  }
  assert.deepEqual(unread, [], "run `npx bun scripts/required-from-readers.ts` and `npm run generate`");
});

test("drift is quiet on a Codex 0.169.0 session whose world_state says only what changed (no tools)", async () => {
  const home = tempDir();
  makeCodexHome(home);
  const { path } = seedCodexThread(home, "0.169.0", "config-model-switch");
  // Captured from the real binary: resumed on another model, the turn's world_state holds no `tools`.
  const partial = readFileSync(path, "utf8").split("\n").filter((l) => l.includes('"type":"world_state"'))
    .map((l) => JSON.parse(l) as { payload: { full: boolean; state: Record<string, unknown> } })
    .filter((r) => !r.payload.full);
  assert.ok(partial.length > 0 && partial.every((r) => !("tools" in r.payload.state)), "the capture's case");
  const { code, scan } = await driftOf(home);
  assert.deepEqual(scan.drift, []);
  assert.equal(code, 0);
});

test("drift is loud on a field the reader uses arriving as another type (function_call arguments an object)", async () => {
  const home = tempDir();
  makeCodexHome(home);
  const { path } = seedCodexThread(home, "0.169.0", "tool-call");
  copyFileSync(
    fileURLToPath(new URL("./fixtures/drift/codex-0.169.0-arguments-object.jsonl", import.meta.url)),
    path,
  );
  const { code, scan } = await driftOf(home);
  assert.equal(code, 1);
  assert.equal(scan.clean, false);
  assert.deepEqual(
    scan.drift.map((d) => [d.version, d.where, d.problem]),
    [["0.169.0", "record:response_item", "unexpected shape at /payload/arguments: must be string"]],
  );
});
