/**
 * Handoffs killed outright (SIGKILL) at each step, into each harness: afterwards the next command recovers them.
 * A handoff whose commit happened is recorded so undo takes it back exactly; one whose commit had not happened
 * leaves the target as it was. Either way no temp file, torn backup or intent is left.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import { scriptArgv } from "../lib/runtime.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { query, seedHermesHome } from "./helpers/hermes.ts";
import { builtinCoverage, expectedFor } from "./helpers/harness-material.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";
import { pendingOperations } from "../lib/store/ledger.ts";
import { writeIntent } from "../lib/store/intent.ts";
import { onCrashPoint } from "../lib/io/crash-points.ts";
import { hostname } from "node:os";

const CRASH = fileURLToPath(new URL("./helpers/crash-handoff.ts", import.meta.url));

interface Setup {
  root: string;
  env: Record<string, string>;
  bridge: string;
  /** Where the target keeps its sessions (compared before and after). */
  store: string;
  database?: string;
  /** The tables of `database` that hold the target's sessions (their rows are counted before and after). */
  tables: readonly string[];
  args: string[];
}

/** Every registered harness, with its test material. */
const COVERED = await builtinCoverage();

/** The tables of each harness's database that a handoff adds rows to; none for a harness that keeps none. */
const SESSION_TABLES: Record<string, readonly string[]> = {
  "claude-code": [],
  codex: ["threads"],
  hermes: ["sessions", "messages"],
  "gemini-cli": [],
  opencode: ["session", "message", "part"],
  // The index's rows (its full-text search_index is a virtual table, kept by the same transaction).
  "copilot-cli": ["sessions", "turns"],
  pi: [],
};

/** A handoff of a Claude Code session into a fresh home of harness `to`, as its material prepares one. */
function setup(to: string): Setup {
  const covered = COVERED.find((c) => c.harness.name === to);
  assert.ok(covered, `no registered harness ${to}`);
  const root = tempDir();
  const source = join(root, "source");
  const seeded = seedClaudeHome(source, "thinking-tool-use");
  const cwd = join(root, "work");
  mkdirSync(cwd);
  const bridge = join(root, "bridge");
  const target = join(root, "target");
  const { database } = covered.material.prepareHome(target);
  const tables = expectedFor(SESSION_TABLES, to, "list of tables holding sessions");
  assert.equal(!!database, tables.length > 0, `${to}: session tables are named exactly for a database`);
  const args = ["handoff", seeded.path, "--to", to, "--cwd", cwd, `--${covered.harness.home.flag}`, target];
  return {
    root,
    env: { SESSION_BRIDGE_HOME: bridge },
    bridge,
    store: target,
    ...(database ? { database } : {}),
    tables,
    args,
  };
}

function killedAt(s: Setup, point: string): { reached: boolean } {
  const [bin, ...pre] = scriptArgv(CRASH);
  const r = spawnSync(bin!, [...pre, point, "1", ...s.args], {
    encoding: "utf8",
    env: { ...process.env, SESSION_BRIDGE_DEBUG: "", ...s.env },
  });
  if (r.signal === "SIGKILL") return { reached: true };
  assert.equal(r.status, 0, r.stderr);
  return { reached: false };
}

/** Files under the store except the database and SQLite's own beside it (the database is compared by its rows). */
function files({ store, database }: Setup): Record<string, string> {
  const own = database && relative(store, database);
  return Object.fromEntries(
    Object.entries(snapshot(store)).filter(([p]) =>
      !own || ![own, `${own}-wal`, `${own}-shm`, `${own}-journal`].includes(p)
    ),
  );
}

/** The rows of each session table (every one must be there), once the database passes its integrity check. */
function rowCounts({ database, tables }: Setup): Record<string, number> {
  if (!database) return {};
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    assert.equal(
      (db.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check,
      "ok",
    );
    return Object.fromEntries(
      tables.map((
        name,
      ) => [name, Number((db.prepare(`SELECT count(*) AS n FROM ${name}`).get() as { n: number }).n)]),
    );
  } finally {
    db.close();
  }
}

/**
 * Temp files a publish leaves when killed (`.<name>.<pid>.<hex>.tmp`), and an undo's operation lock (and its
 * takeover file), anywhere under `root`.
 */
