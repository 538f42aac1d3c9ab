/**
 * What SQLite, the runtime or the file system say when a store is damaged or odd ("database disk image is
 * malformed", "no such column", "Invalid Date", "Value is too large", EISDIR, "cannot rollback") never reaches
 * the user raw: bad input is exit 2 naming the file, a damaged target is refused naming it, and a full disk
 * says so and leaves nothing half-written.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { seedHermesHome } from "./helpers/hermes.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { immediateTransaction, insertRow, openForWrite } from "../lib/store/sqlite.ts";
import { DiskFullError } from "../lib/errors.ts";

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
    runCli([...args, "--claude-home", claude, "--codex-home", codex, "--hermes-home", hermes]);
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

test("a stored time no date can hold is read as no time: list and inspect still work", async () => {
  const h = homes("dates");
  sql(h.hermesDb, "UPDATE sessions SET started_at = 'yesterday'; UPDATE messages SET timestamp = 1e300");
  sql(h.codexDb, "UPDATE threads SET updated_at_ms = 1e300");
  const list = await h.cli(["list", "--full-ids"]);
  assert.equal(list.code, 0, list.stderr);
  assert.ok(list.stdout.includes(HERMES_ID) && list.stdout.includes(h.thread.id), list.stdout);
  assert.doesNotMatch(list.stdout + list.stderr, /Invalid/);
  const inspect = await h.cli(["inspect", HERMES_ID]);
  assert.equal(inspect.code, 0, inspect.stderr);
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

/** Mounts a 1 MB tmpfs at `dir`; false where this process may not mount (not root). */
function mountTiny(dir: string): boolean {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

// Probed once and unmounted at once, so no mount outlives a test that is filtered out.
const canMount = mountTiny(join(root, "probe")) && (execFileSync("umount", [join(root, "probe")]), true);

test("a handoff into a home on a full disk says the disk is full and leaves nothing half-written", {
  skip: canMount ? false : "mounting a tmpfs needs root (the SQLITE_FULL case above runs everywhere)",
}, async () => {
  const tiny = join(root, "tiny");
  assert.ok(mountTiny(tiny));
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
    execFileSync("umount", [tiny]);
  }
});
