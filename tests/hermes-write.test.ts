import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { HANDSHAKE_OPEN, INTERRUPTED_RESULT } from "../lib/handshake/handshake.ts";
import { NEWEST_GENERATION } from "../lib/harnesses/hermes/generations.ts";
import { readHermesSession } from "../lib/harnesses/hermes/read.ts";
import { FAILED_MARKER } from "../lib/ir/tool-failure.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { capturedIds, query, seedHermesHome, sha256 } from "./helpers/hermes.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const env = { SESSION_BRIDGE_HOME: join(root, "bridge") };
let n = 0;

/** A Claude source, a Hermes home seeded with a captured 0.19 store, and a target directory. */
function world(hermesScenario = "text-turns", claudeFixture = "thinking-tool-use") {
  const base = join(root, `w${n++}`);
  const claudeHome = join(base, "claude");
  const source = seedClaudeHome(claudeHome, claudeFixture);
  const hermesHome = join(base, "hermes");
  const db = seedHermesHome(hermesHome, "0.19.0", hermesScenario);
  const target = join(base, "target project");
  mkdirSync(target);
  const flags = ["--claude-home", claudeHome, "--hermes-home", hermesHome];
  return { base, claudeHome, hermesHome, db, source, target: realpathSync(target), flags };
}

async function handoff(w: ReturnType<typeof world>, extra: string[] = []) {
  const r = await runCliJson([
    "handoff",
    w.source.id,
    "--to",
    "hermes",
    "--cwd",
    w.target,
    ...w.flags,
    ...extra,
  ], env);
  assert.equal(r.code, 0, r.stderr);
  return r.json as {
    op: string;
    target: { id: string; path: string; resumeCommand: string };
    backup: { paths: string[] };
  };
}

const pad = (v: number) => String(v).padStart(2, "0");

test("claude-code -> hermes: one session row and its message rows, as Hermes itself writes them", async () => {
  const w = world();
  const before = Date.now() / 1000;
  const done = await handoff(w);
  const id = done.target.id;
  const source = (await import("../lib/harnesses/claude-code/read.ts")).readClaudeSession(w.source.path);
  const started = new Date((await source).meta.createdAt!);
  const stamp = `${started.getFullYear()}${pad(started.getMonth() + 1)}${pad(started.getDate())}_` +
    `${pad(started.getHours())}${pad(started.getMinutes())}${pad(started.getSeconds())}`;
  assert.match(id, new RegExp(`^${stamp}_[0-9a-f]{6}$`), "Hermes's id format, from the source's start");

  const [row] = query(w.db, "SELECT * FROM sessions WHERE id = ?", id);
  assert.deepEqual(Object.keys(row!).sort(), [...NEWEST_GENERATION.columns.sessions].sort(), "every column");
  assert.equal(row!.source, "cli");
  assert.equal(row!.model, "fake-model-1", "the model this Hermes routes to (config.yaml)");
  assert.equal(row!.cwd, w.target);
  assert.equal(row!.title, "Run this for me. TOOL: echo fixture-tool-output");
  assert.equal(row!.system_prompt, null, "Hermes builds its own system prompt on resume");
  assert.equal(row!.started_at, started.getTime() / 1000, "the source's real start, REAL epoch seconds");

  const rows = query(w.db, "SELECT * FROM messages WHERE session_id = ? ORDER BY id", id);
  assert.deepEqual(rows.map((r) => r.role), ["user", "assistant", "tool", "assistant", "user"]);
  assert.equal(row!.message_count, rows.length);
  const times = rows.map((r) => r.timestamp as number);
  for (let i = 1; i < times.length; i++) assert.ok(times[i]! > times[i - 1]!, "strictly increasing");
  assert.ok(times.every((t) => t <= before + 1), "never in the future");
  const calls = JSON.parse(rows[1]!.tool_calls as string) as {
    function: { name: string; arguments: string };
  }[];
  assert.equal(calls[0]!.function.name, "terminal", "Claude's Bash call in Hermes's vocabulary");
  assert.deepEqual(JSON.parse(calls[0]!.function.arguments), { command: "echo fixture-tool-output" });
  assert.equal(rows[2]!.tool_name, "terminal");
  assert.ok(String(rows[4]!.content).startsWith(HANDSHAKE_OPEN), "the handshake is the last user row");

  const fts = query(w.db, `SELECT rowid FROM messages_fts WHERE messages_fts MATCH '"fixture-tool-output"'`);
  const trigram = query(
    w.db,
    `SELECT rowid FROM messages_fts_trigram WHERE messages_fts_trigram MATCH '"tool-outp"'`,
  );
  const ids = new Set(rows.map((r) => r.id));
  assert.ok(fts.some((r) => ids.has(r.rowid)), "Hermes's full-text index found the new rows");
  assert.ok(trigram.some((r) => ids.has(r.rowid)), "and its trigram index");

  assert.equal(done.backup.paths.length, 1);
  assert.equal(
    query(done.backup.paths[0]!, "SELECT id FROM sessions WHERE id = ?", id).length,
    0,
    "backup first",
  );
  assert.match(done.target.resumeCommand, new RegExp(`HERMES_HOME=.* hermes chat --resume ${id}$`));

  const back = await readHermesSession(done.target.path);
  assert.deepEqual(back.messages.map((m) => m.role), ["user", "assistant", "tool", "assistant", "user"]);
});

