/**
 * A fourth harness is one folder and one registry line: the toy harness (tests/helpers/toy-harness/, a
 * JSON-lines file per session under its own home) joins the built-in registry with `withHarness`, and the real
 * CLI entry, run in-process with that registry, lists, inspects, converts, hands off to and from it, undoes,
 * and documents its home flag, with no line outside the test tree naming it.
 */
import { test } from "node:test";
import { spawnSync } from "node:child_process";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import { builtinRegistry, findHarness, withHarness } from "../lib/harnesses/registry.ts";
import { readCodexSession } from "../lib/harnesses/codex/read.ts";
import { toy } from "./helpers/toy-harness/index.ts";
import { runCli } from "./helpers/cli.ts";
import { claudeFixture, jsonLines } from "./helpers/fixtures.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { tempDir } from "./helpers/tmp.ts";
import {
  capturedSessions,
  coverage,
  loadHarnessModule,
  MissingMaterial,
} from "./helpers/harness-material.ts";
import { runCampaign } from "../campaigns/fuzz/campaign.ts";
import { summaryLine } from "../campaigns/fuzz/report.ts";
import { scriptArgv } from "../lib/runtime.ts";
import { KIND_NAMES, KINDS, runHostile } from "../campaigns/hostile/campaign.ts";
import { hostileCast } from "../campaigns/hostile/world.ts";

const registry = withHarness(builtinRegistry, toy);

interface HandoffJson {
  op: string;
  target: { harness: string; id: string; path: string; resumeCommand: string };
}

/** The Claude Code session captured from the real binary: a typed prompt, then a Bash call and its output. */
const CLAUDE_SOURCE = claudeFixture("thinking-tool-use");
const TYPED = "Run this for me. TOOL: echo fixture-tool-output";
const COMMAND = "echo fixture-tool-output";

/**
 * A place of its own for each test, so none depends on what another did or in which order they run: every
 * home in a fresh temp folder (the user's real stores are never listed), and the CLI with the toy registered.
 */
function world() {
  const root = tempDir();
  const env = { HOME: join(root, "user") };
  const toyHome = join(root, "toy");
  const codexHome = join(root, "codex");
  makeCodexHome(codexHome);
  const cwd = join(root, "project");
  mkdirSync(cwd, { recursive: true });
  const homes = ["--toy-home", toyHome, "--codex-home", codexHome];
  /** The CLI with the toy registered, its --json document parsed. */
  const toyCli = async (
    args: string[],
  ): Promise<{ code: number; stderr: string; json: Record<string, unknown> }> => {
    const r = await runCli([...args, "--json"], env, undefined, registry);
    return { code: r.code, stderr: r.stderr, json: JSON.parse(r.stdout) as Record<string, unknown> };
  };
  return { root, env, toyHome, cwd, homes, toyCli };
}

/** The real Claude Code session handed off to the toy in `place`. */
async function handOffToToy({ toyCli, cwd, homes }: ReturnType<typeof world>): Promise<HandoffJson> {
  const r = await toyCli(["handoff", CLAUDE_SOURCE, "--to", "toy", "--cwd", cwd, ...homes]);
  assert.equal(r.code, 0, r.stderr);
  return r.json as unknown as HandoffJson;
}

