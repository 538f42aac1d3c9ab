/**
 * The crash-test's hostile campaigns (campaigns/hostile): one case of each kind runs clean end to end (or, where
 * this machine cannot run it, is skipped saying why), a case is the same for the same seed and index, and the
 * invariants find what they are there to find: a file written outside the homes, debris, half a Codex session,
 * an operation recorded twice, a raw system error or an escape sequence on stderr.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { appendFileSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { caseReport, hostileSummary, KIND_NAMES, KINDS, runHostile } from "../campaigns/hostile/campaign.ts";
import { runFindings, worldFindings } from "../campaigns/hostile/invariants.ts";
import {
  createWorld,
  handoffArgs,
  hostileCast,
  landedAt,
  listing,
  operationOf,
  runCli,
} from "../campaigns/hostile/world.ts";
import { MissingMaterial } from "./helpers/harness-material.ts";
import { tempDir } from "./helpers/tmp.ts";

const cast = await hostileCast();

test("one case of each hostile campaign runs clean, or is skipped saying why, and the temp root keeps its owner", async () => {
  const owner = statSync(tmpdir()).uid;
  const reported: string[] = [];
  for (const kind of KIND_NAMES) {
    const run = await runHostile(7, cast, {}, (line) => reported.push(line), { kind, index: 0 });
    const reason = KINDS[kind].unavailable(cast);
    if (reason) {
      assert.deepEqual(run.skipped, [{ kind, reason }]);
      assert.deepEqual(run.cases, []);
      continue;
    }
    assert.equal(run.cases.length, 1, kind);
    const [done] = run.cases;
    assert.deepEqual(done!.findings, [], caseReport(done!, 7, cast));
    assert.match(
      hostileSummary(run, 7),
      new RegExp(`^1 hostile cases \\(.*1 ${kind}.*\\), 0 failing: .* \\(seed 7\\)$`),
    );
  }
  assert.deepEqual(reported.filter((l) => !/: skipped, /.test(l)), []);
  // Permissions cases hand their world to another user, and the folder holding it: never the temp root itself.
  assert.equal(statSync(tmpdir()).uid, owner);
});

test("a case's report names each finding and the command that replays exactly it", () => {
  const report = caseReport(
    {
      kind: "links",
      index: 4,
      label: "session-bridge's intents linked outside",
      outcome: "refused",
      findings: [{ kind: "written outside", detail: "/tmp/x/outside/pwned: absent -> 1f2e" }],
    },
    9,
    cast,
  );
  assert.equal(
    report,
    [
      "  links 4 (session-bridge's intents linked outside):",
      "    written outside: /tmp/x/outside/pwned: absent -> 1f2e",
      "    replay: npm run crash-test -- --seed 9 --case links:4",
    ].join("\n"),
  );
});

test("the invariants find a write outside the homes, debris, half a Codex session and an operation recorded twice", async () => {
  const world = createWorld(tempDir("sb-hostile-invariants-"), cast);
  const before = listing(world.outside);
  const handed = await runCli(world, handoffArgs(world, "codex"));
  assert.equal(handed.code, 0, handed.stderr);
  assert.deepEqual(worldFindings(world, before), [], "a clean handoff is found at fault");
  const rollout = landedAt(handed)!;
  const claudeHome = world.homes["claude-code"]!;

  writeFileSync(join(world.outside, "pwned"), "");
  writeFileSync(join(claudeHome, ".transcript.jsonl.123.tmp"), "");
  const ledger = join(world.bridge, "ledger.jsonl");
  const [entry] = readFileSync(ledger, "utf8").split("\n");
  appendFileSync(ledger, `${entry}\n`);
  rmSync(rollout);
  const found = worldFindings(world, before).map((f) => `${f.kind}: ${f.detail}`);
  assert.deepEqual(found.sort(), [
    `debris: ${join(claudeHome, ".transcript.jsonl.123.tmp")}`,
    `half session: the threads row of ${rollout} has no file`,
    `ledger: ${operationOf(handed)} is pending and ${rollout} is gone`,
    `ledger: ${operationOf(handed)} is recorded 2 times`,
    `written outside: ${join(world.outside, "pwned")}: absent -> ${createHash("sha256").digest("hex")}`,
  ]);
});

test("a message that is a raw system error, several unprefixed lines or an escape sequence is not a clear line", () => {
  const run = (stderr: string, code = 1) => ({ args: ["handoff", "x"], code, stdout: "", stderr });
  assert.deepEqual(runFindings(run("session-bridge: /a/state.db is locked by another process\n")), []);
  const kinds = (stderr: string, code?: number) => runFindings(run(stderr, code)).map((f) => f.kind);
  assert.deepEqual(kinds("session-bridge: ENOENT: no such file or directory, unlink '/a'\n"), [
    "unclear message",
  ]);
  assert.deepEqual(kinds("session-bridge: /a/state.db: disk I/O error\n"), ["unclear message"]);
  assert.deepEqual(kinds("TypeError: x is undefined\n    at f (/a.ts:1:1)\n"), [
    "unclear message",
    "unclear message",
  ]);
  assert.deepEqual(kinds("session-bridge: id \u001b[31mred is not valid\n"), ["unclear message"]);
  assert.deepEqual(kinds("", 134), ["exit status"]);
});

test("a harness whose test material has no hostile part stops the campaign, saying what to add", async () => {
  const toy = fileURLToPath(new URL("./helpers/toy-harness/module.ts", import.meta.url));
  const module = join(tempDir("sb-hostile-lacking-"), "lacking.ts");
  writeFileSync(
    module,
    `import { harness, material as toy } from ${JSON.stringify(toy)};\n` +
      "export { harness };\nexport const material = { ...toy, hostile: undefined };\n",
  );
  await assert.rejects(
    hostileCast([module]),
    (error) =>
      error instanceof MissingMaterial &&
      error.message === "harness toy has no material for the hostile campaigns: add `hostile` " +
          "(HostileMaterial, tests/helpers/harness-material.ts) to its test material",
  );
});
