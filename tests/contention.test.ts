/**
 * Contention: eight handoffs started at once, as separate processes, into one store while another connection
 * holds its write lock. Each either lands whole or is refused with the one lock line; no row is lost or
 * doubled, the database stays sound, every landed session reads back and undo can take it back, and no temp
 * file is left. A file-only target (Claude Code) gets eight distinct transcripts, none overwriting another.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { hostname } from "node:os";
import { DatabaseSync } from "node:sqlite";
import { jsonLines, seedClaudeHome } from "./helpers/fixtures.ts";
import { builtinCoverage, type Covered, expectedFor } from "./helpers/harness-material.ts";
import { type CliResult, runCli, startCli } from "./helpers/cli.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";
import { lockedMessage } from "../lib/store/sqlite.ts";
import { pendingOperations } from "../lib/store/ledger.ts";
import { backupsRoot, recordCopy } from "../lib/store/backup.ts";
import { DEFAULT_KEEP, planPrune } from "../lib/store/prune.ts";
import { writeIntent } from "../lib/store/intent.ts";

const PARALLEL = 8;
/** The notice a handoff prints when its first attempt at the write lock finds the database locked. */
const WAITING = /is locked by another process: waiting/;

/** Every registered harness, with its test material. */
const COVERED = await builtinCoverage();
const homeFlag = (to: string) => `--${COVERED.find((c) => c.harness.name === to)!.harness.home.flag}`;

interface Setup {
  env: Record<string, string>;
  bridge: string;
  home: string;
  args: string[];
}

/** A handoff of a Claude Code session into a home of harness `to`, as its test material prepares one. */
function setup(to: string): Setup & { database: string } {
  const covered = COVERED.find((c) => c.harness.name === to);
  assert.ok(covered, `no registered harness ${to}`);
  const root = tempDir();
  const source = seedClaudeHome(join(root, "source"), "thinking-tool-use");
  mkdirSync(join(root, "work"));
  const cwd = realpathSync(join(root, "work"));
  const home = join(root, "target");
  const database = covered.material.prepareHome(home).database ?? "";
  const bridge = join(root, "bridge");
  return {
    env: { SESSION_BRIDGE_HOME: bridge },
    bridge,
    home,
    database,
    args: ["handoff", source.path, "--to", to, "--cwd", cwd, homeFlag(to), home, "--json"],
  };
}

function rowCount(database: string, table: string): number {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    return Number((db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n);
  } finally {
    db.close();
  }
}