test("--help names the toy's home flag, its variable and default, and the toy among the harnesses", async () => {
  const { env } = world();
  const main = await runCli(["--help"], env, undefined, registry);
  assert.equal(main.code, 0);
  assert.match(
    main.stdout,
    /between Claude Code, Codex CLI, Hermes Agent, Gemini CLI, OpenCode, GitHub Copilot CLI, Pi and Toy\./,
  );
  assert.match(main.stdout, /^ {2}--toy-home DIR {6}Toy home \(default: \$TOY_HOME, else ~\/\.toy\)$/m);
  assert.match(
    main.stdout,
    /^Harness names: claude-code \(alias claude\), codex, hermes, gemini-cli \(alias gemini\), opencode \(alias oc\), copilot-cli \(alias copilot\), pi \(alias pi-coding-agent\), toy \(alias toybox\)\.$/m,
  );
  assert.match(
    main.stdout,
    /^ {2}export +write a session to a JSONL file in its own harness's format \(Hermes Agent: as `hermes sessions export`; OpenCode: as `opencode export`\)$/m,
  );
  const handoff = await runCli(["handoff", "--help"], env, undefined, registry);
  assert.equal(handoff.code, 0);
  assert.match(handoff.stdout, /--toy-home DIR/);
  // Prose that names harnesses names them from the registry: the toy, a file-based harness whose writer
  // copies none of its own sessions record by record, is named among those written anew.
  const exported = await runCli(["export", "--help"], env, undefined, registry);
  assert.equal(exported.code, 0);
  assert.match(
    exported.stdout,
    /^File-based sessions \(Claude Code, Codex CLI and Gemini CLI\) are copied record by record\.$/m,
  );
  assert.match(
    exported.stdout,
    /^Sessions of GitHub Copilot CLI, Pi and Toy are written anew from what session-bridge reads of them\.$/m,
  );
  assert.match(
    exported.stdout,
    /^Database-only sessions \(Hermes Agent\) become a file, as `hermes sessions export` writes it\.$/m,
  );
  // The built-in registry knows no toy: its flag is not there, and the name is refused with the known ones.
  const builtin = await runCli(["--help"], env);
  assert.doesNotMatch(builtin.stdout, /toy/i);
  const refused = await runCli(["list", "--from", "toy"], env);
  assert.equal(refused.code, 2);
  assert.match(
    refused.stderr,
    /unknown harness "toy" \(expected claude-code, codex, hermes, gemini-cli, opencode, copilot-cli or pi\)/,
  );
});

test("a real Claude Code session hands off to the toy: one file in the toy's home, its Bash call in the toy's words", async () => {
  const place = world();
  const { toyHome, cwd } = place;
  const { target } = await handOffToToy(place);
  assert.equal(target.harness, "toy");
  assert.equal(target.path, join(toyHome, "sessions", `${target.id}.jsonl`));
  assert.equal(target.resumeCommand, `cd ${cwd} && TOY_HOME=${toyHome} toy resume ${target.id}`);
  const lines = jsonLines(target.path);
  assert.deepEqual(lines[0], { toy: 1, id: target.id, cwd, title: lines[0]!.title, model: lines[0]!.model });
  const text = readFileSync(target.path, "utf8");
  assert.ok(text.includes(TYPED), "the typed prompt");
  assert.ok(text.includes(`"name":"sh","input":{"cmd":"${COMMAND}"}`), "Bash became the toy's sh");
});

test("list and inspect find the toy session by its home flag, id and file", async () => {
  const place = world();
  const { env, cwd, homes, toyCli } = place;
  const handedToToy = await handOffToToy(place);
  const id = handedToToy.target.id;
  const listed = await toyCli(["list", "--from", "toy", ...homes]);
  assert.equal(listed.code, 0, listed.stderr);
  const rows = listed.json.sessions as { harness: string; id: string; cwd: string }[];
  assert.deepEqual(rows.map((s) => [s.harness, s.id, s.cwd]), [["toy", id, cwd]]);
  const everything = await toyCli(["list", ...homes]);
  assert.ok(
    (everything.json.sessions as { id: string }[]).some((s) => s.id === id),
    "listed with all stores",
  );
  const byId = await runCli(["inspect", id.slice(0, 8), ...homes], env, undefined, registry);
  assert.equal(byId.code, 0, byId.stderr);
  assert.match(byId.stdout, new RegExp(`^toy session ${id}`));
  // A path is recognized as the toy's by the toy's descriptor.
  const byPath = await runCli(["inspect", handedToToy.target.path, ...homes], env, undefined, registry);
  assert.equal(byPath.code, 0, byPath.stderr);
  assert.match(byPath.stdout, new RegExp(`^toy session ${id}`));
});

test("convert renders a real Claude Code session as a toy file, touching no store", async () => {
  const { root, homes, toyCli } = world();
  const out = join(root, "converted.jsonl");
  const r = await toyCli(["convert", CLAUDE_SOURCE, "--to", "toy", "-o", out, ...homes]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((r.json.target as { harness: string }).harness, "toy");
  const lines = jsonLines(out);
  assert.equal(lines[0]!.toy, 1);
  assert.ok(readFileSync(out, "utf8").includes(TYPED));
});

test("the toy session hands on to Codex: its typed prompt and the command reach a rollout Codex reads", async () => {
  const place = world();
  const { cwd, homes, toyCli } = place;
  const { id } = (await handOffToToy(place)).target;
  const r = await toyCli(["handoff", id, "--from", "toy", "--to", "codex", "--cwd", cwd, ...homes]);
  assert.equal(r.code, 0, r.stderr);
  const { target } = r.json as unknown as HandoffJson;
  assert.equal(target.harness, "codex");
  const session = await readCodexSession(target.path);
  const texts = session.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])));
  assert.ok(texts.some((t) => t.includes(TYPED)), "the typed prompt");
  const calls = session.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === "tool_call" ? [b] : [])));
  assert.ok(calls.some((c) => JSON.stringify(c.input).includes(COMMAND)), "the command, as a Codex call");
});

