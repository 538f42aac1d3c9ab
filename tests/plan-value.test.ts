/**
 * A handoff plan is a value: its preview is plain data, nothing is written until commit(), and commit() needs
 * nothing but the plan (a copy of the plan commits as well as the plan itself: no state kept beside it).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { join, relative } from "node:path";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { RefusedError } from "../lib/errors.ts";
import { handoffPlan } from "../lib/harnesses/plan.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { builtinCoverage, preparedHomes } from "./helpers/harness-material.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const now = new Date("2026-12-01T03:00:00Z");
let n = 0;

/** Every registered harness, with its test material (how a home is made ready to take a handoff). */
const covered = await builtinCoverage();

function freshHomes(): { homes: Record<string, string>; cwd: string; bridgeHome: string } {
  const dir = join(root, `w${n++}`);
  const { homes } = preparedHomes(covered, dir);
  const cwd = join(dir, "project");
  mkdirSync(cwd);
  return { homes, cwd, bridgeHome: join(dir, "bridge") };
}

for (const { harness: target } of covered) {
  const name = target.name;
  test(`a ${name} plan previews as plain data, writes nothing, and a copy of it commits`, async () => {
    const { homes, cwd, bridgeHome } = freshHomes();
    const session = await readClaudeSession(claudeFixture("interactive"));
    const options = { id: target.store.newId(now, session), cwd, now, stubOpenCalls: false };
    const home = snapshot(homes[name]!);
    const plan = await target.store.plan(session, options, homes[name]!, false);
    const { commit: _commit, ...preview } = plan;
    assert.equal(preview.refusal, undefined);
    assert.deepEqual(JSON.parse(JSON.stringify(preview)), preview);
    assert.equal(preview.id, options.id);
    assert.deepEqual(snapshot(homes[name]!), home, "planning wrote to the home");
    // The session's own files are new; a file of the harness's own it edits (Gemini's projects.json) is there.
    const edited = preview.files.filter((file) => existsSync(file));
    for (const file of edited) assert.ok(home[relative(homes[name]!, file)], file);
    assert.ok(!edited.includes(preview.path), "the session's file is new");

    const result = await { ...plan }.commit({
      force: false,
      backup: true,
      backupFolder: join(bridgeHome, "backups", "b"),
    });
    assert.deepEqual(result.plan, preview);
    for (const file of preview.files) assert.equal(existsSync(file), true, file);
    // Backups go to the folder the commit was given: one online backup per database written, one saved copy per
    // file edited.
    assert.equal(result.backups.length, preview.databases.length + edited.length);
    for (const backup of result.backups) assert.ok(backup.startsWith(join(bridgeHome, "backups")), backup);
  });

  test(`a refused ${name} plan's commit refuses with the preview's reason`, async () => {
    const { homes, cwd, bridgeHome } = freshHomes();
    const session = await readClaudeSession(claudeFixture("interactive"));
    const options = { id: target.store.newId(now, session), cwd, now, stubOpenCalls: false };
    await (await target.store.plan(session, options, homes[name]!, false)).commit({
      force: false,
      backup: false,
      backupFolder: join(bridgeHome, "backups", "b"),
    });
    const again = await target.store.plan(session, options, homes[name]!, false);
    assert.match(again.refusal ?? "", /already exists|already registered/);
    // The first commit saved the files it edited (Gemini's projects.json, for undo), whatever `backup` said.
    const saved = snapshot(join(bridgeHome, "backups"));
    await assert.rejects(
      again.commit({ force: false, backup: true, backupFolder: join(bridgeHome, "backups", "b") }),
      (error: unknown) => error instanceof RefusedError && error.message === again.refusal,
    );
    // Refused before anything was touched: not even a backup was taken.
    assert.deepEqual(snapshot(join(bridgeHome, "backups")), saved);
  });
}

test("a database lock that outlasts SQLite's own wait during a commit is refused naming the database", async () => {
  const preview = {
    harness: "hermes" as const,
    id: "s1",
    path: "/stores/state.db#s1",
    cwd: "/work",
    files: [],
    databases: ["/stores/state.db"],
    resumeCommand: "hermes chat --resume s1",
  };
  const plan = handoffPlan(preview, () => Promise.reject(new Error("database is locked")));
  await assert.rejects(
    plan.commit({ force: false, backup: true, backupFolder: "/nonexistent/backups/b" }),
    (error: unknown) =>
      error instanceof RefusedError &&
      error.message === "/stores/state.db stayed locked by another process; try again (nothing was changed)",
  );
});
