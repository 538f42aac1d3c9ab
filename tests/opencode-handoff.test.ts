/**
 * Handoffs into OpenCode through the real CLI entry: a Claude Code session captured from the real binary goes
 * into an OpenCode data folder that the real OpenCode 1.18.33 made (offline: acceptance/opencode-offline.ts),
 * and OpenCode itself lists it and continues it; then undo, a taken id, --force, a database locked by another
 * writer, and a migration set session-bridge does not know. Expectations are written by hand from what the
 * binary does (docs/harnesses/opencode.md, "Writing a session").
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { builtinRegistry, withHarness } from "../lib/harnesses/registry.ts";
import { openCode } from "../lib/harnesses/opencode/index.ts";
import { planOpenCode } from "../lib/harnesses/opencode/register.ts";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { INTERRUPTED_RESULT } from "../lib/handshake/handshake.ts";
import { emptyHomes, homeFlags, runCli } from "./helpers/cli.ts";
import { claudeFixture } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";
import { CLAUDE_COMPACTED, claudeCompactedParts, compactedParts, SUMMARY_MARK } from "./helpers/compacted.ts";
import { readOpenCodeSession } from "../lib/harnesses/opencode/read.ts";
import { FAKE_MODEL, offlineOpenCode } from "../acceptance/opencode-offline.ts";
import {
  offlineConfig,
  opencodeFolders,
  writeOpencodeConfig,
} from "../lib/harnesses/opencode/certify/run.ts";

// Until the built-in list names OpenCode, it joins the registry as any harness can (withHarness).
const registry = builtinRegistry.harnesses.some((h) => h.name === "opencode")
  ? builtinRegistry
  : withHarness(builtinRegistry, openCode);

const SOURCE = claudeFixture("thinking-tool-use");
const ID = "ses_dc3d00000000Handoff0000001";

/** One OpenCode, run once to make its database (38 migrations, the `global` project); each test copies it. */
const made = await (async () => {
  const root = realpathSync(tempDir());
  const oc = await offlineOpenCode(root);
  mkdirSync(join(root, "project"));
  const r = await oc.run(["session", "list"], join(root, "project"));
  assert.equal(r.code, 0, r.stderr);
  return oc;
})();
after(() => made.close());

/** A fresh place: a copy of the OpenCode data folder, a project directory, session-bridge's own folder. */
function world(extraEnv: Record<string, string> = {}) {
  const root = realpathSync(tempDir());
  const home = join(root, "data", "opencode");
  cpSync(made.home, home, { recursive: true });
  const database = join(home, "opencode.db");
  const cwd = join(root, "My Project");
  mkdirSync(cwd);
  const env = { HOME: join(root, "user"), SESSION_BRIDGE_HOME: join(root, "bridge"), ...extraEnv };
  const homes = registry === builtinRegistry
    ? homeFlags({ opencode: home }, root)
    : [...emptyHomes(root), "--opencode-home", home];
  const cli = async (args: string[]) => {
    const r = await runCli([...args, "--json"], env, undefined, registry);
    return { ...r, json: (r.stdout ? JSON.parse(r.stdout) : {}) as Record<string, unknown> };
  };
  // With no --model: the model OpenCode's configuration names.
  const configured = (...extra: string[]) =>
    cli(["handoff", SOURCE, "--to", "opencode", "--cwd", cwd, "--session-id", ID, ...homes, ...extra]);
  const handoff = (...extra: string[]) => configured("--model", FAKE_MODEL, ...extra);
  return { root, home, database, cwd, homes, cli, handoff, configured };
}

type Row = Record<string, unknown>;

function rows(database: string, sql: string, ...params: string[]): Row[] {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    return (db.prepare(sql).all(...params) as Row[]).map((r) => ({ ...r }));
  } finally {
    db.close();
  }
}

const count = (database: string, table: string, where = "session_id = ?") =>
  Number(rows(database, `SELECT count(*) AS n FROM ${table} WHERE ${where}`, ID)[0]!.n);

