/**
 * `session-bridge doctor` on temp homes: healthy stores, harness binaries on PATH and a clean session-bridge
 * home exit 0; a store that cannot be read is a problem with its fix (restore session-bridge's own copy when
 * it took one, which makes the store readable again), exit 1; so are a harness binary that does not run and a
 * handoff a crash interrupted.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, copyFileSync, mkdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { seedHermesHome } from "./helpers/hermes.ts";
import { seedGeminiHome } from "./helpers/harnesses/gemini-cli.ts";
import { material as openCodeMaterial } from "./helpers/harnesses/opencode.ts";
import { copilotScenarioSessions, seedCopilotSession } from "./helpers/harnesses/copilot-cli.ts";
import { seedPiHome } from "./helpers/harnesses/pi.ts";
import { FIXTURES } from "./helpers/harness-material.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import type { DoctorCheck, DoctorReport } from "../lib/pipeline/doctor.ts";

/** Stand-in harness binaries that print their version as each real one does. */
function harnessBinaries(dir: string, versions: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  for (const [command, script] of Object.entries(versions)) {
    writeFileSync(join(dir, command), `#!/bin/sh\n${script}\n`);
    chmodSync(join(dir, command), 0o755);
  }
  return dir;
}

const REAL_VERSIONS = {
  claude: `echo "2.1.328 (Claude Code)"`,
  codex: `echo "codex-cli 0.169.0"`,
  hermes: `echo "Hermes Agent v0.19.0"`,
  gemini: `echo "0.61.0"`,
  opencode: `echo "1.18.33"`,
  copilot: `printf 'GitHub Copilot CLI 1.0.102.\nRun %s to check for updates.\n' "'copilot update'"`,
  // Pi 0.73.1 prints its version on stderr when stdin is no terminal.
  pi: `echo "0.73.1" >&2`,
};

interface Machine {
  root: string;
  args: string[];
  env: Record<string, string>;
  hermesDb: string;
  claudeId: string;
}

function machine(versions: Record<string, string> = REAL_VERSIONS): Machine {
  const root = tempDir("sb-doctor-");
  const claude = seedClaudeHome(join(root, "claude"), "plain-text");
  makeCodexHome(join(root, "codex"));
  const hermesDb = seedHermesHome(join(root, "hermes"), "0.19.0", "text-turns");
  seedGeminiHome(join(FIXTURES, "gemini-cli", "0.61.0", "exec-tool.jsonl"), join(root, "gemini"));
  openCodeMaterial.prepareHome(join(root, "opencode"));
  const copilotTools = copilotScenarioSessions(join(FIXTURES, "copilot-cli", "1.0.102")).find((p) =>
    p.includes("/exec-tools/")
  );
  seedCopilotSession(copilotTools!, join(root, "copilot"));
  seedPiHome(join(FIXTURES, "pi", "0.73.1", "exec.jsonl"), join(root, "pi"));
  return {
    root,
    claudeId: claude.id,
    hermesDb,
    args: [
      "--claude-home",
      join(root, "claude"),
      "--codex-home",
      join(root, "codex"),
      "--hermes-home",
      join(root, "hermes"),
      "--gemini-home",
      join(root, "gemini"),
      "--opencode-home",
      join(root, "opencode"),
      "--copilot-home",
      join(root, "copilot"),
      "--pi-home",
      join(root, "pi"),
    ],
    env: {
      HOME: root,
      PATH: `${harnessBinaries(join(root, "bin"), versions)}:/usr/bin:/bin`,
      SESSION_BRIDGE_HOME: join(root, "bridge"),
    },
  };
}

const problems = (report: DoctorReport): DoctorCheck[] => report.checks.filter((c) => c.status === "problem");

