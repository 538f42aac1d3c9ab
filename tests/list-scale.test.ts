/**
 * Listing at scale reads what the listing shows and no more: a fixed number of SQLite statements per store
 * database however many sessions it holds (counted, never timed), and a Claude Code transcript's title from
 * its end without reading the middle.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { randomUUID } from "node:crypto";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { buildWorld, type World } from "../bench/worlds.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import { listSessions } from "../lib/pipeline/list.ts";
import { generateClaudeSession } from "../bench/session.ts";
import { tempDir } from "./helpers/tmp.ts";

/** Every statement SQLite runs on any connection while `work` runs: prepared statements' runs and exec()s. */
async function countStatements(work: () => Promise<unknown>): Promise<number> {
  const proto = DatabaseSync.prototype;
  const [prepare, exec] = [proto.prepare, proto.exec];
  let count = 0;
  proto.exec = function (this: DatabaseSync, sql: string) {
    count++;
    return exec.call(this, sql);
  };
  proto.prepare = function (this: DatabaseSync, sql: string): StatementSync {
    const statement = prepare.call(this, sql);
    for (const name of ["all", "get", "run", "iterate"] as const) {
      const original = statement[name].bind(statement) as (...args: unknown[]) => unknown;
      Object.defineProperty(statement, name, {
        value: (...args: unknown[]) => {
          count++;
          return original(...args);
        },
        writable: true,
        configurable: true,
      });
    }
    return statement;
  };
  try {
    await work();
    return count;
  } finally {
    [proto.prepare, proto.exec] = [prepare, exec];
  }
}

/** Sessions are dealt to the harnesses in turn: 3 or 60 each, for however many are registered. */
const harnessCount = builtinRegistry.harnesses.length;
const small = buildWorld(tempDir(), { sessions: 3 * harnessCount, megabytes: 0.05 * harnessCount });
const large = buildWorld(tempDir(), { sessions: 60 * harnessCount, megabytes: harnessCount });

for (const harness of ["codex", "hermes", "opencode"] as const) {
  test(`listing a ${harness} store runs the same few SQLite statements for 3 sessions or 60`, async () => {
    const count = async (world: World) => {
      let listed = 0;
      const statements = await countStatements(async () => {
        const result = await listSessions({
          registry: builtinRegistry,
          homes: world.homes,
          from: harness,
        });
        assert.deepEqual(result.broken, []);
        listed = result.sessions.length;
      });
      return { listed, statements };
    };
    const [few, many] = [await count(small), await count(large)];
    assert.deepEqual([few.listed, many.listed], [3, 60]);
    assert.equal(many.statements, few.statements);
    assert.ok(few.statements > 0 && few.statements <= 8, `${few.statements} statements for one store`);
  });
}

test("the bench's world deals its sessions to every registered harness, each listed under its own project and title", async () => {
  const result = await listSessions({ registry: builtinRegistry, homes: small.homes });
  assert.deepEqual(result.broken, []);
  const byHarness = new Map<string, typeof result.sessions>();
  for (const s of result.sessions) {
    if (!byHarness.has(s.harness)) byHarness.set(s.harness, []);
    byHarness.get(s.harness)!.push(s);
  }
  assert.deepEqual(
    [...byHarness.keys()].sort(),
    builtinRegistry.harnesses.map((h) => h.name).sort(),
  );
  for (const [harness, sessions] of byHarness) assert.equal(sessions.length, 3, harness);
  // Each harness's sessions (every n-th of the n harnesses, from its place in the registry on): the project each
  // was written in, and the title the world gives where the store keeps one (Claude Code's and Hermes's are taken
  // from the captured first prompt).
  builtinRegistry.harnesses.forEach((h, place) => {
    const dealt = [0, 1, 2].map((turn) => place + turn * harnessCount);
    const listed = byHarness.get(h.name)!;
    assert.deepEqual(
      listed.map((s) => s.cwd).sort(),
      dealt.map((i) => `/home/user/projects/app-${i}`).sort(),
      h.name,
    );
    if (h.name === "claude-code" || h.name === "hermes") return;
    assert.deepEqual(
      listed.map((s) => s.title).sort(),
      dealt.map((i) => `Refactor step ${i} of the parser module`).sort(),
      h.name,
    );
  });
});

test("listing a Hermes store visits message rows only for each session's preview: counts and times come from one pass over one index", async () => {
  const proto = DatabaseSync.prototype;
  const prepare = proto.prepare;
  const statements: string[] = [];
  proto.prepare = function (this: DatabaseSync, sql: string): StatementSync {
    statements.push(sql);
    return prepare.call(this, sql);
  };
  try {
    await listSessions({ registry: builtinRegistry, homes: small.homes, from: "hermes" });
  } finally {
    proto.prepare = prepare;
  }
  // Hermes's own schema and indexes (bench/worlds.ts starts from a state.db Hermes 0.19.0 created).
  const db = new DatabaseSync(join(small.homes.hermes, "state.db"), { readOnly: true });
  try {
    const plans = statements.filter((sql) => /\bFROM messages\b/.test(sql)).flatMap((sql) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[]).map((r) => r.detail)
    );
    const messageReads = plans.filter((d) => /^(?:SCAN|SEARCH) m\b/.test(d));
    // The counts and last times together, from one index (a second index for the times read a quarter more
    // pages cold); only the preview (the first user row) needs a row; no read of messages walks the table.
    assert.deepEqual(messageReads.filter((d) => /USING COVERING INDEX/.test(d)).length, 1, plans.join("\n"));
    assert.deepEqual(messageReads.filter((d) => !/USING COVERING INDEX/.test(d)).length, 1, plans.join("\n"));
    assert.ok(messageReads.every((d) => /USING (?:COVERING )?INDEX/.test(d)), plans.join("\n"));
  } finally {
    db.close();
  }
});

