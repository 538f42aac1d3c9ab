import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { storesAtLeast } from "../lib/store/stored-size.ts";

/** A WAL database in a folder of its own, its rows left in the WAL (no checkpoint), and its path. */
function walDatabase(rows: number, bytes: number): { db: DatabaseSync; file: string; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), "stored-size-"));
  const file = join(dir, "store.db");
  const db = new DatabaseSync(file);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0; CREATE TABLE t (data TEXT)");
  const insert = db.prepare("INSERT INTO t VALUES (?)");
  for (let i = 0; i < rows; i++) insert.run("x".repeat(bytes));
  return {
    db,
    file,
    done() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const never = () => {
  throw new Error("counted, where the database's size answered");
};

test("a store smaller than the streaming limit is answered by its files' size, its rows not counted", () => {
  const store = walDatabase(10, 1000);
  try {
    assert.equal(storesAtLeast(store.file, 10 * 1024 * 1024, never), false);
  } finally {
    store.done();
  }
});

test("a store as large as the streaming limit has its rows counted, and the count decides", () => {
  const store = walDatabase(10, 1000);
  try {
    assert.equal(storesAtLeast(store.file, 10_000, () => 9_999), false);
    assert.equal(storesAtLeast(store.file, 10_000, () => 10_000), true);
  } finally {
    store.done();
  }
});

test("rows still in the WAL count towards a store's size: a small main file does not hide them", () => {
  const store = walDatabase(200, 1000);
  try {
    const main = statSync(store.file).size;
    const wal = statSync(`${store.file}-wal`).size;
    assert.ok(main < 200_000 && wal > 200_000, `main ${main}, wal ${wal}`);
    const counted = Number(
      (store.db.prepare("SELECT sum(octet_length(data)) AS n FROM t").get() as { n: number }).n,
    );
    assert.equal(storesAtLeast(store.file, 200_000, () => counted), true);
  } finally {
    store.done();
  }
});
