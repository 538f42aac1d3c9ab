import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import {
  immediateTransaction,
  insertRow,
  onlineBackup,
  openForWrite,
  openReadOnly,
  tableColumns,
} from "../lib/store/sqlite.ts";
import { InputError } from "../lib/errors.ts";
import { scriptArgv } from "../lib/runtime.ts";
import { tempDir } from "./helpers/tmp.ts";

const dir = tempDir();
const hash = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

test("a read-only open leaves the -wal of a database another process holds open untouched", async () => {
  const path = join(dir, "live.db");
  const [bin, ...pre] = scriptArgv(fileURLToPath(new URL("./helpers/hold-wal.ts", import.meta.url)));
  const holder = spawn(bin!, [...pre, path], { stdio: ["pipe", "pipe", "inherit"] });
  try {
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on("data", (d: Buffer) => d.toString().includes("ready") && resolve());
      holder.on("exit", (code) => reject(new Error(`holder exited ${code}`)));
    });
    const before = { wal: hash(`${path}-wal`), db: hash(path) };
    assert.ok(readFileSync(`${path}-wal`).length > 0, "rows are still in the WAL");
    const db = openReadOnly(path);
    assert.equal((db.prepare("SELECT count(*) AS n FROM sessions").get() as { n: number }).n, 50);
    db.close();
    assert.deepEqual({ wal: hash(`${path}-wal`), db: hash(path) }, before);
  } finally {
    holder.stdin.end();
    await new Promise((r) => holder.on("close", r));
  }
});

test("a file that is not SQLite is refused as bad input before SQLite touches it", () => {
  const path = join(dir, "not.db");
  writeFileSync(path, "hello, I am text\n");
  const before = hash(path);
  assert.throws(
    () => openReadOnly(path),
    (e: Error) => e instanceof InputError && /not a SQLite database/.test(e.message),
  );
  assert.throws(() => openForWrite(path), InputError);
  assert.equal(hash(path), before);
});

test("a failing transaction rolls back and leaves the database byte-identical", async () => {
  const path = join(dir, "tx.db");
  const setup = new DatabaseSync(path);
  setup.exec("CREATE TABLE t (id TEXT PRIMARY KEY, v TEXT NOT NULL)");
  setup.close();
  const before = hash(path);
  const db = openForWrite(path);
  await assert.rejects(
    immediateTransaction(db, () => {
      insertRow(db, "t", { id: "a", v: "ok" });
      insertRow(db, "t", { id: "b", v: null });
    }),
    /NOT NULL/,
  );
  db.close();
  assert.equal(hash(path), before);
});

test("online backup copies a consistent database and columns are discovered by name", async () => {
  const path = join(dir, "src.db");
  const src = new DatabaseSync(path);
  src.exec("CREATE TABLE threads (id TEXT PRIMARY KEY, title TEXT NOT NULL DEFAULT '', n INTEGER)");
  insertRow(src, "threads", { id: "x", title: "t", n: 1 });
  const copy = await onlineBackup(src, join(dir, "backups"), "src.db");
  src.close();
  const back = new DatabaseSync(copy, { readOnly: true });
  assert.deepEqual({ ...(back.prepare("SELECT * FROM threads").get() as object) }, {
    id: "x",
    title: "t",
    n: 1,
  });
  assert.deepEqual(tableColumns(back, "threads").map((c) => [c.name, c.notnull, c.primaryKey]), [
    ["id", false, true],
    ["title", true, false],
    ["n", false, false],
  ]);
  back.close();
});

test("a read-only look at a WAL database no connection holds leaves no -wal or -shm beside it", () => {
  const path = join(tempDir(), "idle-wal.db");
  const db = new DatabaseSync(path);
  db.exec("PRAGMA journal_mode = WAL; CREATE TABLE t (x); INSERT INTO t VALUES (1)");
  db.close();
  // As a harness leaves its store when it exits: the header still says WAL, nothing lies beside the file.
  assert.deepEqual(readdirSync(dirname(path)), ["idle-wal.db"]);
  const reader = openReadOnly(path);
  assert.deepEqual({ ...reader.prepare("SELECT x FROM t").get() }, { x: 1 });
  reader.close();
  assert.deepEqual(readdirSync(dirname(path)), ["idle-wal.db"]);
});