test("Claude Code sessions renamed late in long transcripts are each listed under their own new title", async () => {
  const home = join(tempDir(), "claude");
  // Long ones (their middles unread) and a short one read whole; non-ASCII titles, one cut-free at the end.
  const sessions = [
    { cwd: "/home/user/projects/parser", megabytes: 1, title: "parser rewrite" },
    { cwd: "/home/user/projects/naïve", megabytes: 0.01, title: "tests für den Parser ✓" },
    { cwd: "/home/user/projects/web", megabytes: 0.5, title: "ウェブの修正 🚀" },
  ].map((s, i) => ({ ...s, id: randomUUID(), at: new Date(Date.UTC(2026, 5, 1 + i)), last: new Date(0) }));
  for (const s of sessions) {
    const path = join(home, "projects", s.cwd.replace(/[^A-Za-z0-9]/g, "-"), `${s.id}.jsonl`);
    mkdirSync(dirname(path), { recursive: true });
    const { records } = generateClaudeSession(path, s.megabytes, {
      sessionId: s.id,
      cwd: s.cwd,
      start: s.at,
    });
    // Dated by its last message (the generator writes one a second from its start), not its file's time.
    s.last = new Date(s.at.getTime() + (records - 1) * 1000);
    appendFileSync(
      path,
      `${JSON.stringify({ type: "custom-title", customTitle: s.title, sessionId: s.id })}\n`,
    );
    utimesSync(path, s.at, s.at);
  }
  const listed = await listSessions({
    registry: builtinRegistry,
    homes: { "claude-code": home, codex: join(home, "none"), hermes: join(home, "none") },
    from: "claude-code",
  });
  assert.deepEqual(
    listed.sessions.map((s) => [s.id, s.cwd, s.title, s.updatedAt]),
    sessions.reverse().map((s) => [s.id, s.cwd, s.title, s.last.toISOString()]),
  );
});

/** Bytes this process has read through read(2) and its kin so far (Linux's per-process I/O accounting). */
const bytesRead = () => Number(/^rchar: (\d+)$/m.exec(readFileSync("/proc/self/io", "utf8"))![1]);
const onLinux = process.platform === "linux" ? false : "bytes read are counted in /proc, on Linux only";

test(
  "listing a long Claude Code transcript reads its first 4 KB and last 16 KB, 16 KB of its start for a long first record",
  {
    skip: onLinux,
  },
  async () => {
    const cwd = "/home/user/projects/parser";
    const homes = [join(tempDir(), "claude"), join(tempDir(), "claude")];
    const buckets = homes.map((home) => join(home, "projects", cwd.replace(/[^A-Za-z0-9]/g, "-")));
    for (const bucket of buckets) mkdirSync(bucket, { recursive: true });
    const [plain, pasted] = [randomUUID(), randomUUID()];
    generateClaudeSession(join(buckets[0]!, `${plain}.jsonl`), 1, { sessionId: plain, cwd });
    // The same session behind a first record of 10 KB (a pasted log): its cwd and words lie beyond 4 KB.
    const first = {
      type: "user",
      message: { role: "user", content: `fix this log\n${"log line ".repeat(1100)}` },
      uuid: randomUUID(),
      parentUuid: null,
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd,
      sessionId: pasted,
    };
    writeFileSync(
      join(buckets[1]!, `${pasted}.jsonl`),
      `${JSON.stringify(first)}\n${readFileSync(join(buckets[0]!, `${plain}.jsonl`), "utf8")}`,
    );
    const list = async (home: string) => {
      const before = bytesRead();
      const { sessions } = await listSessions({
        registry: builtinRegistry,
        homes: { "claude-code": home, codex: join(home, "none"), hermes: join(home, "none") },
        from: "claude-code",
      });
      return { rows: sessions.map((s) => [s.id, s.cwd, s.title?.slice(0, 16)]), read: bytesRead() - before };
    };
    await list(homes[0]!); // the listing's code loaded before anything is counted
    const [listed, widened] = [await list(homes[0]!), await list(homes[1]!)];
    assert.deepEqual(listed.rows, [[plain, cwd, "Run this for me."]]);
    assert.deepEqual(widened.rows, [[pasted, cwd, "fix this log"]]);
    // 4 + 16 KB (a 16 KB head read 32 KB); the long first record: that, then 16 + 16 KB.
    assert.ok(listed.read <= 24 * 1024, `${listed.read} bytes read`);
    assert.ok(widened.read <= 56 * 1024, `${widened.read} bytes read`);
  },
);