function integrity(database: string): string {
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    return String(
      (db.prepare("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check,
    );
  } finally {
    db.close();
  }
}

/** Temp files a publish or backup writes (`.<name>.<pid>.<hex>.tmp`), anywhere under `root`. */
function debris(root: string): string[] {
  return Object.keys(snapshot(root)).filter((p) => /\.tmp$/.test(p));
}

type Landed = { op: string; target: { id: string; path: string } };

/** Every run either landed (exit 0, its JSON) or was refused with the one lock line; the landed ones. */
function landedOrLocked(results: CliResult[], database: string): Landed[] {
  const landed: Landed[] = [];
  for (const r of results) {
    const lines = r.stderr.trim().split("\n").filter((l) => l);
    if (r.code === 0) {
      landed.push(JSON.parse(r.stdout) as Landed);
      continue;
    }
    assert.equal(r.code, 1, `neither landed nor refused: exit ${r.code}\n${r.stderr}`);
    // The waiting notice may come first; the refusal itself is one line, the lock message.
    assert.ok(lines.slice(0, -1).every((l) => WAITING.test(l)), r.stderr);
    assert.equal(lines.at(-1), `session-bridge: ${lockedMessage(database)}`, r.stderr);
  }
  return landed;
}

/** The table of each harness's database that holds one row per session. */
const SESSION_TABLE: Record<string, string> = {
  codex: "threads",
  hermes: "sessions",
  opencode: "session",
  "copilot-cli": "sessions",
};
/** The harnesses whose homes keep a database, which a running harness may hold locked. */
const withDatabase = (covered: Covered[]) =>
  covered.filter(({ harness, material }) => material.prepareHome(join(tempDir(), harness.name)).database);

for (const { harness: { name: to } } of withDatabase(COVERED)) {
  const table = expectedFor(SESSION_TABLE, to, "table of one row per session");
  test(`${PARALLEL} handoffs into one ${to} store while another process holds its write lock lose no row and double none`, async () => {
    const s = setup(to);
    const before = rowCount(s.database, table);
    const homeBefore = snapshot(s.home);
    // Another process holding the write lock, as a running harness mid-write would.
    const holder = new DatabaseSync(s.database);
    holder.exec("BEGIN IMMEDIATE");
    // Distinct titles: Hermes titles are unique, and a taken one is refused on its own, lock or no lock.
    const runs = Array.from(
      { length: PARALLEL },
      (_, i) => startCli([...s.args, "--title", `contended handoff ${i + 1}`], s.env),
    );
    let waited: boolean[];
    try {
      // Released once every handoff has met the lock (or ended): the event itself, never a timer.
      waited = await Promise.all(runs.map((r) => r.stderrMatches(WAITING)));
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    const results = await Promise.all(runs.map((r) => r.result));
    assert.ok(
      waited.every(Boolean),
      `a handoff never met the lock:\n${results.map((r) => r.stderr).join("\n")}`,
    );
    const landed = landedOrLocked(results, s.database);
    assert.ok(landed.length > 0, "no handoff landed once the lock was released");

    assert.equal(integrity(s.database), "ok");
    assert.equal(rowCount(s.database, table), before + landed.length, "rows lost or doubled");
    assert.equal(new Set(landed.map((l) => l.target.id)).size, landed.length, "two handoffs got one id");
    assert.deepEqual(debris(s.home), []);
    assert.deepEqual(debris(s.bridge), []);
    assert.deepEqual(readdirSync(join(s.bridge, "intents")), [], "an intent was left");

    const ops = new Set(pendingOperations(s.bridge).map((e) => e.op));
    for (const { op, target } of landed) {
      assert.ok(ops.has(op), `undo cannot see ${op}`);
      const shown = await runCli(["inspect", target.id, "--from", to, homeFlag(to), s.home], s.env);
      assert.equal(shown.code, 0, shown.stderr);
    }
    for (const { op } of landed) {
      const undone = await runCli(["undo", op], s.env);
      assert.equal(undone.code, 0, undone.stderr);
    }
    assert.equal(rowCount(s.database, table), before, "undo did not take every landed handoff back");
    assert.equal(integrity(s.database), "ok");
    const left = Object.keys(snapshot(s.home)).filter((p) =>
      !(p in homeBefore) && !p.endsWith("/") && !/(?:-wal|-shm|-journal)$/.test(p)
    );
    assert.deepEqual(left, [], "undo left files behind");
  });
}

test(`${PARALLEL} handoffs at once into one Claude Code home write ${PARALLEL} distinct transcripts, none overwriting another`, async () => {
  const s = setup("claude-code");
  const runs = Array.from({ length: PARALLEL }, () => startCli(s.args, s.env));
  const results = await Promise.all(runs.map((r) => r.result));
  for (const r of results) assert.equal(r.code, 0, r.stderr);
  const landed = results.map((r) => JSON.parse(r.stdout) as Landed);
  assert.equal(new Set(landed.map((l) => l.target.id)).size, PARALLEL, "two handoffs got one id");
  assert.equal(new Set(landed.map((l) => l.target.path)).size, PARALLEL, "two handoffs wrote one file");
  const ops = new Set(pendingOperations(s.bridge).map((e) => e.op));
  for (const { op, target } of landed) {
    assert.ok(ops.has(op), `undo cannot see ${op}`);
    // Each file is whole and holds its own session only: no other run wrote into it.
    const lines = jsonLines(target.path);
    assert.ok(lines.length > 0);
    const ids = new Set(lines.flatMap((l) => typeof l.sessionId === "string" ? [l.sessionId] : []));
    assert.deepEqual([...ids], [target.id], target.path);
  }
  const sizes = new Set(landed.map((l) => jsonLines(l.target.path).length));
  assert.equal(sizes.size, 1, "the same session handed off eight times differs in length");
  assert.deepEqual(debris(s.home), []);
  assert.deepEqual(debris(s.bridge), []);
  assert.deepEqual(readdirSync(join(s.bridge, "intents")), [], "an intent was left");
});

test("the backup retention rule passes over copies another handoff's prune removed while it was looking", () => {
  // A concurrent handoff or undo applies the rule to the same folder: between our listing of the backups and our
  // look at one, it may be gone. Dangling links stand for exactly that: listed, then not there.
  const bridge = join(tempDir(), "bridge");
  const folder = join(backupsRoot(bridge), "2026-12-01T07-00-00-000Z-hermes-kept");
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, "state.db"), "a copy");
  recordCopy(join(folder, "state.db"), "/store/state.db");
  symlinkSync(join(folder, "removed meanwhile.db"), join(folder, "gone.db"));
  symlinkSync(
    join(bridge, "removed meanwhile"),
    join(backupsRoot(bridge), "2026-12-01T07-00-00-001Z-hermes-gone"),
  );
  const plan = planPrune(bridge, DEFAULT_KEEP, new Date("2026-12-01T08:00:00Z"));
  assert.deepEqual(plan.keep.map((c) => c.path), [join(folder, "state.db")]);
  assert.deepEqual(plan.remove, []);
});

test("a handoff still under way keeps its backups when another handoff into the same store finishes and prunes", () => {
  // Eight handoffs into one state.db each back it up; the first to finish applies the rule (newest copies of
  // each original kept) while the others are still writing. A --force handoff's undo restores the session it
  // displaced from its copy, and recovery may roll back from it: it is not an old copy to drop.
  const bridge = join(tempDir(), "bridge");
  const copyAt = (stamp: string, op: string) => {
    const folder = join(backupsRoot(bridge), `2026-12-01T07-00-0${stamp}-000Z-hermes-${op}`);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "state.db"), `copy ${op}`);
    recordCopy(join(folder, "state.db"), "/store/state.db");
    return folder;
  };
  const underWay = copyAt("0", "under-way");
  for (const [i, op] of ["done-1", "done-2", "done-3"].entries()) copyAt(String(i + 1), op);
  writeIntent(bridge, {
    kind: "handoff",
    op: "under-way",
    at: "2026-12-01T07:00:00.000Z",
    pid: process.pid,
    host: hostname(),
    source: { harness: "claude-code", id: "s" },
    target: { harness: "hermes", id: "t", path: "/store/state.db" },
    files: [],
    folders: [],
    databases: ["/store/state.db"],
    rows: [],
    backupFolder: underWay,
  });
  const plan = planPrune(bridge, DEFAULT_KEEP, new Date("2026-12-01T08:00:00Z"));
  assert.ok(plan.keep.some((c) => c.path === join(underWay, "state.db")), "the copy under way was pruned");
  assert.deepEqual(plan.remove.map((c) => basename(dirname(c.path))), [
    "2026-12-01T07-00-01-000Z-hermes-done-1",
  ]);
});