function debris(root: string): string[] {
  return Object.keys(snapshot(root)).filter((p) => /(?:^|\/)\.[^/]+\.tmp$|\.lock$|\.takeover$/.test(p));
}

const POINTS: Record<string, { point: string; committed: boolean }[]> = {
  "claude-code": [
    { point: "intent-written", committed: false },
    { point: "temp-written", committed: false },
    { point: "file-published", committed: true },
    { point: "committed", committed: true },
    { point: "ledger-written", committed: true },
  ],
  codex: [
    { point: "intent-written", committed: false },
    { point: "backup-taken", committed: false },
    { point: "temp-written", committed: false },
    { point: "file-published", committed: false },
    { point: "rows-committed", committed: true },
    { point: "committed", committed: true },
    { point: "ledger-written", committed: true },
  ],
  hermes: [
    { point: "intent-written", committed: false },
    { point: "backup-taken", committed: false },
    { point: "rows-committed", committed: true },
    { point: "committed", committed: true },
    { point: "ledger-written", committed: true },
  ],
  // Files only, in order: the two .project_root markers, the session file, then projects.json saved and edited.
  "gemini-cli": [
    { point: "intent-written", committed: false },
    { point: "temp-written", committed: false },
    { point: "file-published", committed: false },
    { point: "backup-taken", committed: false },
    { point: "committed", committed: true },
    { point: "ledger-written", committed: true },
  ],
  // Rows only, as Hermes: the database backed up, then the session, message and part rows in one transaction.
  opencode: [
    { point: "intent-written", committed: false },
    { point: "backup-taken", committed: false },
    { point: "rows-committed", committed: true },
    { point: "committed", committed: true },
    { point: "ledger-written", committed: true },
  ],
  // The index's backup, the session folder's events.jsonl and workspace.yaml published, then the index's rows.
  "copilot-cli": [
    { point: "intent-written", committed: false },
    { point: "backup-taken", committed: false },
    { point: "temp-written", committed: false },
    { point: "file-published", committed: false },
    { point: "rows-committed", committed: true },
    { point: "committed", committed: true },
    { point: "ledger-written", committed: true },
  ],
  // One session file and no index, as Claude Code: written beside, then renamed into its project folder.
  pi: [
    { point: "intent-written", committed: false },
    { point: "temp-written", committed: false },
    { point: "file-published", committed: true },
    { point: "committed", committed: true },
    { point: "ledger-written", committed: true },
  ],
};

for (const { harness: { name: to } } of COVERED) {
  for (const { point, committed } of expectedFor(POINTS, to, "list of a handoff's crash points")) {
    test(`a handoff into ${to} killed at ${point} is ${committed ? "completed so undo sees it" : "rolled back"} by the next command, leaving no debris`, async () => {
      const s = setup(to);
      const before = { files: files(s), rows: rowCounts(s) };
      assert.ok(killedAt(s, point).reached, `${point} was never reached`);
      // The next command that touches a store recovers first: here, list.
      const listed = await runCli(["list", "--json", "--from", to, ...s.args.slice(-2)], s.env);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(
        listed.stderr,
        committed ? /completed interrupted handoff/ : /rolled back interrupted handoff/,
      );
      assert.deepEqual(readdirSync(join(s.bridge, "intents")), [], "an intent was left");
      assert.deepEqual(debris(s.store), []);
      assert.deepEqual(debris(s.bridge), []);
      const pending = pendingOperations(s.bridge);
      if (!committed) {
        assert.deepEqual(files(s), before.files, "the target is not as it was");
        assert.deepEqual(rowCounts(s), before.rows);
        assert.equal(pending.length, 0);
        assert.ok(
          !existsSync(join(s.bridge, "backups")) || readdirSync(join(s.bridge, "backups")).length === 0,
        );
        return;
      }
      assert.equal(pending.length, 1, "undo cannot see the handoff");
      // The session is in the target: its file, and for a store with an index, its rows.
      assert.notDeepEqual(
        s.database ? rowCounts(s) : files(s),
        s.database ? before.rows : before.files,
      );
      const undone = await runCli(["undo", pending[0]!.op], s.env);
      assert.equal(undone.code, 0, undone.stderr);
      assert.deepEqual(rowCounts(s), before.rows);
      const left = Object.keys(files(s)).filter((p) => !(p in before.files) && !p.endsWith("/"));
      assert.deepEqual(left, []);
    });
  }
}

