/**
 * A dry run plans an id the real run would not use unless told: the plan prints the exact command that
 * carries it out (with --session-id), and running that command writes the planned session and prints the
 * planned resume command.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { claudeFixture } from "./helpers/fixtures.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const codexHome = join(root, "codex");
makeCodexHome(codexHome);

interface Planned {
  target: { id: string; path: string; resumeCommand: string };
  reproduce?: string;
}

test("a dry run prints the command that carries out its plan, and that command uses the planned id", async () => {
  const source = claudeFixture("plain-text");
  const dry = await runCliJson([
    "handoff",
    source,
    "--to",
    "codex",
    "--cwd",
    root,
    "--codex-home",
    codexHome,
    "--dry-run",
  ]);
  assert.equal(dry.code, 0, dry.stderr);
  const plan = dry.json as unknown as Planned;
  assert.equal(
    plan.reproduce,
    `session-bridge handoff ${source} --to codex --cwd ${root} --session-id ${plan.target.id} ` +
      `--codex-home ${codexHome}`,
  );
  assert.equal(existsSync(plan.target.path), false, "a dry run writes nothing");
  const [, ...args] = plan.reproduce!.split(" ");
  const run = await runCliJson(args);
  assert.equal(run.code, 0, run.stderr);
  const done = run.json as unknown as Planned;
  assert.equal(done.target.id, plan.target.id);
  assert.equal(done.target.path, plan.target.path);
  assert.equal(done.target.resumeCommand, plan.target.resumeCommand);
  assert.ok(existsSync(done.target.path));
});

test("the human dry-run output shows the command to carry out the plan before the resume command", async () => {
  const r = await runCli([
    "handoff",
    claudeFixture("plain-text"),
    "--to",
    "codex",
    "--cwd",
    root,
    "--codex-home",
    codexHome,
    "--dry-run",
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(
    r.stdout,
    /carry out exactly this plan with:\n {2}session-bridge handoff .* --session-id [0-9a-f-]{36} /,
  );
  assert.match(r.stdout, /then resume with:\n {2}cd /);
});