test("doctor on healthy homes reports each harness's binary, version and store, and exits 0", async () => {
  const m = machine();
  const r = await runCliJson(["doctor", ...m.args], m.env);
  assert.equal(r.code, 0, r.stdout);
  const report = r.json as unknown as DoctorReport;
  assert.deepEqual(problems(report), []);
  assert.deepEqual(
    report.harnesses.map((h) => [h.name, h.binary, h.version, h.homeExists]),
    [
      ["claude-code", join(m.root, "bin/claude"), "2.1.328", true],
      ["codex", join(m.root, "bin/codex"), "0.169.0", true],
      ["hermes", join(m.root, "bin/hermes"), "0.19.0", true],
      ["gemini-cli", join(m.root, "bin/gemini"), "0.61.0", true],
      ["opencode", join(m.root, "bin/opencode"), "1.18.33", true],
      ["copilot-cli", join(m.root, "bin/copilot"), "1.0.102", true],
      ["pi", join(m.root, "bin/pi"), "0.73.1", true],
    ],
  );
  assert.equal(report.harnesses[0]!.sessions, 1);
  assert.ok(report.harnesses[2]!.sessions! > 0);
  assert.equal(report.harnesses[3]!.sessions, 1);
  // The captured store a prepared OpenCode home holds: a one-shot session and a tool session (its subagent's is
  // listed under it, not apart).
  assert.equal(report.harnesses[4]!.sessions, 2);
  assert.equal(report.harnesses[5]!.sessions, 1);
  assert.deepEqual(report.bridgeHome.interrupted, []);
  const human = await runCli(["doctor", ...m.args], m.env);
  assert.equal(human.code, 0);
  assert.match(
    human.stdout,
    /^Claude Code \(claude-code\)\n {2}ok {6}binary {6}\S+\/bin\/claude 2\.1\.328\n/,
  );
  assert.match(human.stdout, /\nnothing needs attention\n$/);
});

test("doctor reports a corrupted state_5.sqlite with the fix, exit 1; the fix it prints makes the store readable again", async () => {
  const m = machine();
  // A handoff into Codex backs its state_5.sqlite up whole first: that copy is what doctor offers to restore.
  const handoff = await runCli(["handoff", m.claudeId, "--to", "codex", "--cwd", m.root, ...m.args], m.env);
  assert.equal(handoff.code, 0, handoff.stderr);
  const codexDb = join(m.root, "codex", "state_5.sqlite");
  writeFileSync(codexDb, "SQLite format 3\u0000" + "garbage ".repeat(600));

  const r = await runCliJson(["doctor", ...m.args], m.env);
  assert.equal(r.code, 1);
  const found = problems(r.json as unknown as DoctorReport);
  assert.equal(found.length, 1, JSON.stringify(found));
  const [store] = found;
  assert.equal(store!.subject, "codex");
  assert.equal(store!.check, "store");
  assert.match(store!.detail, /codex cannot be read: .*state_5\.sqlite: file is not a database$/);
  const cp = /cp (\S+) (\S+)$/.exec(store!.fix!);
  assert.ok(cp, store!.fix);
  assert.equal(cp[2], codexDb);

  const human = await runCli(["doctor", ...m.args], m.env);
  assert.equal(human.code, 1);
  assert.match(
    human.stdout,
    /^ {2}problem store {7}.*codex cannot be read: .*\n {22}fix: restore session-bridge's copy from /m,
  );
  assert.match(human.stdout, /\n1 problem needs attention\n$/);

  copyFileSync(cp[1]!, cp[2]!);
  assert.equal((await runCli(["doctor", ...m.args], m.env)).code, 0);
});

test("a damaged state.db is never offered a rows backup to put in its place: it gets the integrity check and move-aside fix", async () => {
  const m = machine();
  // A handoff into Hermes backs up only the rows it replaces (lib/store/row-backup.ts), a few rows of the store.
  const handoff = await runCli(["handoff", m.claudeId, "--to", "hermes", "--cwd", m.root, ...m.args], m.env);
  assert.equal(handoff.code, 0, handoff.stderr);
  writeFileSync(m.hermesDb, "SQLite format 3\u0000" + "garbage ".repeat(600));
  const r = await runCliJson(["doctor", ...m.args], m.env);
  assert.equal(r.code, 1);
  const [store] = problems(r.json as unknown as DoctorReport);
  assert.equal(store!.subject, "hermes");
  assert.doesNotMatch(store!.fix!, /\bcp\b/);
  assert.match(store!.fix!, /PRAGMA integrity_check/);
});

test("doctor warns when session-bridge's backups are large and names prune", async () => {
  const m = machine();
  // A whole copy of a large store, as handoffs into Hermes took before backups held only the rows they change.
  const folder = join(m.root, "bridge", "backups", "2026-12-01T00-00-00-000Z-hermes-x-op");
  mkdirSync(folder, { recursive: true });
  const copy = join(folder, "state.db");
  writeFileSync(copy, "");
  truncateSync(copy, 600 * 1024 * 1024);
  writeFileSync(join(folder, "manifest.json"), JSON.stringify({ copies: { "state.db": m.hermesDb } }));
  const r = await runCliJson(["doctor", ...m.args], m.env);
  assert.equal(r.code, 0, "large backups are no problem of the stores");
  const backups = (r.json as unknown as DoctorReport).checks.find((c) => c.check === "backups")!;
  assert.equal(backups.status, "note");
  assert.match(backups.detail, /^1 copy, 600\.0 MB: large/);
  assert.match(backups.fix!, /^`session-bridge prune --keep 0` frees 600\.0 MB/);
});