test("a lock a killed handoff left on Gemini's projects.json is removed by recovery; one a live Gemini took over since is left", async () => {
  const s = setup("gemini-cli");
  const lock = join(s.store, ".gemini", "projects.json.lock");
  const before = files(s);
  assert.ok(killedAt(s, "file-published").reached);
  assert.ok(existsSync(lock), "the killed handoff held no lock on projects.json");
  const recovered = await runCli(["recover"], s.env);
  assert.equal(recovered.code, 0, recovered.stderr);
  assert.ok(!existsSync(lock), "the killed handoff's lock is still there");
  assert.deepEqual(files(s), before);

  assert.ok(killedAt(s, "file-published").reached);
  // A Gemini starting since found the lock stale, took it over (proper-lockfile: removed, made again) and
  // refreshed it, at its own clock's half-second.
  rmdirSync(lock);
  mkdirSync(lock);
  const refreshed = new Date(Math.floor(Date.now() / 1000) * 1000 + 500);
  utimesSync(lock, refreshed, refreshed);
  const again = await runCli(["recover"], s.env);
  assert.equal(again.code, 0, again.stderr);
  assert.ok(existsSync(lock), "recovery removed the lock a live Gemini holds");
  assert.equal(statSync(lock).mtimeMs, refreshed.getTime());
  // The handoff is rolled back all the same.
  rmdirSync(lock);
  assert.deepEqual(files(s), before);
});

test("a handoff refuses before writing anything when the undo ledger cannot be written", async () => {
  const s = setup("codex");
  const before = { files: files(s), rows: rowCounts(s) };
  // A file where session-bridge's folder should be: nothing can be written under it.
  writeFileSync(join(s.root, "not-a-folder"), "");
  const r = await runCli(s.args, { SESSION_BRIDGE_HOME: join(s.root, "not-a-folder", "bridge") });
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
  assert.match(r.stderr, /cannot write the undo ledger in .*not-a-folder.*nothing was handed off/);
  assert.deepEqual(files(s), before.files);
  assert.deepEqual(rowCounts(s), before.rows);
});

test("recover --dry-run says what it would do and changes nothing; recover then does it", async () => {
  const s = setup("codex");
  assert.ok(killedAt(s, "file-published").reached);
  const before = snapshot(s.root);
  const dry = await runCliJson(["recover", "--dry-run"], s.env);
  assert.equal(dry.code, 0, dry.stderr);
  const [planned] = dry.json.operations as { action: string; removed: string[] }[];
  assert.equal(planned!.action, "roll back");
  assert.ok(planned!.removed.some((p) => p.endsWith(".jsonl")), "the published rollout is named");
  assert.deepEqual(snapshot(s.root), before);
  const done = await runCli(["recover"], s.env);
  assert.equal(done.code, 0, done.stderr);
  assert.match(done.stdout, /rolled back interrupted handoff/);
  assert.match((await runCli(["recover"], s.env)).stdout, /nothing to recover/);
});

test("a handoff still running in another process is left alone by recovery", async () => {
  const s = setup("claude-code");
  const op = "00000000-0000-4000-8000-0000000000aa";
  const file = join(s.store, "projects", "x", `${op}.jsonl`);
  // This test's own process stands for the running one.
  writeIntent(s.bridge, {
    kind: "handoff",
    op,
    at: new Date(0).toISOString(),
    pid: process.pid,
    host: hostname(),
    source: { harness: "claude-code", id: op },
    target: { harness: "claude-code", id: op, path: file },
    files: [{ path: file }],
    folders: [],
    databases: [],
    rows: [],
    backupFolder: join(s.bridge, "backups", "x"),
  });
  const r = await runCliJson(["recover"], s.env);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json.running, [op]);
  assert.deepEqual(r.json.operations, []);
  assert.ok(existsSync(join(s.bridge, "intents", `${op}.json`)));
});