test("a Claude Code session handed to OpenCode is listed by opencode session list and continued by opencode --session with every earlier part once, in order", async () => {
  const w = world();
  const r = await w.handoff();
  assert.equal(r.code, 0, r.stderr);
  const target = r.json.target as { resumeCommand: string; path: string };
  assert.equal(target.path, `${w.database}#${ID}`);
  assert.equal(
    target.resumeCommand,
    `cd '${w.cwd}' && OPENCODE_DB=${w.database} opencode --session ${ID}`,
  );
  // The binary, in the directory, on that database (what the command's OPENCODE_DB says).
  const env = { OPENCODE_DB: w.database };
  const listed = await made.run(["session", "list"], w.cwd, env);
  assert.equal(listed.code, 0, listed.stderr);
  assert.match(listed.stdout, new RegExp(ID));
  const before = made.requests().length;
  const resumed = await made.run(
    ["run", "--session", ID, "NEXT-PROMPT", "after", "the", "handoff"],
    w.cwd,
    env,
  );
  assert.equal(resumed.code, 0, resumed.stderr);
  const turn = made.requests().slice(before).find((q) => q.tools?.length)!;
  const said = turn.messages.slice(1).map((m) => [m.role, JSON.stringify([m.content, m.tool_calls ?? []])]);
  const texts = said.map(([role, text]) => `${role} ${text}`);
  const at = (pattern: RegExp) => {
    const found = texts.filter((t) => pattern.test(t));
    assert.equal(found.length, 1, `${pattern} once in ${texts.join("\n")}`);
    return texts.indexOf(found[0]!);
  };
  const order = [
    at(/^user .*fixture-tool-output/),
    at(/^assistant .*"name":"bash","arguments":"\{\\"command\\":\\"echo fixture-tool-output/),
    at(/^tool .*fixture-tool-output/),
    at(/^user .*session-bridge-handoff/),
    at(/^user .*NEXT-PROMPT after the handoff/),
  ];
  assert.deepEqual(order, [...order].sort((a, b) => a - b));
  assert.equal(turn.model, "fake-model");
});

test("a handoff into OpenCode with no --model continues, in the real OpenCode, on the model certify's user config names", async () => {
  // certify's driver writes its config as a user does: $XDG_CONFIG_HOME/opencode/opencode.json.
  const madeConfig = readFileSync(join(made.env.OPENCODE_CONFIG_DIR!, "opencode.json"), "utf8");
  const baseUrl = String(JSON.parse(madeConfig).provider.fake.options.baseURL).replace(/\/v1$/, "");
  const folders = opencodeFolders(realpathSync(tempDir()));
  writeOpencodeConfig(folders, offlineConfig(baseUrl));
  const w = world({ XDG_CONFIG_HOME: folders.config });
  const r = await w.configured();
  assert.equal(r.code, 0, r.stderr);
  const userConfig = join(folders.config, "opencode", "opencode.json");
  assert.ok(
    JSON.stringify(r.json).includes(`continues on ${FAKE_MODEL}, configured in ${userConfig} (model)`),
    r.stdout,
  );
  const before = made.requests().length;
  const resumed = await made.run(["run", "--session", ID, "NEXT-PROMPT"], w.cwd, {
    OPENCODE_DB: w.database,
    XDG_CONFIG_HOME: folders.config,
  });
  assert.equal(resumed.code, 0, resumed.stderr);
  const turn = made.requests().slice(before).find((q) => q.tools?.length)!;
  assert.equal(turn.model, "fake-model");
  assert.match(JSON.stringify(turn.messages.at(-1)), /NEXT-PROMPT/);
});

test("a Claude Code session in plan mode resumed by the real OpenCode is offered no edit, write or patch tool: its session rules deny edits", async () => {
  const w = world();
  const source = join(w.root, "plan.jsonl");
  const lines = readFileSync(claudeFixture("plain-text"), "utf8");
  writeFileSync(source, lines.replaceAll('"permissionMode":"default"', '"permissionMode":"plan"'));
  const args = [
    "handoff",
    source,
    "--to",
    "opencode",
    "--cwd",
    w.cwd,
    "--session-id",
    ID,
    "--model",
    FAKE_MODEL,
  ];
  const r = await w.cli([...args, ...w.homes]);
  assert.equal(r.code, 0, r.stderr);
  const before = made.requests().length;
  const resumed = await made.run(["run", "--session", ID, "NEXT-PROMPT"], w.cwd, { OPENCODE_DB: w.database });
  assert.equal(resumed.code, 0, resumed.stderr);
  const turn = made.requests().slice(before).find((q) => q.tools?.length)!;
  const offered = JSON.stringify(turn.tools);
  assert.match(offered, /"name":"bash"/);
  assert.doesNotMatch(offered, /"name":"(?:edit|write|apply_patch)"/);
});

test("undo takes the handoff back: the session, its messages and parts are gone, OpenCode's project row stays", async () => {
  const w = world();
  const r = await w.handoff();
  assert.equal(r.code, 0, r.stderr);
  assert.ok(count(w.database, "part") > 0);
  const undone = await w.cli(["undo", String(r.json.op), ...w.homes]);
  assert.equal(undone.code, 0, undone.stderr);
  assert.equal(count(w.database, "session", "id = ?"), 0);
  assert.equal(count(w.database, "message"), 0);
  assert.equal(count(w.database, "part"), 0);
  assert.equal(rows(w.database, "SELECT id FROM project WHERE id = 'global'").length, 1);
});

