/**
 * The permission posture of a handoff into Gemini CLI, through the real CLI entry. Gemini's sessions keep no
 * approval mode (it is a flag of each run), so the source's posture travels in the printed resume command as
 * `--approval-mode`, never allowing more than the source did, and a session read from Gemini has none to carry.
 * What each mode allows is read from the policies 0.61.0 ships (bundle/policies/write.toml, yolo.toml,
 * plan.toml): `default` asks before every shell command and every change. Expectations are written by hand.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { emptyHomes, runCli } from "./helpers/cli.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { codexFixture } from "./helpers/codex.ts";
import { tempDir } from "./helpers/tmp.ts";

const ID = "5d1c9e0a-2b3f-4c4d-8e5f-6a7b8c9d0e1f";

interface Entry {
  code: string;
  severity: string;
  detail: string;
}

/** A source fixture with its recorded posture words replaced, as the harness would have written them. */
function restated(source: string, from: string, to: string): string {
  const path = join(tempDir(), "restated.jsonl");
  const text = readFileSync(source, "utf8");
  assert.ok(text.includes(from), `${source} holds ${from}`);
  writeFileSync(path, text.replaceAll(from, to));
  return path;
}

/** Hands `source` to a fresh Gemini home; the printed resume command and the report's posture entries. */
async function intoGemini(source: string, from: string, settings?: object, extra: string[] = []) {
  const root = tempDir();
  const home = join(root, "gemini");
  const cwd = join(root, "project");
  mkdirSync(cwd, { recursive: true });
  if (settings) {
    mkdirSync(join(home, ".gemini"), { recursive: true });
    writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(settings));
  }
  const r = await runCli(
    [
      "handoff",
      source,
      "--from",
      from,
      "--to",
      "gemini-cli",
      "--cwd",
      cwd,
      "--session-id",
      ID,
      ...emptyHomes(root),
      "--gemini-home",
      home,
      "--json",
      ...extra,
    ],
    { HOME: join(root, "user") },
  );
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout) as {
    target: { resumeCommand: string };
    report: { entries: Entry[] };
  };
  const prefix = `cd ${cwd} && GEMINI_CLI_HOME=${home} gemini --resume ${ID}`;
  assert.ok(json.target.resumeCommand.startsWith(prefix), json.target.resumeCommand);
  return {
    flags: json.target.resumeCommand.slice(prefix.length),
    posture: json.report.entries.filter((e) => /^(?:permission-posture|gemini-plan)/.test(e.code)).map((
      e,
    ) => ({
      code: e.code,
      severity: e.severity,
      detail: e.detail,
    })),
  };
}

const CODEX = 'Codex approval and sandbox policies "';
const GEMINI = "written as Gemini CLI approval mode (the resume command's --approval-mode) \"";

test("Codex never/danger-full-access resumes in Gemini CLI's default mode, narrowed and reported; yolo only with --permissions keep", async () => {
  const narrowed = await intoGemini(codexFixture("0.169.0", "full-access"), "codex");
  assert.equal(narrowed.flags, " --approval-mode default");
  assert.deepEqual(narrowed.posture, [{
    code: "permission-posture-narrowed",
    severity: "warning",
    detail: `${CODEX}never danger-full-access" (approval never, sandbox full-access) ${GEMINI}default" ` +
      "(approval always, sandbox workspace-write): no wider than gemini-cli allows when told nothing; " +
      "--permissions keep carries the source's as it was",
  }]);
  const { flags, posture } = await intoGemini(codexFixture("0.169.0", "full-access"), "codex", undefined, [
    "--permissions",
    "keep",
  ]);
  assert.equal(flags, " --approval-mode yolo");
  assert.deepEqual(posture, [{
    code: "permission-posture-widened",
    severity: "warning",
    detail: `${CODEX}never danger-full-access" (approval never, sandbox full-access) ${GEMINI}yolo": ` +
      "--permissions keep: gemini-cli lets the agent do more unasked than its own default (approval always, " +
      "sandbox workspace-write), as it did in codex",
  }]);
});

test("Codex never/workspace-write is Gemini CLI's default mode, and with --permissions keep auto_edit, never yolo", async () => {
  const narrowed = await intoGemini(codexFixture("0.169.0", "apply-patch"), "codex");
  assert.equal(narrowed.flags, " --approval-mode default");
  assert.equal(narrowed.posture[0]?.code, "permission-posture-narrowed");
  const { flags, posture } = await intoGemini(codexFixture("0.169.0", "apply-patch"), "codex", undefined, [
    "--permissions",
    "keep",
  ]);
  assert.equal(flags, " --approval-mode auto_edit");
  assert.deepEqual(posture, [{
    code: "permission-posture-changed",
    severity: "loss",
    detail: `${CODEX}never workspace-write" (approval never, sandbox workspace-write) ${GEMINI}auto_edit", ` +
      "which means approval always, sandbox workspace-write, edits accepted without asking, allowing no more " +
      "than codex did: gemini-cli has no exact equivalent",
  }]);
});