test("undo deletes exactly the rows the handoff inserted, full-text index included", async () => {
  const w = world();
  const before = { sessions: query(w.db, "SELECT count(*) AS n FROM sessions")[0], fts: ftsCount(w.db) };
  const done = await handoff(w);
  const r = await runCli(["undo", done.op, ...w.flags], env);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    { sessions: query(w.db, "SELECT count(*) AS n FROM sessions")[0], fts: ftsCount(w.db) },
    before,
  );
});

test("undo keeps a Hermes session that was resumed since, unless forced", async () => {
  const w = world();
  const done = await handoff(w);
  const resumed = new DatabaseSync(w.db);
  resumed.prepare(
    "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', 'new work', 1.0)",
  ).run(done.target.id);
  resumed.close();
  const refused = await runCli(["undo", done.op, ...w.flags], env);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /changed since the handoff/);
  assert.equal(query(w.db, "SELECT count(*) AS n FROM sessions WHERE id = ?", done.target.id)[0]!.n, 1);
  const forced = await runCli(["undo", done.op, "--force", ...w.flags], env);
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal(query(w.db, "SELECT count(*) AS n FROM sessions WHERE id = ?", done.target.id)[0]!.n, 0);
  assert.match(forced.stdout, /saved .*state\.db/, "the database was backed up before the forced delete");
});

const ftsCount = (db: string) => query(db, "SELECT count(*) AS n FROM messages_fts")[0]!.n;

test("--stub-open-calls answers the open call right after it with a failed, interrupted result", async () => {
  const w = world("text-turns", "interrupted-tool-call");
  const id = (await handoff(w, ["--stub-open-calls"])).target.id;
  const rows = query(
    w.db,
    "SELECT role, content, tool_call_id, tool_name, tool_calls FROM messages WHERE session_id = ? ORDER BY id",
    id,
  );
  const caller = rows.findLastIndex((r) => r.role === "assistant" && r.tool_calls);
  const stub = rows[caller + 1]!;
  assert.equal(stub.role, "tool");
  assert.equal(stub.content, FAILED_MARKER + INTERRUPTED_RESULT);
  assert.ok(stub.tool_call_id && stub.tool_name);
});

test("a session goes into the active profile's store; a 0.14 (schema 11) store gets the columns it has", async () => {
  const w = world();
  const profile = join(w.hermesHome, "profiles", "coder");
  const db = seedHermesHome(profile, "0.14.0", "text-turns");
  writeFileSync(join(w.hermesHome, "active_profile"), "coder\n");
  const done = await handoff(w);
  assert.equal(done.target.path, `${db}#${done.target.id}`);
  const [row] = query(db, "SELECT * FROM sessions WHERE id = ?", done.target.id);
  assert.equal(row!.model, "fake-model-1");
  assert.ok(!("cwd" in row!), "schema 11 has no cwd column");
  const listed = await runCliJson(["list", "--from", "hermes", ...w.flags]);
  const ids = (listed.json.sessions as { id: string }[]).map((s) => s.id);
  assert.ok(ids.includes(done.target.id), "profiles are listed too");
});

