/**
 * The audit trail: handoff, undo, prune, alias bind and install-skill record what they changed in
 * $SESSION_BRIDGE_HOME/events.db (LazyBridge's events table), secrets redacted; `log` shows it; a trail that
 * cannot be written warns and the command still succeeds. Handoffs and undos made through the TUI's functions
 * (lib/tui/data.ts) are recorded the same way.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { homeFlags, runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { carryOutHandoff, carryOutUndo, planHandoff, type TuiContext } from "../lib/tui/data.ts";
import { listedRows } from "./helpers/tui-homes.ts";
import { stores } from "../lib/mod.ts";

const root = tempDir("sb-audit-");
const [claudeHome, codexHome, hermesHome] = [join(root, "claude"), join(root, "codex"), join(root, "hermes")];
makeCodexHome(codexHome);
const codex = seedCodexThread(codexHome, "0.169.0", "text-turns");
const homes = homeFlags({ "claude-code": claudeHome, codex: codexHome, hermes: hermesHome }, root);
/** An API key in a folder name: it reaches the handoff's cwd and file paths, and must not reach the trail. */
const TOKEN = `sk-ant-api03-${"A1b2C3d4E5".repeat(4)}`;

function machine() {
  const dir = tempDir("sb-audit-run-");
  const bridge = join(dir, "bridge");
  const env = {
    HOME: dir,
    SESSION_BRIDGE_HOME: bridge,
    LAZYBRIDGE_SESSIONS_FILE: join(dir, "sessions.json"),
    CLAUDE_CONFIG_DIR: "",
    CODEX_HOME: "",
    HERMES_HOME: "",
  };
  return { dir, bridge, env };
}

test("handoff, alias bind, undo, prune and install-skill are recorded in events.db, redacted, and log shows them", async () => {
  const { dir, bridge, env } = machine();
  const project = join(dir, `work-${TOKEN}`);
  mkdirSync(project);
  mkdirSync(join(dir, ".claude"));
  const done = await runCliJson(
    ["handoff", codex.id, "--to", "claude-code", "--cwd", project, ...homes],
    env,
    dir,
  );
  assert.equal(done.code, 0, done.stderr);
  assert.equal((await runCli(["alias", "bind", "review", codex.id, ...homes], env, dir)).code, 0);
  // A handoff into the same store backs its database up; once undone, the backup is only history: prunable.
  const copy = await runCliJson(["handoff", codex.id, "--to", "codex", "--cwd", project, ...homes], env, dir);
  assert.equal(copy.code, 0, copy.stderr);
  const undone = await runCli(["undo", copy.json.op as string], env, dir);
  assert.equal(undone.code, 0, undone.stderr);
  assert.equal((await runCli(["prune", "--keep", "0"], env, dir)).code, 0);
  assert.equal((await runCli(["install-skill", "--harness", "claude-code"], env, dir)).code, 0);

  // Read the table directly: LazyBridge's columns, this tool's session id, one row per change, in order.
  const db = new DatabaseSync(join(bridge, "events.db"), { readOnly: true });
  const rows = db.prepare("SELECT session_id, run_id, event_type, payload FROM events ORDER BY id").all();
  db.close();
  assert.deepEqual(rows.map((r) => r.event_type), [
    "handoff",
    "alias_bind",
    "handoff",
    "undo",
    "prune",
    "install_skill",
  ]);
  assert.ok(rows.every((r) => r.session_id === "session-bridge"));
  assert.equal(rows[0]!.run_id, done.json.op);
  assert.equal(rows[3]!.run_id, copy.json.op, "the undo names the handoff it took back");
  const handoff = JSON.parse(String(rows[0]!.payload)) as {
    source: { id: string };
    target: { cwd: string };
    files: string[];
  };
  assert.equal(handoff.source.id, codex.id);
  assert.equal((handoff as { via?: string }).via, "cli");
  assert.match(handoff.target.cwd, /work-<redacted:openai-style-key>$/);
  assert.ok(
    handoff.files.length > 0 && handoff.files.every((f) => f.includes("<redacted:")),
    handoff.files.join(),
  );
  assert.ok(!readFileSync(join(bridge, "events.db")).includes(TOKEN), "no secret in the file");
  assert.ok(!rows.some((r) => String(r.payload).includes(TOKEN)));

  const log = await runCliJson(["log"], env, dir);
  assert.deepEqual(
    (log.json.events as { event_type: string }[]).map((e) => e.event_type),
    ["handoff", "alias_bind", "handoff", "undo", "prune", "install_skill"],
  );
  const text = await runCli(["log"], env, dir);
  assert.equal(text.code, 0);
  assert.equal(text.stdout.trim().split("\n").length, 6);
  assert.match(text.stdout, /alias_bind .*"name":"review"/);
  assert.ok(!text.stdout.includes(TOKEN));
});

