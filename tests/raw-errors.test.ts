/**
 * What SQLite, the runtime or the file system say when a store is damaged or odd ("database disk image is
 * malformed", "no such column", "Invalid Date", "Value is too large", EISDIR, "cannot rollback") never reaches
 * the user raw: bad input is exit 2 naming the file (and line or row), a damaged target is refused naming it,
 * and a full disk says so and leaves nothing half-written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { homeFlags, runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { seedHermesHome } from "./helpers/hermes.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { immediateTransaction, insertRow, openForWrite } from "../lib/store/sqlite.ts";
import { DiskFullError } from "../lib/errors.ts";
import { freeBytes, mountTmpfs, TMPFS_SKIP, unmount } from "./helpers/tmpfs.ts";
import { sizeLimitedCli } from "./helpers/size-limited-cli.ts";

const root = tempDir();
const work = join(root, "work");
mkdirSync(work);
const claude = join(root, "claude");
const { id: claudeId } = seedClaudeHome(claude, "interrupted-tool-call");
const HERMES_ID = "20261129_210454_093577";

/** Fresh Codex and Hermes homes of their own, so each case damages only its copy. */
function homes(name: string) {
  const codex = join(root, name, "codex");
  const hermes = join(root, name, "hermes");
  makeCodexHome(codex);
  const thread = seedCodexThread(codex, "0.169.0", "tool-call");
  const hermesDb = seedHermesHome(hermes, "0.19.0", "compressed");
  const codexDb = join(codex, "state_5.sqlite");
  const cli = (args: string[]) =>
    runCli([...args, ...homeFlags({ "claude-code": claude, codex, hermes }, join(root, name))]);
  return { codex, hermes, thread, codexDb, hermesDb, cli };
}

const sql = (path: string, statement: string) => {
  const db = new DatabaseSync(path);
  db.exec(statement);
  db.close();
};

/** Overwrites most of one page of a database with noise, keeping its header: the damage a failing disk does. */
function damagePage(path: string, table: string) {
  const db = new DatabaseSync(path, { readOnly: true });
  const { rootpage, size } = db.prepare(
    "SELECT rootpage, (SELECT page_size FROM pragma_page_size) AS size FROM sqlite_master WHERE name = ?",
  ).get(table) as { rootpage: number; size: number };
  db.close();
  const bytes = readFileSync(path);
  for (let i = (rootpage - 1) * size + 8; i < rootpage * size; i += 7) bytes[i] = (i * 131) & 0xff;
  writeFileSync(path, bytes);
}

const oneLine = (stderr: string) => stderr.trimEnd().split("\n").at(-1) ?? "";