test("a state.db with no copy of session-bridge's gets the integrity check and move-aside fix", async () => {
  const m = machine();
  writeFileSync(m.hermesDb, "not a database\n");
  const r = await runCliJson(["doctor", ...m.args], m.env);
  assert.equal(r.code, 1);
  const [store] = problems(r.json as unknown as DoctorReport);
  assert.match(store!.fix!, /PRAGMA integrity_check/);
  assert.ok(store!.fix!.includes(`mv ${m.hermesDb} ${m.hermesDb}.broken`), store!.fix);
});

test("a harness binary that does not run is a problem; one that is absent, with its home present, a note", async () => {
  const m = machine({ claude: "echo 'error: broken install' >&2; exit 1", hermes: REAL_VERSIONS.hermes });
  const r = await runCliJson(["doctor", ...m.args], { ...m.env, PATH: join(m.root, "bin") });
  assert.equal(r.code, 1);
  const report = r.json as unknown as DoctorReport;
  const binary = (name: string) => report.checks.find((c) => c.subject === name && c.check === "binary")!;
  assert.equal(binary("claude-code").status, "problem");
  assert.match(binary("claude-code").detail, /does not run: .*broken install/);
  assert.match(binary("claude-code").fix!, /reinstall Claude Code/);
  assert.equal(binary("codex").status, "note");
  assert.equal(binary("codex").detail, "codex is not on PATH");
  assert.equal(binary("hermes").status, "ok");
});

test("a handoff a crash interrupted is a problem whose fix is recover", async () => {
  const m = machine();
  const intents = join(m.root, "bridge/intents");
  mkdirSync(intents, { recursive: true });
  const op = "5b0c3a52-2f6e-4c1e-9d43-7a1f0e6c2b11";
  writeFileSync(
    join(intents, `${op}.json`),
    JSON.stringify({
      op,
      at: "2026-11-30T10:00:00.000Z",
      pid: 2 ** 22 + 7, // above Linux's pid_max: no process has it
      host: "elsewhere.invalid",
      source: { harness: "claude-code", id: m.claudeId },
      target: { harness: "hermes", id: "x", path: m.hermesDb },
      files: [],
      folders: [],
      databases: [],
      rows: [],
      backupFolder: join(m.root, "bridge/backups/none"),
    }),
  );
  const r = await runCliJson(["doctor", ...m.args], m.env);
  assert.equal(r.code, 1);
  const report = r.json as unknown as DoctorReport;
  assert.deepEqual(report.bridgeHome.interrupted, [op]);
  const [interrupted] = problems(report);
  assert.equal(interrupted!.check, "interrupted");
  assert.match(interrupted!.fix!, /^`session-bridge recover`/);
});

test("doctor shows the skill's install state per harness: absent is a note, a link to a removed skill a problem install-skill fixes", async () => {
  const m = machine();
  const skillOf = (report: DoctorReport, name: string) =>
    report.checks.find((c) => c.subject === name && c.check === "skill")!;
  const before = (await runCliJson(["doctor", ...m.args], m.env)).json as unknown as DoctorReport;
  assert.equal(skillOf(before, "codex").status, "note");
  assert.equal(skillOf(before, "codex").fix, "`session-bridge install-skill --harness codex`");

  const installed = await runCli(["install-skill", ...m.args], m.env);
  assert.equal(installed.code, 0, installed.stderr);
  const linked = await runCliJson(["doctor", ...m.args], m.env);
  assert.equal(linked.code, 0);
  const report = linked.json as unknown as DoctorReport;
  assert.deepEqual(report.harnesses.map((h) => [h.name, h.skill?.state]), [
    ["claude-code", "linked"],
    ["codex", "linked"],
    ["hermes", "linked"],
    ["gemini-cli", "linked"],
    ["opencode", "linked"],
    ["copilot-cli", "linked"],
    ["pi", "linked"],
  ]);
  assert.equal(skillOf(report, "hermes").status, "ok");

  rmSync(join(m.root, "bridge/skills"), { recursive: true });
  const dangling = await runCliJson(["doctor", ...m.args], m.env);
  assert.equal(dangling.code, 1);
  const problem = skillOf(dangling.json as unknown as DoctorReport, "claude-code");
  assert.equal(problem.status, "problem");
  assert.match(problem.detail, /links to a skill folder that is gone/);
  const fix = /^`(session-bridge [^`]+)`/.exec(problem.fix!)![1]!.split(" ").slice(1);
  assert.equal((await runCli([...fix, ...m.args], m.env)).code, 0);
  assert.equal((await runCli(["doctor", ...m.args], m.env)).code, 0);
});
