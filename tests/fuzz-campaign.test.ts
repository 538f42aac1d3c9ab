/**
 * The fuzz campaign (campaigns/fuzz.ts) itself: a seed and an index make the same mutant every time (so a
 * printed replay command replays exactly the mutant that crashed), and what the project must not do (an
 * uncaught error, a hang, a message of several lines or naming no file) is reported as a crash.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { InputError, RefusedError } from "../lib/errors.ts";
import { mutantRandom } from "../campaigns/fuzz/random.ts";
import { mutateFile } from "../campaigns/fuzz/mutate.ts";
import { problemWith } from "../campaigns/fuzz/exercise.ts";
import { runCampaign } from "../campaigns/fuzz/campaign.ts";
import { crashKinds, crashReport, summaryLine } from "../campaigns/fuzz/report.ts";
import { runLongRuns } from "../campaigns/fuzz/long-run-campaign.ts";
import { LONG_RUNS, longRunText } from "../campaigns/fuzz/long-runs.ts";
import { isStored, placeText, sessionFiles, textFields } from "../campaigns/fuzz/text-fields.ts";
import { fixtureCatalog } from "../campaigns/fuzz/catalog.ts";
import { stage } from "../campaigns/fuzz/stage.ts";
import { builtinRegistry, load } from "../lib/mod.ts";
import { builtinCoverage, FIXTURES } from "./helpers/harness-material.ts";
import { tempDir } from "./helpers/tmp.ts";

const covered = await builtinCoverage();
const SMALL = [
  '{"type":"user","message":{"role":"user","content":"hello"},"timestamp":"2026-11-29T20:58:22Z"}',
  '{"type":"assistant","message":{"role":"assistant","content":"hi"}}',
  '{"type":"user","message":{"role":"user","content":"bye"}}',
  "",
].join("\n");

test("a mutant's generator is the same stream for the same seed and index, whatever ran before", () => {
  const first = mutantRandom(42, 0);
  assert.deepEqual([first.int(0, 1000), first.int(0, 1000), first.int(0, 1000)], [603, 643, 889]);
  const later = mutantRandom(42, 0);
  assert.deepEqual([later.int(0, 1000), later.int(0, 1000), later.int(0, 1000)], [603, 643, 889]);
});

test("the mutator makes the same mutant, byte for byte, for the same seed and index", () => {
  const dir = tempDir("sb-fuzz-mutate-");
  const original = join(dir, "original.jsonl");
  writeFileSync(original, SMALL);
  const mutant = (seed: number, index: number) => {
    const path = join(dir, `mutant-${seed}-${index}.jsonl`);
    copyFileSync(original, path);
    const description = mutateFile(path, "text", mutantRandom(seed, index));
    return { description, bytes: readFileSync(path).toString("hex") };
  };
  for (let index = 0; index < 40; index++) assert.deepEqual(mutant(7, index), mutant(7, index));
  assert.deepEqual(mutant(7, 9).description, "swap-lines 2 and 3");
  assert.equal(
    readFileSync(join(dir, "mutant-7-9.jsonl"), "utf8"),
    [
      '{"type":"user","message":{"role":"user","content":"hello"},"timestamp":"2026-11-29T20:58:22Z"}',
      '{"type":"user","message":{"role":"user","content":"bye"}}',
      '{"type":"assistant","message":{"role":"assistant","content":"hi"}}',
      "",
    ].join("\n"),
  );
  assert.equal(mutant(7, 1).description, "wrong-type: $.message.role of line 3 is a string made -1");
  assert.notDeepEqual(
    Array.from({ length: 10 }, (_, i) => mutant(7, i)),
    Array.from({ length: 10 }, (_, i) => mutant(8, i)),
  );
});

test("a database mutant is the same for the same seed and index", () => {
  const dir = tempDir("sb-fuzz-mutate-db-");
  const fixture = join(FIXTURES, "hermes/0.19.0/text-turns.state.db");
  const mutant = (name: string, index: number) => {
    const path = join(dir, name);
    copyFileSync(fixture, path);
    return { description: mutateFile(path, "database", mutantRandom(3, index)), bytes: readFileSync(path) };
  };
  for (let index = 0; index < 8; index++) assert.deepEqual(mutant("a.db", index), mutant("b.db", index));
});

test("only the project's own one-line errors naming a file are answers; anything else is a crash", () => {
  const root = "/tmp/world";
  assert.equal(problemWith(new InputError("/tmp/world/a.jsonl line 3: not JSON"), root), undefined);
  assert.equal(problemWith(new RefusedError("/tmp/world/state.db is locked"), root), undefined);
  assert.equal(
    problemWith(new TypeError("x.map is not a function"), root),
    "uncaught TypeError: x.map is not a function",
  );
  assert.equal(
    problemWith(new Error("database disk image is malformed"), root),
    "uncaught Error: database disk image is malformed",
  );
  assert.equal(problemWith(new InputError("not JSON"), root), "no file named: not JSON");
  assert.equal(
    problemWith(new InputError("/tmp/world/a.jsonl: bad\n  at line 3"), root),
    "a message of 2 lines: /tmp/world/a.jsonl: bad",
  );
});

const PLAIN_TEXT = "claude-code/2.1.328/plain-text.jsonl";
const PLACED = "claude-code/projects/-home-user-project/cfcdd08f-8724-4f00-81dd-67b485c7dc83.jsonl";

test("a planted reader that throws a TypeError is reported as a crash of every mutant, with a replay command", async () => {
  const results = await runCampaign({
    seed: 5,
    indexes: [0, 1],
    workers: 1,
    budgetMs: 600_000,
    fixture: PLAIN_TEXT,
    registryModule: new URL("./helpers/fuzz/crashing-reader.ts", import.meta.url).href,
  });
  assert.deepEqual(
    results.map((r) => [r.index, r.fixture, r.findings]),
    [0, 1].map((index) => [index, PLAIN_TEXT, [{
      step: `load ${PLACED}`,
      problem: "uncaught TypeError: planted reader failure",
    }]]),
  );
  assert.equal(summaryLine(results, 5), "2 mutants, 2 crashes (seed 5)");
  const report = crashReport(results[1]!, { seed: 5, fixture: PLAIN_TEXT }).split("\n");
  assert.equal(report[0], `crash: seed 5 mutant 1: fixtures/${PLAIN_TEXT}: ${results[1]!.mutation}`);
  assert.deepEqual(report.slice(1), [
    `  load ${PLACED}: uncaught TypeError: planted reader failure`,
    `  replay: npm run fuzz -- --seed 5 --only 1 --fixture "${PLAIN_TEXT}" --save fuzz-mutants`,
  ]);
});

test("a planted reader that never returns is stopped by the watchdog and reported as a hang", async () => {
  const results = await runCampaign({
    seed: 5,
    indexes: [0],
    workers: 1,
    budgetMs: 3_000,
    fixture: PLAIN_TEXT,
    registryModule: new URL("./helpers/fuzz/hanging-reader.ts", import.meta.url).href,
  });
  assert.deepEqual(
    results.map((r) => [r.index, r.findings]),
    [[0, [{ step: "watchdog", problem: "no answer in 3000 ms: a hang" }]]],
  );
});

test("the real readers answer every mutant of a transcript without a crash", async () => {
  const results = await runCampaign({
    seed: 11,
    indexes: [0, 1, 2, 3, 4, 5],
    workers: 1,
    budgetMs: 600_000,
    fixture: PLAIN_TEXT,
  });
  assert.equal(summaryLine(results, 11), "6 mutants, 0 crashes (seed 11)");
});

test("crashes are grouped by kind, most frequent first, with paths, quoted values and numbers blanked", () => {
  const finding = (step: string, problem: string) => ({ step, problem });
  const results = [
    {
      index: 0,
      loaded: 0,
      converted: 0,
      findings: [finding("load /tmp/a/state.db", "uncaught Error: database disk image is malformed")],
    },
    {
      index: 1,
      loaded: 1,
      converted: 0,
      findings: [finding("convert to codex", 'no file named: invalid session id "x": expected a UUID')],
    },
    {
      index: 2,
      loaded: 0,
      converted: 0,
      findings: [finding("load /tmp/b/state.db", "uncaught Error: database disk image is malformed")],
    },
    { index: 3, loaded: 1, converted: 3, findings: [] },
  ];
  assert.deepEqual(crashKinds(results), [
    "     2  load: uncaught Error: database disk image is malformed",
    '     1  convert: no file named: invalid session id "…": expected a UUID',
  ]);
});

test("a long run is placed in the field the reader reads it from: a Codex tool call's arguments, a Hermes title", async () => {
  for (
    const [name, kind] of [
      ["codex/0.169.0/tool-call.jsonl", "tool-input"],
      ["hermes/0.19.0/titled.state.db", "title"],
    ] as const
  ) {
    const world = stage(fixtureCatalog(covered, name)[0]!, tempDir("sb-fuzz-place-"), covered);
    const where = { registry: builtinRegistry, homes: world.homes, bridgeHome: world.bridgeHome };
    const [listed] = await builtinRegistry.harnesses.find((h) => name.startsWith(h.name))!.store.list(
      world.homes[name.split("/")[0]!]!,
    );
    const before = (await load({ ...where, ref: listed!.path })).session;
    const field = textFields(before).find((f) => f.kind === kind)!;
    const run = longRunText({ name: "letters", unit: "a" }, 64 * 1024);
    assert.equal(placeText(sessionFiles(world.root), field.value, `${field.value} ${run}`) > 0, true);
    const after = (await load({ ...where, ref: listed!.path })).session;
    const texts = textFields(after).filter((f) => f.kind === kind).map((f) => f.value);
    assert.ok(texts.includes(`${field.value} ${run}`), `${name}: the ${kind} read back holds the run`);
  }
});

test("a long run of 64 KiB of digits in a Claude Code tool result goes through every read command, each answering as on ordinary text", async () => {
  const results = await runLongRuns({
    seed: 1,
    // With one harness, case 4 is the fifth kind of field: tool output.
    indexes: [4],
    workers: 1,
    covered,
    fixture: "claude-code/2.1.328/thinking-tool-use.jsonl",
    bytes: [64 * 1024, 64 * 1024],
    timeoutMs: 600_000,
    runs: LONG_RUNS.filter((r) => r.name === "digits"),
  });
  assert.equal(results.length, 1);
  const [result] = results;
  assert.equal(result!.fixture, "claude-code/2.1.328/thinking-tool-use.jsonl");
  assert.match(result!.description, /^0\.06 MiB of digits in tool-output \(claude-code\)/);
  assert.deepEqual(result!.findings, []);
  assert.deepEqual(
    result!.timings.map((t) => [t.command, t.codes]),
    [
      "list",
      "show",
      "show --redact",
      "inspect",
      "events",
      "graph",
      "usage",
      "export --redact",
      "convert --redact",
      "handoff --dry-run",
    ].map((command) => [command, [0, 0]]),
  );
});

test("a long run's commands reach a home its variable names the folder of: OpenCode's, as XDG_DATA_HOME/opencode", async () => {
  // OpenCode alone, so the handoff goes into its home: XDG_DATA_HOME must name the folder holding that home.
  const [result] = await runLongRuns({
    seed: 1,
    indexes: [0],
    workers: 1,
    covered: covered.filter((c) => c.harness.name === "opencode"),
    fixture: "opencode/1.18.33/exec-oneshot.opencode.db",
    bytes: [1024, 1024],
    timeoutMs: 600_000,
    runs: LONG_RUNS.filter((r) => r.name === "digits"),
  });
  assert.match(result!.description, /handed off to opencode$/);
  assert.deepEqual(result!.findings, []);
  assert.deepEqual(
    result!.timings.filter((t) => t.codes.some((code) => code !== 0)).map((t) => [t.command, t.codes]),
    [],
  );
});

test("a long run goes only where a text is stored as read: Gemini CLI's thought, read as **subject** description, is no such place", async () => {
  const name = "gemini-cli/0.61.0/exec-tool.jsonl";
  const world = stage(fixtureCatalog(covered, name)[0]!, tempDir("sb-fuzz-stored-"), covered);
  const where = { registry: builtinRegistry, homes: world.homes, bridgeHome: world.bridgeHome };
  const [listed] = await builtinRegistry.harnesses.find((h) => h.name === "gemini-cli")!.store.list(
    world.homes["gemini-cli"]!,
  );
  const fields = textFields((await load({ ...where, ref: listed!.path })).session);
  const files = sessionFiles(world.root);
  const thought = fields.find((f) => f.kind === "reasoning")!;
  assert.match(thought.value, /^\*\*Running a command\*\* /);
  assert.equal(isStored(files, thought.value), false);
  assert.equal(isStored(files, fields.find((f) => f.kind === "user")!.value), true);
});