test("a dry run and a refused command record nothing; log says nothing was recorded yet", async () => {
  const { dir, env } = machine();
  assert.equal(
    (await runCli(
      ["handoff", codex.id, "--to", "claude-code", "--cwd", dir, "--dry-run", ...homes],
      env,
      dir,
    )).code,
    0,
  );
  assert.equal((await runCli(["undo", "no-such-op"], env, dir)).code !== 0, true);
  const log = await runCli(["log"], env, dir);
  assert.match(log.stdout, /^nothing recorded yet/);
});

test("a trail that cannot be written warns once and the change itself still succeeds", async () => {
  const { dir, bridge, env } = machine();
  mkdirSync(join(bridge, "events.db"), { recursive: true });
  const bound = await runCli(["alias", "bind", "review", codex.id, ...homes], env, dir);
  assert.equal(bound.code, 0, bound.stderr);
  assert.match(bound.stderr, /warning: the alias_bind was done but could not be recorded in .*events\.db/);
  assert.equal((await runCliJson(["alias", "resolve", "review", ...homes], env, dir)).code, 0);
});

/** The TUI's context over this file's stores, with a private session-bridge home, as lib/cli/commands/tui.ts builds it. */
function tuiContext(bridge: string, dir: string, warnings: string[]): TuiContext {
  const env = {
    HOME: dir,
    SESSION_BRIDGE_HOME: bridge,
    CLAUDE_CONFIG_DIR: claudeHome,
    CODEX_HOME: codexHome,
    HERMES_HOME: hermesHome,
  };
  return {
    ...stores({ env }),
    env,
    targetVersions: {},
    cwd: dir,
    now: () => new Date(),
    warn: (line) => void warnings.push(line),
  };
}

const CHOICES = { to: "claude-code", stubOpenCalls: true, handshake: true };

test("a handoff and an undo made in the TUI are recorded in events.db like the CLI's, marked via tui", async () => {
  const { dir, bridge } = machine();
  const warnings: string[] = [];
  const context = tuiContext(bridge, dir, warnings);
  const row = (await listedRows(context)).rows.find((r) => r.summary.id === codex.id);
  assert.ok(row, "the TUI lists the Codex session");
  const planned = await planHandoff(context, row, { ...CHOICES, cwd: dir });
  assert.equal(planned.refusal, undefined);
  const done = await carryOutHandoff(context, row, { ...CHOICES, cwd: dir }, planned);
  const undone = await carryOutUndo(context, done.op, false);
  assert.equal(undone.refusal, undefined);
  assert.deepEqual(warnings, []);

  const db = new DatabaseSync(join(bridge, "events.db"), { readOnly: true });
  const rows = db.prepare("SELECT session_id, run_id, event_type, payload FROM events ORDER BY id").all();
  db.close();
  assert.deepEqual(rows.map((r) => [r.session_id, r.event_type, r.run_id]), [
    ["session-bridge", "handoff", done.op],
    ["session-bridge", "undo", done.op],
  ]);
  const [handoff, undo] = rows.map((r) => JSON.parse(String(r.payload)) as Record<string, unknown>);
  assert.equal(handoff?.via, "tui");
  assert.deepEqual(handoff?.source, { harness: "codex", id: codex.id });
  assert.deepEqual(handoff?.target, { harness: "claude-code", id: done.target.id, cwd: dir });
  assert.deepEqual(handoff?.files, done.files);
  assert.equal(undo?.via, "tui");
  assert.deepEqual(undo?.removed, undone.plan.remove);
  // The CLI's log reads them as it reads its own.
  const log = await runCliJson(["log"], { HOME: dir, SESSION_BRIDGE_HOME: bridge }, dir);
  assert.deepEqual((log.json.events as { event_type: string }[]).map((e) => e.event_type), [
    "handoff",
    "undo",
  ]);
});

test("in the TUI, a trail that cannot be written goes to the context's warn (not the screen) and the handoff stands", async () => {
  const { dir, bridge } = machine();
  mkdirSync(join(bridge, "events.db"), { recursive: true });
  const warnings: string[] = [];
  const context = tuiContext(bridge, dir, warnings);
  const row = (await listedRows(context)).rows.find((r) => r.summary.id === codex.id)!;
  const planned = await planHandoff(context, row, { ...CHOICES, cwd: dir });
  const done = await carryOutHandoff(context, row, { ...CHOICES, cwd: dir }, planned);
  assert.ok(done.files.length > 0);
  assert.equal(warnings.length, 1);
  assert.match(warnings[0]!, /warning: the handoff was done but could not be recorded in .*events\.db/);
});