test("undo takes back the handoff to the toy: its file is gone", async () => {
  const place = world();
  const { homes, toyCli } = place;
  const { op, target } = await handOffToToy(place);
  assert.ok(existsSync(target.path));
  const r = await toyCli(["undo", op, ...homes]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(existsSync(target.path), false);
  const listed = await toyCli(["list", "--from", "toy", ...homes]);
  assert.deepEqual(listed.json.sessions, []);
});

test("the demo gives the toy a sandbox home too: it never lists the user's own toy sessions", async () => {
  const { env, cwd } = world();
  const userToy = join(env.HOME, ".toy", "sessions");
  mkdirSync(userToy, { recursive: true });
  const mine = "00000000-0000-4000-8000-00000000707a";
  writeFileSync(join(userToy, `${mine}.jsonl`), `${JSON.stringify({ toy: 1, id: mine, cwd })}\n`);
  const r = await runCli(["demo"], env, undefined, registry);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /=== Sessions found in the sandbox stores/);
  assert.doesNotMatch(r.stdout, new RegExp(mine));
});

test("a registry finds a harness by name or alias in any case, and refuses a second harness by a taken word", () => {
  assert.equal(findHarness(registry, "TOYBOX"), toy);
  assert.equal(findHarness(registry, "Claude").name, "claude-code");
  assert.throws(() => withHarness(registry, toy), /"toy" already names toy/);
  assert.throws(
    () => withHarness(builtinRegistry, { ...toy, aliases: ["claude"] }),
    /"claude" already names claude-code/,
  );
  assert.throws(
    () => withHarness(builtinRegistry, { ...toy, home: { ...toy.home, flag: "codex-home" } }),
    /--codex-home is codex's/,
  );
});

test("nothing outside the test tree names the toy: the descriptor and one registry line are all it took", () => {
  const lib = fileURLToPath(new URL("../lib/", import.meta.url));
  const naming = (readdirSync(lib, { recursive: true }) as string[])
    .filter((f) => f.endsWith(".ts"))
    .filter((f) => /\btoy\b/i.test(readFileSync(join(lib, f), "utf8")));
  assert.deepEqual(naming, []);
});

// The steps past the core (docs/ADDING-A-HARNESS.md): the toy's test material (tests/helpers/toy-harness/
// material.ts and fixtures/), its certify driver, and the campaigns, each taking the toy as a harness module.
const TOY_MODULE = fileURLToPath(new URL("./helpers/toy-harness/module.ts", import.meta.url));

test("step 4: the toy's test material is found beside it, and a harness without material is named with what it lacks", async () => {
  const { registry: extended, covered } = await coverage(builtinRegistry, [
    await loadHarnessModule(TOY_MODULE),
  ]);
  assert.deepEqual(extended.harnesses.map((h) => h.name), [
    ...builtinRegistry.harnesses.map((h) => h.name),
    "toy",
  ]);
  const toyCovered = covered.find((c) => c.harness.name === "toy")!;
  const sessions = await capturedSessions(toyCovered, tempDir());
  assert.deepEqual(sessions.map((s) => s.label), ["toy 1.0.0 thinking-tool-use.jsonl"]);
  const stranger = { ...toy, name: "stranger", aliases: [], home: { ...toy.home, flag: "stranger-home" } };
  await assert.rejects(
    coverage(withHarness(builtinRegistry, stranger)),
    (error: unknown) =>
      error instanceof MissingMaterial &&
      error.message ===
        "harness stranger has no test material: add tests/helpers/harnesses/stranger.ts exporting `material`",
  );
});

test("step 5: the fuzz campaign mutates the toy's captured sessions and every reader and writer answers them", async () => {
  const results = await runCampaign({
    seed: 3,
    indexes: [0, 1, 2, 3, 4, 5],
    workers: 1,
    budgetMs: 600_000,
    fixture: "toy/",
    harnessModules: [TOY_MODULE],
  });
  assert.deepEqual(new Set(results.map((r) => r.fixture)), new Set(["toy/1.0.0/thinking-tool-use.jsonl"]));
  assert.equal(summaryLine(results, 3), "6 mutants, 0 crashes (seed 3)");
  // Placed in the toy's home, found by its listing, and converted to every harness (the toy included).
  assert.ok(results.some((r) => r.loaded > 0 && r.converted >= 4), JSON.stringify(results));
});