test("a ledger line cut short by a kill does not swallow the next handoff's record", async () => {
  const s = setup("claude-code");
  mkdirSync(s.bridge, { recursive: true });
  writeFileSync(join(s.bridge, "ledger.jsonl"), '{"op":"cut-short","at":"2026');
  const r = await runCliJson(s.args, s.env);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(pendingOperations(s.bridge).map((e) => e.op), [r.json.op]);
  assert.match(readFileSync(join(s.bridge, "ledger.jsonl"), "utf8"), /^\{"op":"cut-short","at":"2026\n\{/);
});

test("recovery removes the temp file a killed publish left, and nothing that is not its own", async () => {
  const s = setup("codex");
  assert.ok(killedAt(s, "temp-written").reached);
  const [ours] = debris(s.store);
  assert.ok(ours, "the kill left a temp file");
  // Beside it: another process's temp file of the same name, and a user's own file that looks alike.
  const dir = join(s.store, ours!, "..");
  const others = [
    join(dir, ours!.split("/").pop()!.replace(/\.\d+\.([0-9a-f]{8})\.tmp$/, ".1.$1.tmp")),
    join(dir, ".notes.tmp"),
  ];
  for (const path of others) writeFileSync(path, "not session-bridge's");
  const r = await runCli(["recover"], s.env);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(join(s.store, ours!)));
  for (const path of others) assert.equal(readFileSync(path, "utf8"), "not session-bridge's");
});

test("an intent cut short while being written is removed by the next command", async () => {
  const s = setup("claude-code");
  const torn = join(s.bridge, "intents", "00000000-0000-4000-8000-0000000000bb.json.999999999.tmp");
  mkdirSync(join(s.bridge, "intents"), { recursive: true });
  writeFileSync(torn, '{"op":"00000000-0000-4000-8000-0000000000bb","at":');
  const r = await runCli(["list", "--from", "claude", "--claude-home", join(s.root, "source")], s.env);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!existsSync(torn));
});

test("a Hermes handoff that took another session's title with --force, killed after its commit, gives the title back on undo", async () => {
  const s = setup("hermes");
  const database = seedHermesHome(s.store, "0.19.0", "titled");
  const [holder] = query(database, "SELECT id, title FROM sessions WHERE title IS NOT NULL LIMIT 1");
  assert.ok(holder, "the fixture has a titled session");
  s.args.push("--title", String(holder!.title), "--force");
  assert.ok(killedAt(s, "rows-committed").reached);
  assert.equal(
    query(database, "SELECT title FROM sessions WHERE id = ?", String(holder!.id))[0]!.title,
    null,
  );
  const recovered = await runCliJson(["recover"], s.env);
  assert.equal(recovered.code, 0, recovered.stderr);
  const [op] = pendingOperations(s.bridge);
  const undone = await runCli(["undo", op!.op], s.env);
  assert.equal(undone.code, 0, undone.stderr);
  assert.equal(
    query(database, "SELECT title FROM sessions WHERE id = ?", String(holder!.id))[0]!.title,
    holder!.title,
  );
});

/** Files only: an undo leaves the folders a handoff made (as a completed undo always has). */
const filesOnly = (s: Setup) =>
  Object.fromEntries(Object.entries(files(s)).filter(([p]) => !p.endsWith("/")));

/** An undo of `op` killed outright at the first `point`. */
function undoKilledAt(s: Setup, op: string, point: string): boolean {
  return killedAt({ ...s, args: ["undo", op] }, point).reached;
}

// An undo of rows nobody changed since the handoff takes no backup (lib/store/row-backup.ts): no backup-taken.
const UNDO_POINTS: Record<string, { point: string; finished: boolean }[]> = {
  "claude-code": [
    { point: "intent-written", finished: false },
    { point: "file-removed", finished: true },
    { point: "ledger-written", finished: true },
  ],
  codex: [
    { point: "intent-written", finished: false },
    { point: "rows-committed", finished: true },
    { point: "file-removed", finished: true },
    { point: "ledger-written", finished: true },
  ],
  hermes: [
    { point: "intent-written", finished: false },
    { point: "rows-committed", finished: true },
    { point: "ledger-written", finished: true },
  ],
  // The markers and the session file removed, then projects.json put back as it was.
  "gemini-cli": [
    { point: "intent-written", finished: false },
    { point: "file-removed", finished: true },
    { point: "file-restored", finished: true },
    { point: "ledger-written", finished: true },
  ],
  opencode: [
    { point: "intent-written", finished: false },
    { point: "rows-committed", finished: true },
    { point: "ledger-written", finished: true },
  ],
  // The index's rows deleted, then the session folder's files removed, as Codex's row and rollout.
  "copilot-cli": [
    { point: "intent-written", finished: false },
    { point: "rows-committed", finished: true },
    { point: "file-removed", finished: true },
    { point: "ledger-written", finished: true },
  ],
  // Its one file removed.
  pi: [
    { point: "intent-written", finished: false },
    { point: "file-removed", finished: true },
    { point: "ledger-written", finished: true },
  ],
};

