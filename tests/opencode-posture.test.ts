/**
 * Permission posture into and out of OpenCode: a source's posture becomes the session's own permission rules
 * (`session.permission`, `[{permission, pattern, action}]`), which OpenCode 1.18.33 evaluates after its agent's
 * (the configuration's), the last matching rule deciding; never wider than the source, and said in the report.
 * A session's rules read back as a posture; `opencode run`'s own deny rules (its question and plan tools) state
 * none. Expectations are written by hand from what the rules mean to OpenCode (lib/harnesses/opencode/posture.ts).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { builtinRegistry, withHarness } from "../lib/harnesses/registry.ts";
import { openCode } from "../lib/harnesses/opencode/index.ts";
import { openCodePosture, wildcardMatches } from "../lib/harnesses/opencode/posture.ts";
import { claudePosture } from "../lib/harnesses/claude-code/posture.ts";
import { codexPosture } from "../lib/harnesses/codex/posture.ts";
import { geminiPosture } from "../lib/harnesses/gemini-cli/posture.ts";
import { readOpenCodeSession } from "../lib/harnesses/opencode/read.ts";
import { withinPosture } from "../lib/posture/posture.ts";
import { emptyHomes, homeFlags, runCli } from "./helpers/cli.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";

const registry = builtinRegistry.harnesses.some((h) => h.name === "opencode")
  ? builtinRegistry
  : withHarness(builtinRegistry, openCode);

const FIXTURE_DB =
  new URL("../fixtures/opencode/1.18.33/tools-subagent.opencode.db", import.meta.url).pathname;
const ONE_SHOT = "ses_dc3d8df7cffeNJzKGSR7mICH2t";
const ID = "ses_dc3d00000000Posture0000001";

const rule = (permission: string, action: string) => ({ permission, pattern: "*", action });
const rulesFor = (words: string) => JSON.parse(openCodePosture.words(claudePosture.toPosture(words)!));

test("Claude Code's modes become OpenCode session rules for the shell, edits and web fetches, none wider", () => {
  assert.deepEqual(rulesFor("default"), [rule("bash", "ask"), rule("edit", "ask"), rule("webfetch", "ask")]);
  assert.deepEqual(rulesFor("acceptEdits"), [
    rule("bash", "ask"),
    rule("edit", "allow"),
    rule("webfetch", "ask"),
  ]);
  assert.deepEqual(rulesFor("plan"), [rule("bash", "ask"), rule("edit", "deny"), rule("webfetch", "ask")]);
  assert.deepEqual(rulesFor("bypassPermissions"), [
    rule("bash", "allow"),
    rule("edit", "allow"),
    rule("webfetch", "allow"),
  ]);
});

test("a Codex posture that never asks but sandboxes the shell asks before the shell in OpenCode, which cannot sandbox it", () => {
  const posture = codexPosture.toPosture("never workspace-write")!;
  assert.deepEqual(JSON.parse(openCodePosture.words(posture)), [
    rule("bash", "ask"),
    rule("edit", "allow"),
    rule("webfetch", "ask"),
  ]);
  assert.deepEqual(JSON.parse(openCodePosture.words(codexPosture.toPosture("never read-only")!)), [
    rule("bash", "deny"),
    rule("edit", "deny"),
    rule("webfetch", "deny"),
  ]);
});

test("every posture the other harnesses state is written as OpenCode rules that mean no more than it", () => {
  const postures = [
    ...["default", "acceptEdits", "plan", "bypassPermissions"].map((w) => claudePosture.toPosture(w)!),
    ...["untrusted", "on-request", "on-failure", "never"].flatMap((a) =>
      ["read-only", "workspace-write", "danger-full-access"].map((s) => codexPosture.toPosture(`${a} ${s}`)!)
    ),
    ...["default", "auto_edit", "yolo", "plan"].map((w) => geminiPosture.toPosture(w)!),
  ];
  for (const posture of postures) {
    const back = openCodePosture.toPosture(openCodePosture.words(posture));
    assert.ok(back && withinPosture(back, posture), `${JSON.stringify(posture)} → ${JSON.stringify(back)}`);
  }
});

test("OpenCode rules read by meaning: the last matching rule decides, a wildcard matches, an unnamed permission asks", () => {
  const read = (rules: object[]) => openCodePosture.toPosture(JSON.stringify(rules));
  assert.deepEqual(read([rule("*", "allow")]), { approval: "never", sandbox: "full-access" });
  assert.deepEqual(read([rule("*", "allow"), rule("edit", "deny")]), {
    approval: "never",
    sandbox: "full-access",
  });
  assert.deepEqual(read([rule("bash", "allow"), rule("*", "ask")]), {
    approval: "always",
    sandbox: "workspace-write",
  });
  // The shell unnamed: the configuration decides it, taken as asking.
  assert.deepEqual(read([rule("edit", "deny")]), { approval: "always", sandbox: "read-only" });
  assert.deepEqual(read([rule("bash", "ask"), rule("edit", "allow")]), {
    approval: "always",
    sandbox: "workspace-write",
    autoEdits: true,
  });
  // A rule for some commands only says nothing of every use of the shell.
  assert.deepEqual(read([{ permission: "bash", pattern: "git *", action: "allow" }, rule("edit", "ask")]), {
    approval: "always",
    sandbox: "workspace-write",
  });
  // opencode run's own rules name neither the shell nor edits: no posture; nor does what is no rule list.
  assert.equal(read([rule("question", "deny"), rule("plan_enter", "deny")]), undefined);
  assert.equal(openCodePosture.toPosture("not json"), undefined);
  assert.equal(openCodePosture.toPosture('{"bash":"ask"}'), undefined);
});

test("OpenCode's permission wildcard: * any run, ? one character, linear on a long hostile rule", () => {
  assert.ok(wildcardMatches("*", "bash"));
  assert.ok(wildcardMatches("ba?h", "bash"));
  assert.ok(wildcardMatches("b*", "bash"));
  assert.ok(!wildcardMatches("bas", "bash"));
  assert.ok(!wildcardMatches("edit", "bash"));
  assert.ok(!wildcardMatches(`${"*a".repeat(100_000)}b`, "bash"));
});

/** A Claude Code session stated in `mode`, handed into a copy of a database OpenCode 1.18.33 wrote. */
async function handoff(mode: string) {
  const root = realpathSync(tempDir());
  const source = join(root, "source.jsonl");
  const lines = readFileSync(claudeFixture("plain-text"), "utf8");
  writeFileSync(source, lines.replaceAll('"permissionMode":"default"', `"permissionMode":"${mode}"`));
  const home = join(root, "data", "opencode");
  mkdirSync(home, { recursive: true });
  const database = join(home, "opencode.db");
  copyFileSync(FIXTURE_DB, database);
  const cwd = join(root, "project");
  mkdirSync(cwd);
  const homes = registry === builtinRegistry
    ? homeFlags({ opencode: home }, root)
    : [...emptyHomes(root), "--opencode-home", home];
  const r = await runCli(
    [
      "handoff",
      source,
      "--to",
      "opencode",
      "--cwd",
      cwd,
      "--session-id",
      ID,
      "--model",
      "fake/fake-model",
      ...homes,
      "--json",
    ],
    { HOME: join(root, "user"), SESSION_BRIDGE_HOME: join(root, "bridge") },
    undefined,
    registry,
  );
  assert.equal(r.code, 0, r.stderr);
  const db = new DatabaseSync(database, { readOnly: true });
  const row = db.prepare("SELECT permission FROM session WHERE id = ?").get(ID) as {
    permission: string | null;
  };
  db.close();
  return { report: r.stdout, permission: row.permission, database };
}