const NO_HOSTILE_CASES = ["races", "disk-full", "links", "permissions", "ids", "reads"].flatMap((
  k,
) => [`--${k}`, "0"]);

test("step 6: the crash campaign kills handoffs into the toy and its undo, and finds nothing half-done", () => {
  const [bin, ...pre] = scriptArgv(fileURLToPath(new URL("../campaigns/crash-test.ts", import.meta.url)));
  const r = spawnSync(
    bin!,
    // The kills alone: the toy's hostile cases are step 6b's.
    [
      ...pre,
      // Two kills for each harness, the built-in ones and the toy: the kills are spread evenly over them.
      "--kills",
      String(2 * (builtinRegistry.harnesses.length + 1)),
      "--mb",
      "1",
      "--seed",
      "11",
      "--harness-module",
      TOY_MODULE,
      ...NO_HOSTILE_CASES,
    ],
    { encoding: "utf8", env: { ...process.env, SESSION_BRIDGE_DEBUG: "" } },
  );
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^ {2}toy: an uninterrupted handoff of \S+ passes \d+ crash points/m);
  assert.match(
    r.stdout,
    /^ {2}toy: 2 kills .*, 0 corrupt stores, 0 half sessions visible, 0 sessions undo or recovery cannot see, 0 debris after recovery, 0 targets not restored by undo, 0 ledgers untrue after a killed undo$/m,
  );
});

test("step 6b: the hostile campaigns take the toy from its material alone: its cases join each kind and run clean", async () => {
  const cast = await hostileCast([TOY_MODULE]);
  const toyAt = cast.members.findIndex((m) => m.harness.name === "toy");
  // The built-in harnesses' 121 cases, and the toy's 12: each race, full home and read into or from it; its home
  // unreadable; and, its sessions being files named by their ids, two forced handoffs over a link and its
  // sessions folder read-only under an undo. (Copilot CLI's 13: three races, three full homes, two reads; its
  // session-store.db, session-state/ and a loop in it linked; its home unreadable, and read-only with its index.)
  assert.deepEqual(Object.fromEntries(KIND_NAMES.map((k) => [k, KINDS[k].cases(cast)])), {
    races: 24,
    "disk-full": 24,
    links: 32,
    permissions: 18,
    ids: 19,
    reads: 16,
  });
  // Cases go round the harnesses in turn (the toy's first is its index), and a store's own cases come last.
  const lastTwo = (
    kind: (typeof KIND_NAMES)[number],
  ) => [KINDS[kind].cases(cast) - 2, KINDS[kind].cases(cast) - 1];
  const toyCases = {
    races: [toyAt],
    "disk-full": [toyAt],
    ids: [toyAt],
    reads: [toyAt],
    links: lastTwo("links"),
    permissions: lastTwo("permissions"),
  };
  for (const kind of KIND_NAMES) {
    for (const index of toyCases[kind]) {
      const run = await runHostile(5, cast, {}, () => {}, { kind, index });
      if (run.skipped.length) continue;
      const [done] = run.cases;
      assert.match(done!.label, /\btoy\b|\bToy\b/, `${kind} ${index}`);
      assert.deepEqual(done!.findings, [], `${kind} ${index}: ${done!.label}`);
    }
  }
});

test("step 7: structure-only certify hands the toy's captured sample off to the toy through its driver", async () => {
  const { root, env } = world();
  const toyBin = join(root, "bin", "toy");
  mkdirSync(join(root, "bin"));
  // The toy has no binary: certify only asks the one it is given for its version.
  writeFileSync(toyBin, "#!/bin/sh\necho 'toy 1.0.0'\n", { mode: 0o755 });
  const r = await runCli(
    ["certify", "--structure-only", "--pairs", "toy:toy", "--toy-bin", toyBin, "--json"],
    { ...env, PATH: join(root, "bin") },
    undefined,
    registry,
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const report = JSON.parse(r.stdout) as {
    results: { hops: string[]; outcome: string; reasons: string[] }[];
  };
  assert.deepEqual(report.results.map((row) => [row.hops, row.outcome, row.reasons]), [[
    ["toy", "toy"],
    "pass",
    [],
  ]]);
});