test("a taken OpenCode session id is refused with exit 1 and nothing changed; --force replaces it and undo puts it back", async () => {
  const w = world();
  const first = await w.handoff("--title", "FIRST");
  assert.equal(first.code, 0, first.stderr);
  const stored = () => rows(w.database, "SELECT title FROM session WHERE id = ?", ID).map((s) => s.title);
  const parts = count(w.database, "part");
  const again = await w.handoff("--title", "SECOND");
  assert.equal(again.code, 1);
  assert.match(again.stderr, new RegExp(`session ${ID} already exists in ${w.database}`));
  assert.equal(again.stderr.trim().split("\n").length, 1, again.stderr);
  assert.deepEqual(stored(), ["FIRST"]);
  const forced = await w.handoff("--title", "SECOND", "--force");
  assert.equal(forced.code, 0, forced.stderr);
  assert.deepEqual(stored(), ["SECOND"]);
  assert.equal(count(w.database, "part"), parts);
  const undone = await w.cli(["undo", String(forced.json.op), ...w.homes]);
  assert.equal(undone.code, 0, undone.stderr);
  assert.deepEqual(stored(), ["FIRST"]);
  assert.equal(count(w.database, "part"), parts);
});

test("a database of a migration set session-bridge does not know is refused naming the migration, nothing written", async () => {
  const w = world();
  const db = new DatabaseSync(w.database);
  db.prepare("INSERT INTO migration (id, time_completed) VALUES (?, ?)").run("20270101000000_session_v3", 1);
  db.close();
  const r = await w.handoff();
  assert.equal(r.code, 1);
  assert.match(
    r.stderr,
    /migration 20270101000000_session_v3 is newer than any OpenCode session-bridge knows/,
  );
  assert.equal(count(w.database, "session", "id = ?"), 0);
});

test("a handoff waits while another process holds OpenCode's write lock, says so, and lands once it is let go", async () => {
  const w = world();
  const holder = new DatabaseSync(w.database);
  holder.exec("BEGIN IMMEDIATE");
  const session = await readClaudeSession(SOURCE);
  const plan = await planOpenCode(
    session,
    { id: ID, cwd: w.cwd, now: new Date(), stubOpenCalls: true, model: FAKE_MODEL },
    w.home,
    false,
  );
  const said: string[] = [];
  const result = await plan.commit({
    force: false,
    backup: false,
    backupFolder: join(w.root, "backups"),
    feedback: {
      notice: (line) => {
        said.push(line);
        // Nothing of the session is in yet: the lock holder is let go only now.
        assert.equal(count(w.database, "session", "id = ?"), 0);
        holder.exec("ROLLBACK");
      },
    },
  });
  holder.close();
  assert.match(said.join("\n"), /opencode\.db is locked by another process: waiting/);
  assert.equal(result.rows.find((r) => r.table === "session")!.count, 1);
  assert.equal(count(w.database, "session", "id = ?"), 1);
});

test("a call left open is written running, as OpenCode leaves a call it was killed in; one the handoff closed is an interrupted error", async () => {
  const source = await readClaudeSession(claudeFixture("interrupted-tool-call"));
  const states = async (stubOpenCalls: boolean) => {
    const w = world();
    const plan = await planOpenCode(
      source,
      { id: ID, cwd: w.cwd, now: new Date(), stubOpenCalls, model: FAKE_MODEL },
      w.home,
      false,
    );
    await plan.commit({ force: false, backup: false, backupFolder: join(w.root, "backups") });
    return rows(w.database, "SELECT data FROM part WHERE session_id = ?", ID)
      .map((p) => JSON.parse(String(p.data)) as Row)
      .filter((p) => p.type === "tool")
      .map((p) => p.state as Row);
  };
  const open = await states(false);
  assert.deepEqual(open.map((s) => s.status), ["running"]);
  // The pipeline answers an open call when asked to (lib/pipeline/close-calls.ts); the store writes what it is given.
  const closedSession = {
    ...source,
    messages: [...source.messages, {
      uid: "stub",
      parentUid: null,
      role: "tool" as const,
      kind: "turn" as const,
      blocks: [{
        type: "tool_result" as const,
        callId: source.pending.openToolCalls[0]!.callId,
        isError: true,
        content: [{ type: "text" as const, text: INTERRUPTED_RESULT }],
      }],
    }],
  };
  const w = world();
  const plan = await planOpenCode(
    closedSession,
    { id: ID, cwd: w.cwd, now: new Date(), stubOpenCalls: true, model: FAKE_MODEL },
    w.home,
    false,
  );
  await plan.commit({ force: false, backup: false, backupFolder: join(w.root, "backups") });
  const closed = rows(w.database, "SELECT data FROM part WHERE session_id = ?", ID)
    .map((p) => JSON.parse(String(p.data)) as Row)
    .filter((p) => p.type === "tool")
    .map((p) => p.state as Row);
  assert.deepEqual(closed.map((s) => [s.status, s.error, s.metadata]), [["error", INTERRUPTED_RESULT, {
    interrupted: true,
  }]]);
});

