/**
 * Named conversations on the CLI, on real captured stores and a private registry file: `alias` bind, list,
 * resolve, rename and forget; `@NAME` as a <session> (ambiguous across harnesses unless --from chooses); `list`
 * showing names; a handoff carrying the name to the new conversation, and undo putting the registry back.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { homeFlags, runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir("sb-alias-");
const claudeHome = join(root, "claude");
const codexHome = join(root, "codex");
const hermesHome = join(root, "hermes");
const claude = seedClaudeHome(claudeHome, "plain-text");
makeCodexHome(codexHome);
const codex = seedCodexThread(codexHome, "0.169.0", "text-turns");
const homes = homeFlags({ "claude-code": claudeHome, codex: codexHome, hermes: hermesHome }, root);

/** A project folder and a registry file of its own for each test. */
function project(): { dir: string; env: Record<string, string>; file: string } {
  const dir = tempDir("sb-alias-project-");
  const file = join(dir, "registry", "sessions.json");
  return { dir, file, env: { LAZYBRIDGE_SESSIONS_FILE: file } };
}

test("alias bind, resolve, list, rename and forget, in the current folder's scope", async () => {
  const { dir, env, file } = project();
  const bound = await runCli(["alias", "bind", "reviewer", codex.id.slice(0, 12), ...homes], env, dir);
  assert.equal(bound.code, 0, bound.stderr);
  assert.match(bound.stdout, new RegExp(`@reviewer names codex ${codex.id}`));
  assert.equal((await runCli(["alias", "resolve", "reviewer"], env, dir)).stdout, `${codex.id}\n`);
  const listed = await runCliJson(["alias", "list"], env, dir);
  const aliases = listed.json.aliases as { name: string; harness: string; scope: string }[];
  assert.deepEqual(aliases.map((a) => [a.name, a.harness, a.scope]), [["reviewer", "codex", dir]]);
  // Another folder has no such name.
  const elsewhere = await runCli(["alias", "resolve", "reviewer"], env, root);
  assert.equal(elsewhere.code, 2);
  assert.match(elsewhere.stderr, /no conversation is named @reviewer in /);
  assert.equal((await runCli(["alias", "rename", "reviewer", "critic"], env, dir)).code, 0);
  assert.equal((await runCli(["alias", "resolve", "critic"], env, dir)).stdout, `${codex.id}\n`);
  assert.equal((await runCli(["alias", "forget", "critic"], env, dir)).code, 0);
  assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), { sessions: { codex: {} }, version: 1 });
});

test("alias refuses a bad name, a taken rename target and an unknown action, each in one line", async () => {
  const { dir, env } = project();
  const bad = await runCli(["alias", "bind", "2nd", codex.id, "--kind", "codex"], env, dir);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /invalid session alias '2nd'/);
  await runCli(["alias", "bind", "a", "id-a", "--kind", "codex"], env, dir);
  await runCli(["alias", "bind", "b", "id-b", "--kind", "codex"], env, dir);
  const taken = await runCli(["alias", "rename", "a", "b"], env, dir);
  assert.equal(taken.code, 1);
  assert.match(taken.stderr, /codex session alias 'b' already exists in scope .*; forget it first/);
  const action = await runCli(["alias", "frob"], env, dir);
  assert.equal(action.code, 2);
  assert.equal(action.stderr.trim().split("\n").length, 1);
});

test("@NAME is a <session> everywhere; bound for two harnesses it is ambiguous unless --from chooses", async () => {
  const { dir, env } = project();
  await runCli(["alias", "bind", "reviewer", codex.id, ...homes], env, dir);
  const one = await runCliJson(["inspect", "@reviewer", ...homes], env, dir);
  assert.equal((one.json.session as { id: string }).id, codex.id);
  await runCli(["alias", "bind", "reviewer", claude.id, ...homes], env, dir);
  const both = await runCli(["inspect", "@reviewer", ...homes], env, dir);
  assert.equal(both.code, 2);
  assert.match(
    both.stderr,
    /@reviewer names 2 conversations in .*claude-code .*codex .*--from claude-code or --from codex/,
  );
  const chosen = await runCliJson(["inspect", "@reviewer", "--from", "claude-code", ...homes], env, dir);
  assert.equal((chosen.json.session as { id: string }).id, claude.id);
  const rows = (await runCliJson(["list", ...homes], env, dir)).json.sessions as {
    id: string;
    aliases?: string[];
  }[];
  assert.deepEqual(rows.find((r) => r.id === codex.id)?.aliases, ["reviewer"]);
  assert.match((await runCli(["list", ...homes], env, dir)).stdout, /NAME[\s\S]*@reviewer/);
});

