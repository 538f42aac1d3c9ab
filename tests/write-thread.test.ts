/**
 * A long handoff into Hermes, or into Copilot CLI's index, is written by a worker thread that inserts each
 * batch of rows while the calling thread makes the next (lib/store/write-thread.ts, batched-write.ts; each
 * harness's worker module). It must leave the rows one thread leaves, keep one thread's
 * guarantees (a refusal under the lock, a Ctrl-C, a failure making the rows: nothing written, the lock let go),
 * and say the same things while it waits. tests/write-thread-identical.test.ts compares the two ways on every
 * captured session.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { query, seedHermesHome } from "./helpers/hermes.ts";
import { runCli, startCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { generateClaudeSession } from "../bench/session.ts";
import { startWriteThread, THREADS_VARIABLE } from "../lib/store/write-thread.ts";
import type { CommitJob, CommitOutcome } from "../lib/harnesses/hermes/commit.ts";
import type { Row, RowRun } from "../lib/store/sqlite.ts";
import { InterruptedError, RefusedError } from "../lib/errors.ts";
import { holdingSignals } from "../lib/io/interrupt.ts";
import { type CrashPoint, onCrashPoint } from "../lib/io/crash-points.ts";
import { makeCopilotHome } from "./helpers/harnesses/copilot-cli.ts";
import type { IndexJob } from "../lib/harnesses/copilot-cli/index-commit.ts";
import type { IndexedCounts, IndexedSessionRow } from "../lib/harnesses/copilot-cli/session-index.ts";
import type { IndexedTurn } from "../lib/harnesses/copilot-cli/encode.ts";

const COMMIT_THREAD = "lib/harnesses/hermes/commit-thread.ts";
const SECOND_THREAD = `session-bridge: writing on a second thread (${COMMIT_THREAD})`;

/** A Claude Code session of 10 MB: 4,790 Hermes rows, more than one batch (4,096), so written on a worker. */
function longSession(root: string): string {
  const source = join(root, "long.jsonl");
  generateClaudeSession(source, 10);
  return source;
}

/** Everything a handoff leaves in `db`, the handshake row's minted text and time left out. */
function stored(db: string, id: string) {
  const messages = query(db, "SELECT * FROM messages WHERE session_id = ? ORDER BY id", id);
  const handshake = messages.at(-1)!;
  assert.match(String(handshake.content), /^<session-bridge-handoff>/);
  return {
    sessions: query(db, "SELECT * FROM sessions WHERE id = ?", id),
    messages: messages.slice(0, -1),
    words: query(
      db,
      "SELECT rowid, content FROM messages_fts WHERE rowid IN (SELECT id FROM messages WHERE session_id = ?) " +
        "ORDER BY rowid",
      id,
    ).slice(0, -1),
    trigrams: query(
      db,
      "SELECT count(*) AS n FROM messages_fts_trigram WHERE rowid IN (SELECT id FROM messages WHERE session_id = ?)",
      id,
    ),
  };
}

test("a long handoff into Hermes written on a second thread leaves the rows and full-text entries one thread leaves", async () => {
  const root = tempDir();
  const source = longSession(root);
  const id = "20260101_000000_abc123";
  const handOff = async (name: string, env: Record<string, string>) => {
    const hermes = join(root, name);
    const db = seedHermesHome(hermes, "0.19.0", "text-turns");
    const r = await runCli(
      ["handoff", source, "--to", "hermes", "--hermes-home", hermes, "--cwd", root, "--session-id", id],
      { SESSION_BRIDGE_HOME: join(root, `bridge-${name}`), SESSION_BRIDGE_DEBUG: "1", ...env },
    );
    assert.equal(r.code, 0, r.stderr);
    return { stderr: r.stderr, rows: stored(db, id) };
  };
  const one = await handOff("one", { [THREADS_VARIABLE]: "1" });
  const two = await handOff("two", {});
  assert.ok(!one.stderr.includes(SECOND_THREAD), one.stderr);
  assert.ok(two.stderr.includes(SECOND_THREAD), two.stderr);
  assert.equal(two.rows.messages.length, 4789);
  assert.deepEqual(two.rows, one.rows);
  // Where each thread's time went, told with SESSION_BRIDGE_DEBUG=1: the worker's batches, its wait for rows.
  const spent = new RegExp(
    `second thread \\(${COMMIT_THREAD}\\): (\\d+) batches in ${SECONDS}, of which ${SECONDS} waiting for rows; ` +
      `this thread waited ${SECONDS} for room in its queue`,
  ).exec(two.stderr);
  assert.ok(spent, two.stderr);
  assert.equal(Number(spent[1]), Math.ceil(4789 / 4096));
  for (const { stderr } of [one, two]) {
    assert.match(
      stderr,
      new RegExp(
        `this thread: read ${SECONDS}, fitted ${SECONDS}, planned ${SECONDS}, written and committed ${SECONDS}, ` +
          `recorded ${SECONDS}\\n`,
      ),
    );
  }
});