test("a directory inside a repository OpenCode knows goes to that repository's project, its path relative to the worktree", async () => {
  const w = world();
  const repo = join(w.root, "repo");
  const cwd = join(repo, "packages", "app");
  mkdirSync(cwd, { recursive: true });
  const db = new DatabaseSync(w.database);
  db.prepare(
    "INSERT INTO project (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES (?, ?, 'git', 1, 1, '[]')",
  )
    .run("f4545c17afdbe3f960f8b275ce2277beb847177a", repo);
  db.close();
  const session = await readClaudeSession(SOURCE);
  const plan = await planOpenCode(
    session,
    { id: ID, cwd, now: new Date(), stubOpenCalls: true, model: FAKE_MODEL },
    w.home,
    false,
  );
  await plan.commit({ force: false, backup: false, backupFolder: join(w.root, "backups") });
  assert.deepEqual(rows(w.database, "SELECT project_id, directory, path FROM session WHERE id = ?", ID), [
    { project_id: "f4545c17afdbe3f960f8b275ce2277beb847177a", directory: cwd, path: "packages/app" },
  ]);
  const roots = rows(w.database, "SELECT data FROM message WHERE session_id = ?", ID)
    .map((m) => (JSON.parse(String(m.data)) as { path?: { root: string } }).path?.root)
    .filter((root) => root !== undefined);
  assert.ok(roots.length > 0 && roots.every((root) => root === repo), JSON.stringify(roots));
});

test("an OpenCode session handed on to another OpenCode keeps its prompts, texts and each call with its result in one part", async () => {
  const first = world();
  assert.equal((await first.handoff()).code, 0);
  const next = world();
  const hop = await next.cli([
    "handoff",
    `${first.database}#${ID}`,
    "--to",
    "opencode",
    "--cwd",
    next.cwd,
    "--model",
    FAKE_MODEL,
    ...next.homes,
  ]);
  assert.equal(hop.code, 0, hop.stderr);
  const id = (hop.json.target as { id: string }).id;
  const parts = (database: string, session: string) =>
    rows(
      database,
      "SELECT p.data FROM part p JOIN message m ON m.id = p.message_id WHERE p.session_id = ? ORDER BY m.time_created, m.id, p.id",
      session,
    )
      .map((p) => JSON.parse(String(p.data)) as Row)
      .filter((p) => !p.synthetic && (p.type === "text" || p.type === "tool"))
      .map((p) =>
        p.type === "tool" ? [p.tool, (p.state as Row).status, (p.state as Row).output] : [p.type, p.text]
      );
  assert.deepEqual(parts(first.database, ID).find((p) => p[0] === "bash"), [
    "bash",
    "completed",
    "fixture-tool-output",
  ]);
  assert.deepEqual(parts(next.database, id), parts(first.database, ID));
});

test("a compacted session handed to OpenCode keeps its whole history before OpenCode's own compaction request and summary, and reads back as the compacted thread and its summary", async () => {
  const { cli, cwd, homes, database } = world();
  const r = await cli([
    "handoff",
    CLAUDE_COMPACTED,
    "--to",
    "opencode",
    "--cwd",
    cwd,
    "--model",
    FAKE_MODEL,
    ...homes,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const id = (r.json.target as { id: string }).id;
  const source = await claudeCompactedParts();
  const parts = rows(
    database,
    "SELECT m.data AS message, p.data AS part FROM part p JOIN message m ON m.id = p.message_id WHERE p.session_id = ? ORDER BY m.id, p.id",
    id,
  ).map((row) => ({
    message: JSON.parse(String(row.message)) as Row,
    part: JSON.parse(String(row.part)) as Row,
  }));
  const request = parts.findIndex((p) => p.part.type === "compaction");
  assert.deepEqual(parts[request]!.part, { type: "compaction", auto: false });
  const summary = parts.find((p) => p.message.summary === true && p.part.type === "text")!;
  assert.equal(summary.message.agent, "compaction");
  const words = String(summary.part.text);
  assert.ok(words.includes(SUMMARY_MARK));
  const typed = (from: number, to: number) =>
    parts.slice(from, to).filter((p) =>
      p.message.role === "user" && p.part.type === "text" && !p.part.synthetic
    )
      .map((p) => `user: ${p.part.text}`);
  assert.deepEqual(typed(0, request), source.history.filter((t) => t.startsWith("user: ")));
  assert.deepEqual(compactedParts(await readOpenCodeSession(`${database}#${id}`)), {
    ...source,
    summary: words,
  });
  const report = r.json.report as { entries: { code: string; detail: string }[] };
  assert.match(report.entries.find((e) => e.code === "compacted-history")!.detail, /kept on disk/);
});