test("a damaged Codex or Hermes database is bad input naming it as a source, and refused naming it as a target", async () => {
  const h = homes("damaged");
  damagePage(h.hermesDb, "messages");
  damagePage(h.codexDb, "threads");
  const hermes = await h.cli(["inspect", `${h.hermesDb}#${HERMES_ID}`]);
  assert.equal(hermes.code, 2);
  assert.equal(
    hermes.stderr,
    `session-bridge: ${h.hermesDb}: the database is damaged (database disk image is malformed)\n`,
  );
  const codex = await h.cli(["inspect", h.thread.path]);
  assert.equal(codex.code, 2);
  assert.equal(
    codex.stderr,
    `session-bridge: ${h.codexDb}: the database is damaged (database disk image is malformed)\n`,
  );
  for (const [to, database] of [["codex", h.codexDb], ["hermes", h.hermesDb]] as const) {
    const r = await h.cli(["handoff", claudeId, "--to", to, "--cwd", work]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(
      oneLine(r.stderr),
      `session-bridge: cannot write to ${database}: the database is damaged (database disk image is malformed)`,
    );
  }
  const list = await h.cli(["list", "--full-ids"]);
  assert.doesNotMatch(list.stdout, /\bnull\b/, "a row damage left without an id is no session");
});

test("a Hermes store missing a column the reader needs is bad input naming the database and column", async () => {
  const h = homes("column");
  sql(h.hermesDb, "ALTER TABLE messages RENAME COLUMN session_id TO conversation");
  const r = await h.cli(["inspect", `${h.hermesDb}#${HERMES_ID}`]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    new RegExp(`^session-bridge: ${h.hermesDb}: .*no such column: \\w+\\.session_id\\)\n$`),
  );
});

/** A time of the ISO 8601 form that no Date can hold: one millisecond past the last day a Date reaches. */
const BEYOND = "+275760-09-13T00:00:00.001Z";

/** The JSONL file with line `n`'s top-level `timestamp` (a real record's) set to `value`. */
function retimeLine(path: string, n: number, value: string): void {
  const lines = readFileSync(path, "utf8").split("\n");
  const record = JSON.parse(lines[n - 1]!) as Record<string, unknown>;
  assert.equal(typeof record.timestamp, "string", `line ${n} of the fixture has a timestamp`);
  lines[n - 1] = JSON.stringify({ ...record, timestamp: value });
  writeFileSync(path, lines.join("\n"));
}

test("a Claude Code record with a time no date can hold is bad input naming the file and line", async () => {
  const home = join(root, "claude-dates");
  const session = seedClaudeHome(home, "interrupted-tool-call");
  retimeLine(session.path, 2, BEYOND);
  const r = await runCli(["inspect", session.path]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `session-bridge: ${session.path}:2: timestamp "${BEYOND}" is no time a date can hold\n`,
  );
  const handoff = await runCli(["handoff", session.path, "--to", "codex", "--cwd", work, "--dry-run"]);
  assert.equal(handoff.code, 2, handoff.stderr);
});

test("a Codex rollout line with a time no date can hold is bad input naming the file and line", async () => {
  const h = homes("codex-rollout-dates");
  retimeLine(h.thread.path, 3, "2026-13-45T99:00:00Z");
  const r = await h.cli(["inspect", h.thread.path]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `session-bridge: ${h.thread.path}:3: timestamp "2026-13-45T99:00:00Z" is no time a date can hold\n`,
  );
});

test("a Hermes message row with a time no date can hold is bad input naming the database and row", async () => {
  const h = homes("hermes-message-dates");
  const [row] = new DatabaseSync(h.hermesDb, { readOnly: true }).prepare(
    "SELECT id FROM messages WHERE session_id = ? ORDER BY id LIMIT 1",
  ).all(HERMES_ID) as { id: number }[];
  sql(h.hermesDb, `UPDATE messages SET timestamp = 1e300 WHERE id = ${row!.id}`);
  const r = await h.cli(["inspect", `${h.hermesDb}#${HERMES_ID}`]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `session-bridge: ${h.hermesDb}: messages row ${row!.id}: timestamp 1e+300 is no time a date can hold\n`,
  );
});

test("a Hermes snapshot, gateway transcript or export with a time no date can hold is bad input naming the file and where in it", async () => {
  const dir = join(root, "hermes-file-dates");
  mkdirSync(dir);
  const snapshotFixture = "fixtures/hermes/0.19.0/snapshot/sessions/session_20261129_210513_123b9c.json";
  const snapshot = JSON.parse(readFileSync(snapshotFixture, "utf8")) as {
    messages: Record<string, unknown>[];
  };
  snapshot.messages[1]!.timestamp = 1e300;
  const snapshotPath = join(dir, "session_20261129_210513_123b9c.json");
  writeFileSync(snapshotPath, JSON.stringify(snapshot));
  const fromSnapshot = await runCli(["inspect", snapshotPath]);
  assert.equal(fromSnapshot.code, 2);
  assert.equal(
    fromSnapshot.stderr,
    `session-bridge: ${snapshotPath}: message 2: timestamp 1e+300 is no time a date can hold\n`,
  );

  const transcriptPath = join(dir, "20261129_210600_ffb99655.jsonl");
  cpSync("fixtures/hermes/0.14.0/gateway-legacy/sessions/20261129_210600_ffb99655.jsonl", transcriptPath);
  retimeLine(transcriptPath, 2, "2026-11-29T25:06:08.092894");
  const fromTranscript = await runCli(["inspect", transcriptPath, "--from", "hermes"]);
  assert.equal(fromTranscript.code, 2);
  assert.equal(
    fromTranscript.stderr,
    `session-bridge: ${transcriptPath}:2: timestamp "2026-11-29T25:06:08.092894" is no time a date can hold\n`,
  );

  const exportPath = join(dir, "compressed.export.jsonl");
  // The export's first line: one session (an export of several is refused before any time is read).
  const firstLine = readFileSync("fixtures/hermes/0.19.0/compressed.export.jsonl", "utf8").split("\n")[0]!;
  const exported = JSON.parse(firstLine) as Record<string, unknown>;
  exported.started_at = "yesterday";
  writeFileSync(exportPath, JSON.stringify(exported) + "\n");
  const fromExport = await runCli(["inspect", exportPath, "--from", "hermes"]);
  assert.equal(fromExport.code, 2);
  assert.match(
    fromExport.stderr,
    new RegExp(
      `^session-bridge: ${exportPath}:1: session "[^"]+": started_at "yesterday" is no time a date can hold\n$`,
    ),
  );
});

test("a time no date can hold in a Hermes sessions row or the Codex index skips that store in list with one line naming database and row; the other stores are listed", async () => {
  const h = homes("index-dates");
  sql(h.hermesDb, "UPDATE sessions SET started_at = 'yesterday'");
  sql(h.codexDb, "UPDATE threads SET updated_at_ms = 1e300");
  const list = await h.cli(["list"]);
  // Exit 1 as with any store that cannot be read; the readable stores are still listed.
  assert.equal(list.code, 1, list.stderr);
  assert.match(list.stdout, /claude-code/, "the Claude store is still listed");
  const warnings = list.stderr.trimEnd().split("\n");
  assert.equal(warnings.length, 2, list.stderr);
  assert.ok(
    warnings.some((w) =>
      w.includes(
        `${h.hermesDb}: sessions row "${HERMES_ID}": started_at "yesterday" is no time a date can hold`,
      )
    ),
    list.stderr,
  );
  assert.ok(
    warnings.some((w) =>
      w.includes(
        `${h.codexDb}: threads row "${h.thread.id}": updated_at_ms 1e+300 is no time a date can hold`,
      )
    ),
    list.stderr,
  );
  const inspect = await h.cli(["inspect", `${h.hermesDb}#${HERMES_ID}`]);
  assert.equal(inspect.code, 2);
  assert.equal(
    inspect.stderr,
    `session-bridge: ${h.hermesDb}: sessions row "${HERMES_ID}": started_at "yesterday" is no time a date can hold\n`,
  );
});

test("an integer beyond 2^53 in a store is bad input naming the database", async () => {
  const h = homes("big");
  sql(h.hermesDb, "UPDATE messages SET token_count = 9007199254740993");
  const r = await h.cli(["inspect", `${h.hermesDb}#${HERMES_ID}`]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `session-bridge: ${h.hermesDb}: holds an integer beyond 2^53 (9007199254740993), which cannot be read exactly\n`,
  );
});

test("a directory where the output file goes is refused by its own name, and no temp file stays", async () => {
  const out = join(root, "out-dir");
  mkdirSync(out);
  const r = await runCli(["export", claudeId, "-o", out, "--force", "--claude-home", claude]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    `session-bridge: -o: ${out} is a directory: name a file to write in it\n`,
  );
  assert.deepEqual(readdirSync(root).filter((n) => n.endsWith(".tmp")), []);
});

test("a database that fills up during a write is reported as a full disk, and the transaction leaves no row", async () => {
  const path = join(root, "full.db");
  sql(path, "CREATE TABLE t (x TEXT)");
  const db = openForWrite(path);
  try {
    // SQLite's own limit on the file's size: the same SQLITE_FULL a full disk gives, on any machine.
    db.exec("PRAGMA max_page_count = 3");
    await assert.rejects(
      immediateTransaction(db, () => {
        for (let i = 0; i < 100; i++) insertRow(db, "t", { x: "x".repeat(4000) });
      }),
      (error: unknown) => {
        assert.ok(error instanceof DiskFullError, String(error));
        assert.equal(error.message, `the disk is full: no space left to write ${path}`);
        return true;
      },
    );
    assert.equal(db.isTransaction, false);
    assert.deepEqual({ ...db.prepare("SELECT count(*) AS n FROM t").get() }, { n: 0 });
  } finally {
    db.close();
  }
});

test("a handoff into a home on a full disk says the disk is full and leaves nothing half-written", {
  skip: TMPFS_SKIP && `${TMPFS_SKIP} (the SQLITE_FULL case above runs everywhere)`,
}, async () => {
  const tiny = join(root, "tiny");
  assert.ok(mountTmpfs(tiny));
  try {
    const h = homes("full");
    cpSync(h.codex, join(tiny, "codex"), { recursive: true });
    const codex = join(tiny, "codex");
    const before = JSON.stringify(execFileSync("find", [codex]).toString().split("\n").sort());
    // Leave a few kilobytes: too little for the handoff's rollout and rows.
    const free = Number(execFileSync("df", ["-k", "--output=avail", tiny]).toString().trim().split("\n")[1]);
    execFileSync("dd", ["if=/dev/zero", `of=${join(tiny, "filler")}`, "bs=1k", `count=${free - 8}`], {
      stdio: "ignore",
    });
    const r = await runCli([
      "handoff",
      claudeId,
      "--to",
      "codex",
      "--cwd",
      work,
      "--no-backup",
      "--claude-home",
      claude,
      "--codex-home",
      codex,
    ]);
    assert.equal(r.code, 1);
    assert.match(
      oneLine(r.stderr),
      new RegExp(`^session-bridge: the disk is full: no space left to write ${codex}/`),
    );
    assert.doesNotMatch(r.stderr, /rollback|no transaction/);
    const after = JSON.stringify(execFileSync("find", [codex]).toString().split("\n").sort());
    assert.equal(after, before, "no file, folder or temp file of the handoff stays");
    const db = new DatabaseSync(join(codex, "state_5.sqlite"), { readOnly: true });
    assert.deepEqual({ ...db.prepare("PRAGMA integrity_check").get() }, { integrity_check: "ok" });
    assert.deepEqual({ ...db.prepare("SELECT count(*) AS n FROM threads").get() }, { n: 1 });
    db.close();
  } finally {
    unmount(tiny);
  }
});

/** The file size limit of the runs below (`ulimit -f`, KiB): above what a handoff reserves, below its session. */
const LIMIT_KIB = 512;

/** A Claude Code session whose first prompt is 1 MB: its rendering in any target passes LIMIT_KIB. */
function largeSession(): string {
  const home = join(root, "claude-large");
  const session = seedClaudeHome(home, "interrupted-tool-call");
  const lines = readFileSync(session.path, "utf8").split("\n");
  const first = lines.findIndex((l) => l.includes('"type":"user"'));
  const record = JSON.parse(lines[first]!) as { message: { content: unknown } };
  record.message.content = "a long prompt ".repeat(75_000);
  lines[first] = JSON.stringify(record);
  writeFileSync(session.path, lines.join("\n"));
  return session.path;
}

/** The CLI with its files limited to LIMIT_KIB (tests/helpers/size-limited-cli.ts), its own folder `bridge`. */
const cliLimited = (args: string[], bridge: string) =>
  sizeLimitedCli(LIMIT_KIB, args, { SESSION_BRIDGE_HOME: bridge });

test("a handoff whose session passes the file size limit (ulimit -f) names the file it was writing and says so, leaving nothing half-written", () => {
  const large = largeSession();
  for (const to of ["claude", "codex"] as const) {
    const h = homes(`limit-${to}`);
    const home = to === "claude" ? join(root, "limit-claude-home") : h.codex;
    mkdirSync(home, { recursive: true });
    const before = JSON.stringify(execFileSync("find", [home]).toString().split("\n").sort());
    // Written whole (not fitted to the model's window, issue 33): the file must pass the limit.
    const r = cliLimited(
      ["handoff", large, "--to", to, "--fit", "off", "--cwd", work, `--${to}-home`, home],
      join(root, `bridge-limit-${to}`),
    );
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      oneLine(r.stderr),
      new RegExp(
        `^session-bridge: ${home}/\\S+\\.jsonl: the file would be larger than the limit allowed \\(ulimit -f\\)$`,
      ),
    );
    const after = JSON.stringify(execFileSync("find", [home]).toString().split("\n").sort());
    assert.equal(after, before, `no file, folder or temp file of the handoff stays in ${home}`);
  }
});

test(
  "a handoff into a Hermes home on a full disk, whose WAL index cannot grow, says the disk is full naming state.db",
  {
    skip: TMPFS_SKIP,
  },
  async () => {
    const tiny = join(root, "tiny-wal");
    assert.ok(mountTmpfs(tiny));
    try {
      const h = homes("full-wal");
      const hermes = join(tiny, "hermes");
      cpSync(h.hermes, hermes, { recursive: true });
      const database = join(hermes, "state.db");
      sql(database, "PRAGMA journal_mode = WAL");
      for (const suffix of ["-wal", "-shm"]) rmSync(`${database}${suffix}`, { force: true });
      writeFileSync(join(tiny, "filler"), Buffer.alloc(freeBytes(tiny)));
      const r = await runCli([
        "handoff",
        claudeId,
        "--to",
        "hermes",
        "--cwd",
        work,
        "--claude-home",
        claude,
        "--hermes-home",
        hermes,
      ]);
      assert.equal(r.code, 1);
      assert.equal(oneLine(r.stderr), `session-bridge: the disk is full: no space left to write ${database}`);
    } finally {
      unmount(tiny);
    }
  },
);