for (const { harness: { name: to } } of COVERED) {
  for (const { point, finished } of expectedFor(UNDO_POINTS, to, "list of an undo's crash points")) {
    test(`an undo of a handoff into ${to} killed at ${point} is ${finished ? "finished" : "rolled back, the handoff still undoable,"} by the next command, and the ledger says which`, async () => {
      const s = setup(to);
      const before = { files: filesOnly(s), rows: rowCounts(s) };
      const handed = await runCliJson(s.args, s.env);
      assert.equal(handed.code, 0, handed.stderr);
      const op = String(handed.json.op);
      const after = { files: filesOnly(s), rows: rowCounts(s) };
      assert.ok(undoKilledAt(s, op, point), `${point} was never reached`);
      const listed = await runCli(["list", "--json", "--from", to, ...s.args.slice(-2)], s.env);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(
        listed.stderr,
        finished ? /finished interrupted undo of handoff/ : /rolled back interrupted undo of handoff/,
      );
      assert.deepEqual(readdirSync(join(s.bridge, "intents")), [], "an intent was left");
      assert.deepEqual(debris(s.store), []);
      assert.deepEqual(debris(s.bridge), []);
      const pending = pendingOperations(s.bridge).map((e) => e.op);
      if (finished) {
        assert.deepEqual(pending, [], "the ledger still offers an undone handoff");
        assert.deepEqual(filesOnly(s), before.files);
        assert.deepEqual(rowCounts(s), before.rows);
        return;
      }
      assert.deepEqual(pending, [op], "the ledger lost a handoff that is still in the target");
      assert.deepEqual(filesOnly(s), after.files);
      assert.deepEqual(rowCounts(s), after.rows);
      const undone = await runCli(["undo", op], s.env);
      assert.equal(undone.code, 0, undone.stderr);
      assert.deepEqual(filesOnly(s), before.files);
      assert.deepEqual(rowCounts(s), before.rows);
    });
  }
}

for (
  const { point, finished } of [
    { point: "temp-written", finished: false },
    { point: "file-restored", finished: true },
  ]
) {
  test(`an undo of a --force handoff killed while putting the replaced Claude session back (${point}) is ${finished ? "finished: the session is whole again" : "rolled back: the replacement stays, undoable"}, and its temp file goes`, async () => {
    const s = setup("claude-code");
    const first = await runCliJson(s.args, s.env);
    assert.equal(first.code, 0, first.stderr);
    const target = first.json.target as { path: string; id: string };
    const original = readFileSync(target.path, "utf8");
    // The user's session, replaced by a second handoff under the same id.
    const forced = await runCliJson(
      [...s.args, "--session-id", target.id, "--force", "--no-handshake"],
      s.env,
    );
    assert.equal(forced.code, 0, forced.stderr);
    const replacement = readFileSync(target.path, "utf8");
    assert.notEqual(replacement, original);
    assert.ok(undoKilledAt(s, String(forced.json.op), point), `${point} was never reached`);
    const r = await runCli(["recover"], s.env);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      finished ? /finished interrupted undo of handoff/ : /rolled back interrupted undo/,
    );
    assert.deepEqual(debris(s.store), []);
    const pending = pendingOperations(s.bridge).map((e) => e.op);
    if (finished) {
      assert.equal(readFileSync(target.path, "utf8"), original);
      assert.deepEqual(pending, [String(first.json.op)]);
      return;
    }
    assert.equal(readFileSync(target.path, "utf8"), replacement);
    assert.deepEqual(pending, [String(first.json.op), String(forced.json.op)]);
    const undone = await runCli(["undo", String(forced.json.op)], s.env);
    assert.equal(undone.code, 0, undone.stderr);
    assert.equal(readFileSync(target.path, "utf8"), original);
  });
}

