/**
 * A handoff within one harness is reported as a record-by-record copy only when that harness's writer copies
 * its own sessions so (Claude Code, Codex, Hermes, Gemini CLI). Pi, OpenCode and Copilot CLI write a session of
 * their own kind anew from the IR, as any other source: the report says what that leaves out, through the real
 * CLI on captured fixtures. Expectations are written by hand from the fixtures (Pi's `branched` holds two
 * branches left by /tree besides the live one).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runCliJson } from "./helpers/cli.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";

const fixture = (path: string) => fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url));

interface Entry {
  code: string;
  severity: string;
  count: number;
}

async function reportOf(source: string, harness: string, output: string) {
  const r = await runCliJson([
    "convert",
    source,
    "--from",
    harness,
    "--to",
    harness,
    "-o",
    join(tempDir(), output),
  ]);
  assert.equal(r.code, 0, r.stderr);
  return r.json.report as { lossless: boolean; entries: Entry[] };
}

test("a Pi session handed to Pi is written anew: its report names the branches left behind, never a record-by-record copy", async () => {
  const report = await reportOf(fixture("pi/0.73.1/branched.jsonl"), "pi", "copy.jsonl");
  const codes = report.entries.map((e) => e.code);
  assert.ok(!codes.includes("records-copied-verbatim"), codes.join(", "));
  assert.deepEqual(report.entries.find((e) => e.code === "abandoned-branches"), {
    code: "abandoned-branches",
    severity: "loss",
    count: 2,
    detail: "rewound branches are not carried",
    examples: [],
  });
  assert.equal(report.lossless, false);
});

test("an OpenCode session handed to OpenCode is not reported as copied record by record", async () => {
  const report = await reportOf(fixture("opencode/1.18.33/exec-forked.export.json"), "opencode", "copy.json");
  assert.ok(!report.entries.some((e) => e.code === "records-copied-verbatim"));
});

test("a Claude Code session handed to Claude Code is still a record-by-record copy", async () => {
  const report = await reportOf(claudeFixture("plain-text"), "claude-code", "copy.jsonl");
  assert.equal(report.entries[0]?.code, "records-copied-verbatim");
  assert.equal(report.lossless, true);
});