const SECONDS = "\\d+\\.\\d\\d s";

/** A state.db with the rows of Hermes's fixture, and a job writing session `id` into it. */
function store(root: string, id: string): { db: string; job: CommitJob } {
  const hermes = join(root, "hermes");
  const db = seedHermesHome(hermes, "0.19.0", "text-turns");
  const backupFolder = join(root, "backups");
  mkdirSync(backupFolder, { recursive: true });
  return {
    db,
    job: { id, database: db, title: undefined, lineage: false, force: false, backup: false, backupFolder },
  };
}

const message = (id: string, n: number): RowRun => ({
  names: ["session_id", "role", "content", "timestamp"],
  rows: Array.from(
    { length: n },
    (_, i) => [id, i % 2 ? "assistant" : "user", `message ${i}`, 1_767_225_600 + i],
  ),
});

const counts = (db: string) =>
  query(db, "SELECT (SELECT count(*) FROM sessions) AS s, (SELECT count(*) FROM messages) AS m")[0];

/** Whether the store takes a writer now. */
function canWrite(db: string): boolean {
  const conn = new DatabaseSync(db);
  try {
    conn.exec("PRAGMA busy_timeout = 0; BEGIN IMMEDIATE; ROLLBACK");
    return true;
  } catch {
    return false;
  } finally {
    conn.close();
  }
}

/** The store takes a writer again: the worker let its lock go. */
const writable = (db: string) => assert.ok(canWrite(db), "the store takes a writer");

/** A Hermes write thread for `job`, which must start here (a worker is available under both runtimes). */
async function hermesThread(job: CommitJob) {
  const thread = await startWriteThread<CommitJob, RowRun[], Row, CommitOutcome>(COMMIT_THREAD, job);
  assert.ok(thread, "a worker starts here");
  return thread;
}

test("a write thread inserts the batches sent to it, then the sessions row, in one transaction", async () => {
  const root = tempDir();
  const id = "20260101_000000_batch1";
  const { db, job } = store(root, id);
  const thread = await hermesThread(job);
  await thread.send([message(id, 3)]);
  await thread.send([message(id, 2)]);
  const outcome = await thread.finish({ id, source: "cli", started_at: 1_767_225_600, message_count: 5 });
  assert.deepEqual(outcome, { clash: {}, backups: [], messages: 5 });
  assert.deepEqual(
    query(db, "SELECT content FROM messages WHERE session_id = ? ORDER BY id", id).map((r) => r.content),
    ["message 0", "message 1", "message 2", "message 0", "message 1"],
  );
  assert.deepEqual(query(db, "SELECT message_count FROM sessions WHERE id = ?", id), [{ message_count: 5 }]);
  writable(db);
});

test("the crash tests' hook runs at the write thread's crash points while the worker waits there", async () => {
  const root = tempDir();
  const id = "20260101_000000_points";
  const { db, job } = store(root, id);
  const before = counts(db);
  const seen: { point: CrashPoint; sessions: unknown; locked: boolean }[] = [];
  onCrashPoint((point) => {
    // Time enough for a worker that went on to have committed its two rows (it has them all already).
    const until = Date.now() + 300;
    while (Date.now() < until);
    seen.push({
      point,
      sessions: query(db, "SELECT count(*) AS n FROM sessions")[0]!.n,
      locked: !canWrite(db),
    });
  });
  try {
    const thread = await hermesThread({
      ...job,
      backup: true,
    });
    await thread.send([message(id, 2)]);
    const outcome = await thread.finish({ id, source: "cli", started_at: 0 });
    assert.equal(outcome.backups.length, 1);
  } finally {
    onCrashPoint(undefined);
  }
  // Looked at from this thread at each point: at the backup the worker holds the lock and nothing is in yet; at
  // rows-committed the session is in and the lock let go. A worker that went on would have committed already.
  assert.deepEqual(seen, [
    { point: "backup-taken", sessions: before!.s, locked: true },
    { point: "rows-committed", sessions: Number(before!.s) + 1, locked: false },
  ]);
});