test("a Hermes 0.14 store gets the handshake as a one-part text row, which its history repair leaves unmerged", async () => {
  const w = world();
  seedHermesHome(w.hermesHome, "0.14.0", "text-turns");
  const done = await handoff(w);
  // Read as hex: Deno's node:sqlite returns text holding a NUL as "".
  const [last] = query(
    w.db,
    "SELECT role, hex(content) AS hex FROM messages " +
      "WHERE session_id = ? ORDER BY id DESC LIMIT 1",
    done.target.id,
  );
  assert.equal(last!.role, "user");
  const stored = Buffer.from(String(last!.hex), "hex").toString("utf8");
  assert.ok(stored.startsWith('\u0000json:[{"type": "text", "text": "'), JSON.stringify(stored.slice(0, 40)));
  const current = world();
  const again = await handoff(current);
  const [plain] = query(
    current.db,
    "SELECT hex(content) AS hex FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT 1",
    again.target.id,
  );
  assert.ok(!String(plain!.hex).startsWith("00"), "0.19 repairs a copy: the row stays plain text");
});

test("hermes -> hermes copies a compression chain as one session with the old rows compacted", async () => {
  const w = world("compressed");
  const [, tip] = capturedIds("0.19.0", "compressed");
  const r = await runCliJson(
    ["handoff", tip!, "--to", "hermes", "--cwd", w.target, "--title", "copy", ...w.flags],
    env,
  );
  assert.equal(r.code, 0, r.stderr);
  const id = (r.json.target as { id: string }).id;
  const rows = query(w.db, "SELECT active, compacted FROM messages WHERE session_id = ? ORDER BY id", id);
  const source = query(w.db, "SELECT count(*) AS n FROM messages WHERE session_id = ?", tip!)[0]!.n as number;
  assert.equal(rows.filter((x) => x.active === 1).length, source + 1, "the live rows and the handshake");
  assert.ok(
    rows.filter((x) => x.active === 0 && x.compacted === 1).length >= 6,
    "the root's rows, compacted",
  );
  const [row] = query(
    w.db,
    "SELECT parent_session_id, message_count, system_prompt FROM sessions WHERE id = ?",
    id,
  );
  assert.deepEqual({ ...row }, { parent_session_id: null, message_count: source + 1, system_prompt: null });
});