test("a Claude Code session in plan mode lands in OpenCode with edits denied and the shell asking, and the report says so", async () => {
  const h = await handoff("plan");
  assert.deepEqual(JSON.parse(h.permission!), [
    rule("bash", "ask"),
    rule("edit", "deny"),
    rule("webfetch", "ask"),
  ]);
  assert.match(
    h.report,
    /Claude Code permission mode \\"plan\\" \(approval on-request, sandbox read-only\) written as OpenCode session permission rules/,
  );
  // Read back from the database, the session states a posture no wider than plan mode.
  const session = await readOpenCodeSession(`${h.database}#${ID}`);
  const read = openCodePosture.toPosture(session.meta.permissionMode!);
  assert.ok(read && withinPosture(read, claudePosture.toPosture("plan")!));
});

test("a source stating no posture leaves OpenCode's session rules empty: its configuration applies", async () => {
  const h = await handoff("no-such-mode");
  assert.equal(h.permission, null);
});

test("a session `opencode run` wrote, whose rules deny only its question and plan tools, states no posture", async () => {
  const session = await readOpenCodeSession(`${FIXTURE_DB}#${ONE_SHOT}`);
  assert.equal(session.meta.permissionMode, undefined);
});

test("an OpenCode session copied into another OpenCode keeps its own permission rules as they were", async () => {
  const root = realpathSync(tempDir());
  const from = join(root, "from.db");
  copyFileSync(FIXTURE_DB, from);
  const rules = JSON.stringify([
    rule("*", "allow"),
    { permission: "bash", pattern: "rm *", action: "deny" },
    rule("edit", "ask"),
  ]);
  const db = new DatabaseSync(from);
  db.prepare("UPDATE session SET permission = ? WHERE id = ?").run(rules, ONE_SHOT);
  db.close();
  const home = join(root, "data", "opencode");
  mkdirSync(home, { recursive: true });
  copyFileSync(FIXTURE_DB, join(home, "opencode.db"));
  const homes = registry === builtinRegistry
    ? homeFlags({ opencode: home }, root)
    : [...emptyHomes(root), "--opencode-home", home];
  const r = await runCli(
    [
      "handoff",
      `${from}#${ONE_SHOT}`,
      "--to",
      "opencode",
      "--session-id",
      ID,
      "--cwd",
      root,
      ...homes,
      "--json",
    ],
    { HOME: join(root, "user"), SESSION_BRIDGE_HOME: join(root, "bridge") },
    undefined,
    registry,
  );
  assert.equal(r.code, 0, r.stderr);
  const copy = new DatabaseSync(join(home, "opencode.db"), { readOnly: true });
  const row = copy.prepare("SELECT permission FROM session WHERE id = ?").get(ID) as { permission: string };
  copy.close();
  assert.equal(row.permission, rules);
});