/** The refusal of an id another session holds, naming it and --force: what one thread refuses with. */
const takenRefusal = (taken: string) => (error: unknown) =>
  error instanceof RefusedError && error.message.includes(taken) && error.message.includes("--force");

test("a refusal under the write thread's lock reaches the caller as the refusal it is, and nothing is written", async () => {
  const root = tempDir();
  const { db, job } = store(root, "20260101_000000_taken1");
  const taken = String(query(db, "SELECT id FROM sessions LIMIT 1")[0]!.id);
  const before = counts(db);
  const thread = await hermesThread({
    ...job,
    id: taken,
  });
  await assert.rejects(
    async () => {
      await thread.send([message(taken, 2)]);
      await thread.finish({ id: taken, source: "cli", started_at: 0 });
    },
    takenRefusal(taken),
  );
  assert.deepEqual(counts(db), before);
  writable(db);
});

/** Runs `work`, then checks the store holds the rows it held before and takes a writer again. */
async function leftAsItWas(db: string, work: () => Promise<void>): Promise<void> {
  const before = counts(db);
  await work();
  assert.deepEqual(counts(db), before);
  writable(db);
}

test("rows that could not all be made roll the write thread's transaction back and let its lock go", async () => {
  const root = tempDir();
  const id = "20260101_000000_abort1";
  const { db, job } = store(root, id);
  await leftAsItWas(db, async () => {
    const thread = await hermesThread(job);
    await thread.send([message(id, 4)]);
    await thread.abort();
  });
});

test("a signal while signals are held stops the write thread at its next batch, and it rolls back", async () => {
  const root = tempDir();
  const id = "20260101_000000_signal";
  const { db, job } = store(root, id);
  await leftAsItWas(db, () =>
    assert.rejects(
      holdingSignals(async () => {
        const thread = await hermesThread(job);
        await thread.send([message(id, 2)]);
        process.emit("SIGINT", "SIGINT");
        await thread.send([message(id, 2)]);
        await thread.send([message(id, 2)]);
        await thread.finish({ id, source: "cli", started_at: 0 });
      }),
      (error: unknown) => error instanceof InterruptedError && error.signal === "SIGINT",
    ));
});

/**
 * Runs the CLI with `args` in a child while this process holds `db`'s write lock, sends it SIGINT once it says it
 * waits for the lock, and checks it wrote on a second thread (`secondThread`, its debug line) and stopped as
 * one thread would: exit 130, the one line saying nothing was changed.
 */
async function interruptedWhileLocked(
  db: string,
  args: string[],
  env: Record<string, string>,
  secondThread: string,
): Promise<void> {
  const lock = new DatabaseSync(db);
  lock.exec("BEGIN IMMEDIATE");
  try {
    const child = startCli(args, { ...env, SESSION_BRIDGE_DEBUG: "1" });
    assert.ok(await child.stderrMatches(/ is locked by another process: waiting/), "it waited for the lock");
    process.kill(child.pid, "SIGINT");
    const r = await child.result;
    assert.equal(r.code, 130, r.stderr);
    assert.ok(r.stderr.includes(secondThread), r.stderr);
    assert.match(r.stderr, /session-bridge: interrupted by SIGINT: nothing was changed\n/);
  } finally {
    lock.exec("ROLLBACK");
    lock.close();
  }
}

test("Ctrl-C while a long handoff's write thread waits for Hermes's lock: said as on one thread, nothing changed", async () => {
  const root = tempDir();
  const source = longSession(root);
  const hermes = join(root, "hermes");
  const db = seedHermesHome(hermes, "0.19.0", "text-turns");
  const bridge = join(root, "bridge");
  const before = counts(db);
  await interruptedWhileLocked(
    db,
    ["handoff", source, "--to", "hermes", "--hermes-home", hermes, "--cwd", root],
    { SESSION_BRIDGE_HOME: bridge },
    SECOND_THREAD,
  );
  assert.deepEqual(counts(db), before);
  writable(db);
});