test("the model Hermes will run is reported, and a --model of another travels as -m", async () => {
  const w = world();
  writeFileSync(join(w.hermesHome, "config.yaml"), "model: other-model # routed\n");
  const r = await runCliJson(
    ["handoff", w.source.id, "--to", "hermes", "--cwd", w.target, "--dry-run", ...w.flags],
    env,
  );
  const notes = (r.json.report as { entries: { code: string; detail: string }[] }).entries;
  assert.match(
    notes.find((e) => e.code === "model")!.detail,
    /^continues on other-model, configured in .*config\.yaml \(the source used /,
  );
  const m = await runCliJson([
    "handoff",
    w.source.id,
    "--to",
    "hermes",
    "--cwd",
    w.target,
    "--model",
    "x-1",
    "--dry-run",
    ...w.flags,
  ], env);
  assert.match((m.json.target as { resumeCommand: string }).resumeCommand, / -m x-1$/);
});

/** A refused handoff: the stated exit code and message, and the database byte for byte as it was. */
async function refused(w: ReturnType<typeof world>, extra: string[], code: number, message: RegExp) {
  const before = { db: await sha256(w.db), files: snapshot(w.hermesHome) };
  // The source by its file: finding it by id would list every store, the broken one too (a warning line).
  const r = await runCli([
    "handoff",
    w.source.path,
    "--to",
    "hermes",
    "--cwd",
    w.target,
    ...w.flags,
    ...extra,
  ], env);
  assert.equal(r.code, code, r.stderr);
  assert.match(r.stderr, message);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.deepEqual({ db: await sha256(w.db), files: snapshot(w.hermesHome) }, before);
}

test("a taken title is refused (exit 1) with the next free one suggested; nothing changes", async () => {
  const w = world("titled");
  await refused(
    w,
    ["--title", "Garden planning notes"],
    1,
    /title "Garden planning notes" is taken .*--title "Garden planning notes #2"/,
  );
});

test("handing the same session into Hermes again numbers its title as Hermes numbers a lineage (#2, #3)", async () => {
  const w = world();
  const titles = [];
  for (let i = 0; i < 3; i++) {
    const done = await handoff(w);
    titles.push(query(w.db, "SELECT title FROM sessions WHERE id = ?", done.target.id)[0]!.title);
  }
  const base = String(titles[0]);
  assert.ok(base.length > 0, "the first handoff keeps the source's title");
  assert.deepEqual(titles, [base, `${base} #2`, `${base} #3`]);
  const again = await runCliJson(
    ["handoff", w.source.id, "--to", "hermes", "--cwd", w.target, ...w.flags],
    env,
  );
  assert.match(
    JSON.stringify(again.json),
    new RegExp(`"title-numbered".*${JSON.stringify(base).slice(1, -1)} #4`),
    "the report says why",
  );
});

test("handing the same session again over its own id with --force keeps its title unnumbered", async () => {
  const w = world();
  const first = await handoff(w);
  const id = first.target.id;
  const title = query(w.db, "SELECT title FROM sessions WHERE id = ?", id)[0]!.title;
  await handoff(w, ["--session-id", id, "--force"]);
  assert.deepEqual(query(w.db, "SELECT title FROM sessions WHERE id = ?", id), [{ title }]);
});

test("a session id already in the store is refused (exit 1) without --force; nothing changes", async () => {
  const w = world("titled");
  const [id] = capturedIds("0.19.0", "titled");
  await refused(w, ["--session-id", id!], 1, /already exists .*--force to replace it/);
});

test("--force refuses to replace a session Hermes's compaction holds a lease on; an expired lease stops nothing", async () => {
  const w = world("titled");
  const [id] = capturedIds("0.19.0", "titled");
  const lease = (expires: number) => {
    const db = new DatabaseSync(w.db);
    db.prepare("DELETE FROM compression_locks").run();
    db.prepare("INSERT INTO compression_locks VALUES (?, 'pid:1:nonce', ?, ?)").run(
      id!,
      expires - 300,
      expires,
    );
    db.close();
  };
  lease(Date.now() / 1000 + 300);
  await refused(
    w,
    ["--session-id", id!, "--force"],
    1,
    new RegExp(
      `Hermes is compacting session ${id} \\(its compression lock holds until \\d{4}-.*--force cannot`,
    ),
  );
  lease(Date.now() / 1000 - 1);
  await handoff(w, ["--session-id", id!, "--force"]);
});

/** Every row of a session, ids included, as a comparable list. */
const sessionRows = (db: string, id: string) => ({
  session: query(db, "SELECT * FROM sessions WHERE id = ?", id),
  messages: query(db, "SELECT * FROM messages WHERE session_id = ? ORDER BY id", id),
});

test("--force on a taken Hermes id replaces that session (backed up first), and undo puts it back", async () => {
  const w = world("titled");
  const [id] = capturedIds("0.19.0", "titled");
  const before = sessionRows(w.db, id!);
  assert.equal(before.messages.length, 4);
  const done = await handoff(w, ["--session-id", id!, "--force", "--no-backup"]);
  assert.equal(done.target.id, id);
  const after = sessionRows(w.db, id!);
  assert.deepEqual(after.messages.map((m) => m.role), ["user", "assistant", "tool", "assistant", "user"]);
  assert.equal(after.session[0]!.title, "Run this for me. TOOL: echo fixture-tool-output");
  assert.equal(done.backup.paths.length, 1, "backed up even under --no-backup: undo restores from it");
  assert.deepEqual(sessionRows(done.backup.paths[0]!, id!), before, "the backup holds the replaced session");

  const undone = await runCli(["undo", done.op, ...w.flags], env);
  assert.equal(undone.code, 0, undone.stderr);
  assert.deepEqual(sessionRows(w.db, id!), before, "the replaced session is back, row for row");
  const fts = query(w.db, `SELECT rowid FROM messages_fts WHERE messages_fts MATCH '"watering"'`);
  assert.deepEqual(
    fts.map((r) => r.rowid),
    before.messages.filter((m) => String(m.content).includes("watering")).map((m) => m.id),
    "its full-text index entries are back too",
  );
});

test("--force on a taken Hermes title moves the title to the new session, and undo gives it back", async () => {
  const w = world("titled");
  const [owner] = capturedIds("0.19.0", "titled");
  const done = await handoff(w, ["--title", "Garden planning notes", "--force"]);
  assert.equal(
    query(w.db, "SELECT title FROM sessions WHERE id = ?", done.target.id)[0]!.title,
    "Garden planning notes",
  );
  assert.equal(query(w.db, "SELECT title FROM sessions WHERE id = ?", owner!)[0]!.title, null);
  const undone = await runCli(["undo", done.op, ...w.flags], env);
  assert.equal(undone.code, 0, undone.stderr);
  assert.equal(query(w.db, "SELECT count(*) AS n FROM sessions WHERE id = ?", done.target.id)[0]!.n, 0);
  assert.equal(
    query(w.db, "SELECT title FROM sessions WHERE id = ?", owner!)[0]!.title,
    "Garden planning notes",
  );
  assert.equal(query(w.db, "SELECT count(*) AS n FROM messages WHERE session_id = ?", owner!)[0]!.n, 4);
});

test("a store missing a table or a column, or not SQLite at all, is refused (exit 1); nothing changes", async () => {
  const noTable = world();
  alter(noTable.db, "DROP TABLE messages");
  await refused(
    noTable,
    [],
    1,
    /cannot write to .*state\.db: no table messages \(not a Hermes state database\)/,
  );
  const noColumn = world();
  alter(noColumn.db, "DROP INDEX idx_sessions_title_unique; ALTER TABLE sessions DROP COLUMN title");
  await refused(
    noColumn,
    [],
    1,
    /cannot write to .*: missing column sessions\.title \(schema_version 22 has it\)/,
  );
  const notSqlite = world();
  writeFileSync(notSqlite.db, "this is not a database\n");
  await refused(notSqlite, [], 1, /cannot write to .*state\.db: not a SQLite database/);
});

test("a store newer than our captures is written where the columns agree, and the report says so", async () => {
  const w = world();
  alter(w.db, "UPDATE schema_version SET version = 30; ALTER TABLE sessions DROP COLUMN system_prompt");
  const r = await runCliJson(["handoff", w.source.id, "--to", "hermes", "--cwd", w.target, ...w.flags], env);
  assert.equal(r.code, 0, r.stderr);
  const entries = (r.json.report as { entries: { code: string }[] }).entries;
  assert.ok(entries.some((e) => e.code === "hermes-schema-newer"));
  const id = (r.json.target as { id: string }).id;
  assert.equal(query(w.db, "SELECT count(*) AS n FROM messages WHERE session_id = ?", id)[0]!.n, 5);
});

test("a home where Hermes never ran (no state.db) is refused (exit 1), and none is created", async () => {
  const w = world();
  const empty = join(w.base, "fresh-hermes");
  mkdirSync(empty);
  const r = await runCli([
    "handoff",
    w.source.id,
    "--to",
    "hermes",
    "--cwd",
    w.target,
    "--claude-home",
    w.claudeHome,
    "--hermes-home",
    empty,
  ], env);
  assert.equal(r.code, 1, r.stderr);
  assert.match(
    r.stderr,
    /no Hermes state database in .*fresh-hermes \(run hermes there once so it creates one\)/,
  );
  assert.ok(!existsSync(join(empty, "state.db")));
});

function alter(db: string, sql: string) {
  const conn = new DatabaseSync(db);
  conn.exec(sql);
  conn.close();
}