test("an undo refuses before changing anything when its intent cannot be written", async () => {
  const s = setup("hermes");
  const handed = await runCliJson(s.args, s.env);
  assert.equal(handed.code, 0, handed.stderr);
  const after = { files: filesOnly(s), rows: rowCounts(s) };
  // A file where the intents folder should be: no intent can be written.
  rmSync(join(s.bridge, "intents"), { recursive: true, force: true });
  writeFileSync(join(s.bridge, "intents"), "");
  const r = await runCli(["undo", String(handed.json.op)], s.env);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /cannot write the undo ledger in .*nothing was undone\n$/);
  assert.deepEqual(filesOnly(s), after.files);
  assert.deepEqual(rowCounts(s), after.rows);
  assert.equal(pendingOperations(s.bridge).length, 1);
});

for (const command of ["convert", "export"] as const) {
  for (
    const { point, written } of [
      { point: "temp-written", written: false },
      { point: "file-published", written: true },
    ]
  ) {
    test(`${command === "convert" ? "a convert" : "an export"} -o killed at ${point} is cleaned up by the next command: ${written ? "the whole file stays" : "its temp file goes"}, and no look-alike file`, async () => {
      const s = setup("claude-code");
      const source = s.args[1]!;
      const outDir = join(s.root, "out");
      mkdirSync(outDir);
      const out = join(outDir, "session.jsonl");
      const args = command === "convert"
        ? ["convert", source, "--to", "codex", "-o", out]
        : ["export", source, "-o", out];
      assert.ok(killedAt({ ...s, args }, point).reached, `${point} was never reached`);
      if (!written) assert.equal(debris(outDir).length, 1, "the kill left no temp file");
      // Beside it: another running process's temp file of the same output, and a user's file that looks alike.
      const others = [join(outDir, ".session.jsonl.1.0badc0de.tmp"), join(outDir, ".session.jsonl.tmp")];
      for (const path of others) writeFileSync(path, "not session-bridge's");
      const listed = await runCli(
        ["list", "--from", "claude", "--claude-home", join(s.root, "source")],
        s.env,
      );
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(
        listed.stderr,
        new RegExp(
          `cleaned up after interrupted ${command} .*: ${
            written ? "the file had been written whole" : "no file was written"
          }`,
        ),
      );
      assert.deepEqual(readdirSync(join(s.bridge, "intents")), []);
      assert.deepEqual(debris(s.bridge), []);
      assert.deepEqual(
        readdirSync(outDir).sort(),
        [...(written ? ["session.jsonl"] : []), ".session.jsonl.1.0badc0de.tmp", ".session.jsonl.tmp"].sort(),
      );
      for (const path of others) assert.equal(readFileSync(path, "utf8"), "not session-bridge's");
      if (written) {
        const again = await runCli(["inspect", out, "--json"], s.env);
        assert.equal(again.code, 0, again.stderr);
      }
    });
  }
}

test("an undo deletes the handoff's rows even when the harness touched them after the undo's intent was written", async () => {
  const s = setup("codex");
  const before = rowCounts(s);
  const handed = await runCliJson(s.args, s.env);
  assert.equal(handed.code, 0, handed.stderr);
  const id = String((handed.json.target as { id: string }).id);
  // The harness writes to the thread's row between the intent and the undo's transaction.
  onCrashPoint((point) => {
    if (point !== "intent-written") return;
    const db = new DatabaseSync(s.database!);
    db.prepare("UPDATE threads SET title = 'renamed meanwhile' WHERE id = ?").run(id);
    db.close();
  });
  try {
    const undone = await runCli(["undo", String(handed.json.op)], s.env);
    assert.equal(undone.code, 0, undone.stderr);
  } finally {
    onCrashPoint(undefined);
  }
  assert.deepEqual(rowCounts(s), before);
  assert.deepEqual(pendingOperations(s.bridge), []);
});
