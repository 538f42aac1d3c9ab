/**
 * One unreadable store fails alone: it is named with its own error, and every other store is still listed,
 * searched and checked.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { homeFlags, runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const claudeHome = join(root, "claude");
const claude = seedClaudeHome(claudeHome, "plain-text");

/** A Codex home whose state_5.sqlite keeps the SQLite header but nothing readable after it. */
const codexHome = join(root, "codex");
makeCodexHome(codexHome);
const codexDb = join(codexHome, "state_5.sqlite");
writeFileSync(codexDb, Buffer.concat([Buffer.from("SQLite format 3\u0000"), Buffer.alloc(4080, 0x41)]));

/** A Hermes home whose state.db is not a database at all. */
const hermesHome = join(root, "hermes");
mkdirSync(hermesHome);
const hermesDb = join(hermesHome, "state.db");
writeFileSync(hermesDb, "not a database\n");

const healthyCodex = join(root, "codex-ok");
makeCodexHome(healthyCodex);
const healthyHermes = join(root, "hermes-ok");
mkdirSync(healthyHermes);

const homes = homeFlags({ "claude-code": claudeHome, codex: codexHome, hermes: hermesHome }, root);
const CODEX_BROKEN = `codex store ${codexHome} cannot be read: ${codexDb}: file is not a database`;
const HERMES_BROKEN = `hermes store ${hermesDb} cannot be read: ${hermesDb}: not a SQLite database`;

test("a corrupt Codex or Hermes database does not stop list from showing the other stores", async () => {
  const r = await runCli(["list", ...homes]);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, `session-bridge: ${CODEX_BROKEN}\nsession-bridge: ${HERMES_BROKEN}\n`);
  const rows = r.stdout.trim().split("\n");
  assert.equal(rows.length, 2, r.stdout);
  // One session listed: its shortest unique prefix is the 6-character minimum.
  assert.match(rows[1]!, new RegExp(`^claude-code  ${claude.id.slice(0, 6)}  `));
});

test("list --json names each broken store with its error", async () => {
  const r = await runCliJson(["list", ...homes]);
  assert.equal(r.code, 1);
  assert.deepEqual(r.json.brokenStores, [
    { harness: "codex", store: codexHome, error: `${codexDb}: file is not a database` },
    { harness: "hermes", store: hermesDb, error: `${hermesDb}: not a SQLite database` },
  ]);
  assert.deepEqual((r.json.sessions as { id: string }[]).map((s) => s.id), [claude.id]);
});

test("inspect of a Claude session by id works while the Codex store is corrupt", async () => {
  const r = await runCli(["inspect", claude.id, ...homes]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  assert.match(r.stdout, new RegExp(`^claude-code session ${claude.id} `));
});

test("a session found by id prefix warns that unreadable stores were not searched", async () => {
  const r = await runCli(["inspect", claude.id.slice(0, 8), ...homes]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    r.stderr,
    `session-bridge: warning: ${CODEX_BROKEN}\nsession-bridge: warning: ${HERMES_BROKEN}\n`,
  );
  assert.match(r.stdout, new RegExp(`^claude-code session ${claude.id} `));
});

test("a reference not found says which stores could not be searched (exit 1, not bad input)", async () => {
  const r = await runCli(["inspect", "no-such-session", ...homes]);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    `session-bridge: no session matches "no-such-session"; not searched: ${CODEX_BROKEN}; ${HERMES_BROKEN}\n`,
  );
});

test("drift reports a corrupt Codex store by name and exits 1, still checking the others", async () => {
  const r = await runCliJson([
    "drift",
    "--claude-home",
    claudeHome,
    "--codex-home",
    codexHome,
    "--hermes-home",
    healthyHermes,
  ]);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.json.clean, false);
  assert.equal(r.json.sessions, 1);
  assert.deepEqual(r.json.brokenStores, [
    { harness: "codex", store: codexHome, error: `${codexDb}: file is not a database` },
  ]);
});

test("drift no longer passes over a Hermes state.db that is not a database", async () => {
  const r = await runCli([
    "drift",
    "--claude-home",
    claudeHome,
    "--codex-home",
    healthyCodex,
    "--hermes-home",
    hermesHome,
  ]);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(
    r.stdout,
    `1 sessions checked: 0 unknown shapes, 0 unreadable sessions, 1 unreadable stores\n  ${HERMES_BROKEN}\n`,
  );
});