const INDEX_THREAD = "lib/harnesses/copilot-cli/index-thread.ts";
const INDEX_SECOND_THREAD = `session-bridge: writing on a second thread (${INDEX_THREAD})`;

const indexCounts = (db: string) =>
  query(
    db,
    "SELECT (SELECT count(*) FROM sessions) AS s, (SELECT count(*) FROM turns) AS t, " +
      "(SELECT count(*) FROM search_index) AS f",
  )[0];

test("a long handoff into Copilot CLI indexes its turns on a second thread, one search entry each", async () => {
  const root = tempDir();
  const source = longSession(root);
  const home = join(root, "copilot");
  const db = makeCopilotHome(home);
  const id = "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
  const r = await runCli(
    ["handoff", source, "--to", "copilot-cli", "--copilot-home", home, "--cwd", root, "--session-id", id],
    { SESSION_BRIDGE_HOME: join(root, "bridge"), SESSION_BRIDGE_DEBUG: "1" },
  );
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stderr.includes(INDEX_SECOND_THREAD), r.stderr);
  const turns = query(db, "SELECT turn_index FROM turns WHERE session_id = ? ORDER BY id", id);
  assert.ok(turns.length > 1024, `${turns.length} turns: more than one batch`);
  assert.deepEqual(turns.map((t) => t.turn_index), turns.map((_, i) => i));
  assert.deepEqual(query(db, "SELECT count(*) AS n FROM search_index WHERE session_id = ?", id), [{
    n: turns.length,
  }]);
});

test("a refusal under the index thread's lock reaches the caller as the refusal it is, and nothing is written", async () => {
  const root = tempDir();
  const db = makeCopilotHome(join(root, "copilot"));
  const taken = "2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f";
  const seeding = new DatabaseSync(db);
  seeding.prepare("INSERT INTO sessions (id, cwd) VALUES (?, ?)").run(taken, root);
  seeding.close();
  const before = indexCounts(db);
  const thread = await startWriteThread<IndexJob, IndexedTurn[], IndexedSessionRow, IndexedCounts>(
    INDEX_THREAD,
    { id: taken, database: db, force: false },
  );
  assert.ok(thread);
  await assert.rejects(
    async () => {
      await thread.send([{
        userMessage: "a",
        assistantResponse: "b",
        timestamp: "2026-12-05T00:00:00.000Z",
      }]);
      await thread.finish({ id: taken, cwd: root, name: "n", startTime: "t", updatedAt: "t" });
    },
    takenRefusal(taken),
  );
  assert.deepEqual(indexCounts(db), before);
  writable(db);
});

test("Ctrl-C while a long handoff's index thread waits for Copilot's lock: the files are taken back, nothing changed", async () => {
  const root = tempDir();
  const source = longSession(root);
  const home = join(root, "copilot");
  const db = makeCopilotHome(home);
  const before = indexCounts(db);
  const id = "1b2c3d4e-5f6a-4b7c-8d9e-0f1a2b3c4d5e";
  await interruptedWhileLocked(
    db,
    ["handoff", source, "--to", "copilot-cli", "--copilot-home", home, "--cwd", root, "--session-id", id],
    { SESSION_BRIDGE_HOME: join(root, "bridge") },
    INDEX_SECOND_THREAD,
  );
  assert.deepEqual(indexCounts(db), before);
  assert.equal(existsSync(join(home, "session-state", id)), false, "the session folder is gone");
  writable(db);
});

test("every worker module (one that calls serveWrite) is an entry point of the binary's build, npm's and Deno's", () => {
  const root = join(import.meta.dirname!, "..");
  const workers = readdirSync(join(root, "lib"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && /^serveWrite[<(]/m.test(readFileSync(join(root, "lib", f), "utf8")))
    .map((f) => `lib/${f}`)
    .sort();
  assert.deepEqual(workers, [INDEX_THREAD, COMMIT_THREAD].sort());
  const npmBuild = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).scripts.build as string;
  const denoBuild = readFileSync(join(root, "deno.json"), "utf8").match(/^\s*"build":\s*"([^"]*)"/m)![1]!;
  for (const build of [npmBuild, denoBuild]) {
    for (const worker of workers) assert.ok(build.split(" ").includes(worker), `${worker} in: ${build}`);
  }
});
