/**
 * The permission posture of a handoff into GitHub Copilot CLI, through the real CLI entry. Copilot's sessions
 * keep no permission mode (each run's flags and environment set it: `copilot --help`, 1.0.102), so the source's
 * posture travels in the printed resume command, never allowing more than the source did: `--plan` for a
 * source that changed nothing, `--allow-all` only under `--permissions keep`, and COPILOT_ALLOW_ALL turned off
 * when the user's environment turns it on. Expectations are written by hand.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { emptyHomes, runCli } from "./helpers/cli.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { codexFixture } from "./helpers/codex.ts";
import { tempDir } from "./helpers/tmp.ts";

const ID = "7e2d4c1a-3b5f-4a6d-9e8f-0a1b2c3d4e5f";

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

/**
 * Hands `source` to a fresh Copilot home; what the printed resume command says before `copilot` and after
 * `--resume=<id>`, and the report's posture entry.
 */
async function intoCopilot(
  source: string,
  from: string,
  extra: string[] = [],
  env: Record<string, string> = {},
) {
  const root = tempDir();
  const home = join(root, "copilot");
  const cwd = join(root, "project");
  mkdirSync(cwd, { recursive: true });
  const r = await runCli(
    [
      "handoff",
      source,
      "--from",
      from,
      "--to",
      "copilot-cli",
      "--cwd",
      cwd,
      "--session-id",
      ID,
      ...emptyHomes(root),
      "--copilot-home",
      home,
      "--json",
      ...extra,
    ],
    { HOME: join(root, "user"), ...env },
  );
  assert.equal(r.code, 0, r.stderr);
  const json = JSON.parse(r.stdout) as { target: { resumeCommand: string }; report: { entries: Entry[] } };
  const command = json.target.resumeCommand;
  const start = `cd ${cwd} && `;
  const resume = `copilot --resume=${ID}`;
  assert.ok(command.startsWith(start) && command.includes(resume), command);
  const [before, flags] = command.slice(start.length).split(resume) as [string, string];
  return {
    variables: before.replace(`COPILOT_HOME=${home} `, ""),
    flags,
    posture: json.report.entries.filter((e) => e.code.startsWith("permission-posture")).map((e) => ({
      code: e.code,
      severity: e.severity,
      detail: e.detail,
    }))[0],
  };
}

const CODEX = 'Codex approval and sandbox policies "';
const COPILOT = "written as GitHub Copilot CLI permission mode (the resume command's flags) \"";

test("Codex never/danger-full-access resumes in Copilot CLI's manual mode, narrowed and reported; --allow-all only with --permissions keep", async () => {
  const narrowed = await intoCopilot(codexFixture("0.169.0", "full-access"), "codex");
  assert.equal(narrowed.flags, "");
  assert.deepEqual(narrowed.posture, {
    code: "permission-posture-narrowed",
    severity: "warning",
    detail: `${CODEX}never danger-full-access" (approval never, sandbox full-access) ${COPILOT}manual" ` +
      "(approval on-request, sandbox workspace-write): no wider than copilot-cli allows when told nothing; " +
      "--permissions keep carries the source's as it was",
  });
  const kept = await intoCopilot(codexFixture("0.169.0", "full-access"), "codex", ["--permissions", "keep"]);
  assert.equal(kept.flags, " --allow-all");
  assert.equal(kept.posture?.code, "permission-posture-widened");
});

test("a Claude Code session in plan mode resumes in Copilot CLI with --plan: the default manual mode would let it change files", async () => {
  const source = restated(
    claudeFixture("edit-tool"),
    '"permissionMode":"default"',
    '"permissionMode":"plan"',
  );
  const { variables, flags, posture } = await intoCopilot(source, "claude-code");
  assert.equal(variables, "");
  assert.equal(flags, " --plan");
  assert.match(
    posture?.detail ?? "",
    /written as GitHub Copilot CLI permission mode \(the resume command's flags\) "plan"/,
  );
});

test("a COPILOT_ALLOW_ALL the user's environment turns on is turned off in the resume command unless the mode allows all", async () => {
  const source = claudeFixture("edit-tool");
  const manual = await intoCopilot(source, "claude-code", [], { COPILOT_ALLOW_ALL: " Yes " });
  assert.equal(manual.variables, "COPILOT_ALLOW_ALL=false ");
  assert.equal(manual.flags, "");
  const off = await intoCopilot(source, "claude-code", [], { COPILOT_ALLOW_ALL: "0" });
  assert.equal(off.variables, "");
  const kept = await intoCopilot(codexFixture("0.169.0", "full-access"), "codex", ["--permissions", "keep"], {
    COPILOT_ALLOW_ALL: "true",
  });
  assert.equal(kept.variables, "");
  assert.equal(kept.flags, " --allow-all");
});
