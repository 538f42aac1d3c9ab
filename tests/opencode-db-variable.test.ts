/**
 * OPENCODE_DB names OpenCode's database itself (1.18.33's database module: `:memory:` or an absolute path as
 * it is, else a path relative to its data folder `${XDG_DATA_HOME:-~/.local/share}/opencode`). session-bridge
 * finds the store there too when listing and reading, as the resume command it prints already sets it; a
 * `--opencode-home` flag still names the store. Run through the CLI on a database the real 1.18.33 wrote.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { builtinRegistry, withHarness } from "../lib/harnesses/registry.ts";
import { openCode } from "../lib/harnesses/opencode/index.ts";
import { homeVariables, resolveHomes } from "../lib/harnesses/homes.ts";
import { opencodeFolders } from "../lib/harnesses/opencode/certify/run.ts";
import { userOpencodeHome } from "../lib/harnesses/opencode/certify/user.ts";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { claudeFixture } from "./helpers/fixtures.ts";

const registry = builtinRegistry.harnesses.some((h) => h.name === "opencode")
  ? builtinRegistry
  : withHarness(builtinRegistry, openCode);

const FIXTURE_DB =
  new URL("../fixtures/opencode/1.18.33/tools-subagent.opencode.db", import.meta.url).pathname;
/** A session of the fixture. */
const TOOLS = "ses_dc3d87accffeoT56EYUy2rtl0R";

/** A user whose default OpenCode data folder is empty, and a copy of the fixture's database elsewhere. */
function world() {
  const root = realpathSync(tempDir());
  const elsewhere = join(root, "elsewhere");
  mkdirSync(elsewhere);
  const database = join(elsewhere, "custom.db");
  copyFileSync(FIXTURE_DB, database);
  const env = { HOME: join(root, "user"), XDG_DATA_HOME: join(root, "data") };
  mkdirSync(join(env.XDG_DATA_HOME, "opencode"), { recursive: true });
  return { root, database, env };
}

async function listed(env: Record<string, string>, ...flags: string[]): Promise<string[]> {
  const r = await runCli(["list", "--from", "opencode", "--json", ...flags], env, undefined, registry);
  assert.equal(r.code, 0, r.stderr);
  return (JSON.parse(r.stdout) as { sessions: { id: string }[] }).sessions.map((s) => s.id);
}

test("OPENCODE_DB given as an absolute path is the database list and show read", async () => {
  const w = world();
  assert.deepEqual(await listed(w.env), []);
  const env = { ...w.env, OPENCODE_DB: w.database };
  assert.ok((await listed(env)).includes(TOOLS));
  const shown = await runCli(["show", TOOLS, "--json"], env, undefined, registry);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /TOOLS please/);
});

test("OPENCODE_DB given as a relative path is found in OpenCode's data folder, under XDG_DATA_HOME", async () => {
  const w = world();
  copyFileSync(w.database, join(w.env.XDG_DATA_HOME, "opencode", "other.db"));
  assert.ok((await listed({ ...w.env, OPENCODE_DB: "other.db" })).includes(TOOLS));
  assert.equal(
    resolveHomes([openCode], {}, { ...w.env, OPENCODE_DB: "other.db" }).opencode,
    join(w.env.XDG_DATA_HOME, "opencode", "other.db"),
  );
});

test("--opencode-home names the store whatever OPENCODE_DB says", async () => {
  const w = world();
  assert.deepEqual(
    await listed({ ...w.env, OPENCODE_DB: w.database }, "--opencode-home", join(w.root, "data", "opencode")),
    [],
  );
});

test("a handoff into OpenCode with OPENCODE_DB set lands in that database, and its resume command sets OPENCODE_DB to it", async () => {
  const w = world();
  const cwd = join(w.root, "project");
  mkdirSync(cwd);
  const env = { ...w.env, OPENCODE_DB: w.database, SESSION_BRIDGE_HOME: join(w.root, "bridge") };
  const id = "ses_dc3d00000000DbVariable0001";
  const args = [
    "handoff",
    claudeFixture("thinking-tool-use"),
    "--to",
    "opencode",
    "--cwd",
    cwd,
    "--session-id",
    id,
  ];
  const r = await runCli([...args, "--model", "fake/fake-model", "--json"], env, undefined, registry);
  assert.equal(r.code, 0, r.stderr);
  const target = (JSON.parse(r.stdout) as { target: { path: string; resumeCommand: string } }).target;
  assert.equal(target.path, `${w.database}#${id}`);
  assert.equal(target.resumeCommand, `cd ${cwd} && OPENCODE_DB=${w.database} opencode --session ${id}`);
  assert.ok((await listed(env)).includes(id));
});

test("certify's real-mode OpenCode, in its private home, gets none of the user's OPENCODE_DB: it would reach the user's own database", () => {
  const w = world();
  const folders = opencodeFolders(join(w.root, "private"));
  const env = userOpencodeHome(
    folders,
    { ...w.env, OPENCODE_DB: w.database },
    homeVariables(registry.harnesses),
  );
  assert.equal(env.OPENCODE_DB, undefined);
  assert.equal(env.XDG_DATA_HOME, folders.data);
});