test("a handoff binds the source's name for the target to the new id, keeps the source's, and undo restores the registry byte for byte", async () => {
  const { dir, env, file } = project();
  await runCli(["alias", "bind", "reviewer", codex.id, ...homes], env, dir);
  const before = readFileSync(file);
  const done = await runCliJson(
    ["handoff", "@reviewer", "--to", "claude-code", "--cwd", dir, ...homes],
    env,
    dir,
  );
  assert.equal(done.code, 0, JSON.stringify(done.json));
  const target = done.json.target as { id: string };
  assert.deepEqual(
    (done.json.aliases as { name: string; kind: string }[]).map((a) => [a.name, a.kind]),
    [["reviewer", "claude"]],
  );
  const names = JSON.parse(readFileSync(file, "utf8")).sessions;
  assert.equal(names.claude[dir].reviewer.native_id, target.id);
  assert.equal(names.codex[dir].reviewer.native_id, codex.id);
  const undone = await runCli(["undo", done.json.op as string], env, dir);
  assert.equal(undone.code, 0, undone.stderr);
  assert.match(undone.stdout, /@reviewer \(claude\) is free again/);
  assert.deepEqual(readFileSync(file), before);
});

test("handoff --alias names the new conversation even when the source had no name", async () => {
  const { dir, env, file } = project();
  const done = await runCliJson(
    ["handoff", codex.id, "--to", "claude-code", "--cwd", dir, "--alias", "migration", ...homes],
    env,
    dir,
  );
  assert.equal(done.code, 0, JSON.stringify(done.json));
  const names = JSON.parse(readFileSync(file, "utf8")).sessions;
  assert.equal(names.claude[dir].migration.native_id, (done.json.target as { id: string }).id);
  assert.equal(names.codex, undefined);
  const bad = await runCli(["handoff", codex.id, "--to", "claude-code", "--alias", "-x", ...homes], env, dir);
  assert.equal(bad.code, 2);
});

test("a registry that cannot be written warns and never fails the handoff", async () => {
  const dir = tempDir("sb-alias-project-");
  writeFileSync(join(dir, "not-a-folder"), "");
  const env = { LAZYBRIDGE_SESSIONS_FILE: join(dir, "not-a-folder", "sessions.json") };
  const done = await runCli(
    ["handoff", codex.id, "--to", "claude-code", "--cwd", dir, "--alias", "migration", ...homes],
    env,
    dir,
  );
  assert.equal(done.code, 0, done.stderr);
  assert.match(done.stderr, /warning: could not bind @migration to claude-code /);
  assert.match(done.stdout, /resume with:/);
});

test("a damaged registry is moved aside with a warning, and list still lists", async () => {
  const { dir, env, file } = project();
  mkdirSync(join(dir, "registry"));
  writeFileSync(file, "{not json");
  const listed = await runCli(["list", ...homes], env, dir);
  assert.equal(listed.code, 0);
  assert.match(
    listed.stderr,
    /warning: SessionRegistry: .* is not a valid registry .*moved it to .*sessions\.json\.corrupt/,
  );
  assert.deepEqual(readdirSync(join(dir, "registry")), ["sessions.json.corrupt"]);
});

test("alias bind --model --effort records both with the name, as LazyBridge's bind does; a bind without them clears them", async () => {
  const { dir, env, file } = project();
  const entry = () => JSON.parse(readFileSync(file, "utf8")).sessions.codex[dir].planner;
  const bound = await runCli(
    ["alias", "bind", "planner", "id-1", "--kind", "codex", "--model", "gpt-5.5", "--effort", "high"],
    env,
    dir,
  );
  assert.equal(bound.code, 0, bound.stderr);
  assert.deepEqual([entry().native_id, entry().model, entry().effort], ["id-1", "gpt-5.5", "high"]);
  await runCli(["alias", "bind", "planner", "id-1", "--kind", "codex"], env, dir);
  assert.deepEqual([entry().model, entry().effort], [null, null]);
});
