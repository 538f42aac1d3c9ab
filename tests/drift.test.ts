import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();

test("drift is clean on real fixtures and exits 0", async () => {
  const home = join(root, "clean");
  seedClaudeHome(home, "thinking-tool-use");
  seedClaudeHome(home, "subagent");
  const r = await runCliJson(["drift", "--claude-home", home]);
  assert.equal(r.code, 0, r.stdout);
  assert.equal(r.json.clean, true);
  assert.equal(r.json.sessions, 2);
});

test("drift names unknown record types and fields per version, exits 1, and prints no conversation content", async () => {
  const home = join(root, "drifted");
  const { path } = seedClaudeHome(home, "plain-text");
  const lines = readFileSync(path, "utf8").split("\n");
  const at = lines.findIndex((l) => l.includes('"type":"user"'));
  lines[at] = lines[at]!.replace('"type":"user"', '"type":"user","secretField":"top secret words"');
  writeFileSync(path, lines.join("\n"));
  appendFileSync(
    path,
    `${JSON.stringify({ type: "brand-new-record", sessionId: "x", note: "more secret words" })}\n`,
  );
  const r = await runCli(["drift", "--claude-home", home]);
  assert.equal(r.code, 1);
  assert.match(r.stdout, /claude-code 2\.1\.328 {2}record:brand-new-record: unknown record type/);
  assert.match(r.stdout, /record:user: unknown field \/secretField/);
  assert.doesNotMatch(r.stdout, /secret words|first plain turn/);
});