test("Codex on-request/danger-full-access is narrowed to default in Gemini CLI: yolo would stop asking", async () => {
  const source = restated(
    codexFixture("0.169.0", "full-access"),
    '"approval_policy":"never"',
    '"approval_policy":"on-request"',
  );
  const { flags, posture } = await intoGemini(source, "codex");
  assert.equal(flags, " --approval-mode default");
  assert.deepEqual(posture, [{
    code: "permission-posture-changed",
    severity: "loss",
    detail:
      `${CODEX}on-request danger-full-access" (approval on-request, sandbox full-access) ${GEMINI}default", ` +
      "which means approval always, sandbox workspace-write, allowing no more than codex did: gemini-cli has no " +
      "exact equivalent",
  }]);
});

test("Codex untrusted/workspace-write is Gemini CLI's default exactly: both ask before every command", async () => {
  const source = restated(
    codexFixture("0.169.0", "apply-patch"),
    '"approval_policy":"never"',
    '"approval_policy":"untrusted"',
  );
  const { flags, posture } = await intoGemini(source, "codex");
  assert.equal(flags, " --approval-mode default");
  assert.deepEqual(posture, [{
    code: "permission-posture-translated",
    severity: "info",
    detail: `${CODEX}untrusted workspace-write" (approval always, sandbox workspace-write) ${GEMINI}default"`,
  }]);
});

test("a read-only Codex session resumes in Gemini CLI's plan mode", async () => {
  const { flags, posture } = await intoGemini(codexFixture("0.169.0", "text-turns"), "codex");
  assert.equal(flags, " --approval-mode plan");
  assert.deepEqual(posture, [{
    code: "permission-posture-changed",
    severity: "loss",
    detail: `${CODEX}never read-only" (approval never, sandbox read-only) ${GEMINI}plan", which means ` +
      "approval on-request, sandbox read-only, allowing no more than codex did: gemini-cli has no exact equivalent",
  }]);
});

test("Claude Code's default mode states --approval-mode default, so the user's own default setting cannot widen it", async () => {
  const { flags, posture } = await intoGemini(claudeFixture("thinking-tool-use"), "claude-code");
  assert.equal(flags, " --approval-mode default");
  assert.deepEqual(posture, [{
    code: "permission-posture-changed",
    severity: "loss",
    detail: 'Claude Code permission mode "default" (approval on-request, sandbox workspace-write) ' +
      `${GEMINI}default", which means approval always, sandbox workspace-write, allowing no more than ` +
      "claude-code did: gemini-cli has no exact equivalent",
  }]);
});

test("Claude Code's bypassPermissions (with --permissions keep) and plan modes are Gemini CLI's yolo and plan", async () => {
  const bypass = await intoGemini(claudeFixture("interrupted-tool-call"), "claude-code", undefined, [
    "--permissions",
    "keep",
  ]);
  assert.equal(bypass.flags, " --approval-mode yolo");
  assert.equal(bypass.posture[0]?.code, "permission-posture-widened");
  const source = restated(
    claudeFixture("thinking-tool-use"),
    '"permissionMode":"default"',
    '"permissionMode":"plan"',
  );
  const plan = await intoGemini(source, "claude-code");
  assert.equal(plan.flags, " --approval-mode plan");
  assert.deepEqual(plan.posture, [{
    code: "permission-posture-translated",
    severity: "info",
    detail: 'Claude Code permission mode "plan" (approval on-request, sandbox read-only) ' + `${GEMINI}plan"`,
  }]);
});

test("a plan-mode handoff into a Gemini CLI home whose settings turn plan mode off warns that Gemini would run it in default mode", async () => {
  const source = restated(
    claudeFixture("thinking-tool-use"),
    '"permissionMode":"default"',
    '"permissionMode":"plan"',
  );
  const { flags, posture } = await intoGemini(source, "claude-code", {
    general: { plan: { enabled: false } },
  });
  assert.equal(flags, " --approval-mode plan");
  assert.deepEqual(posture.map((e) => [e.code, e.severity]), [
    ["permission-posture-translated", "info"],
    ["gemini-plan-disabled", "warning"],
  ]);
  assert.match(
    posture[1]!.detail,
    /^the target home's settings turn Gemini CLI's plan mode off \(general\.plan\.enabled: false in \/.*settings\.json\): it would resume in default mode, which asks before each change but may make it; turn plan mode on there before resuming$/,
  );
});

test("a posture without an equivalent (Claude Code's auto mode) adds no --approval-mode and is reported lost", async () => {
  const { flags, posture } = await intoGemini(claudeFixture("interactive"), "claude-code");
  assert.equal(flags, "");
  assert.deepEqual(posture, [{
    code: "permission-posture",
    severity: "loss",
    detail: 'permission posture "auto" has no equivalent in gemini-cli',
  }]);
});

test("a Gemini CLI session carries no posture: a handoff from it reports none", async () => {
  const root = tempDir();
  const cwd = join(root, "project");
  mkdirSync(cwd, { recursive: true });
  const r = await runCli(
    [
      "handoff",
      fileURLToPath(new URL("../fixtures/gemini-cli/0.61.0/exec-tool.jsonl", import.meta.url)),
      "--from",
      "gemini-cli",
      "--to",
      "claude-code",
      "--cwd",
      cwd,
      ...emptyHomes(root),
      "--json",
    ],
    { HOME: join(root, "user") },
  );
  assert.equal(r.code, 0, r.stderr);
  const { report } = JSON.parse(r.stdout) as { report: { entries: Entry[] } };
  assert.deepEqual(report.entries.filter((e) => e.code.startsWith("permission-posture")), []);
});
