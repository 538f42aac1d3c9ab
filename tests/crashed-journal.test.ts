/**
 * A harness that crashed mid-transaction in a rollback-journal (DELETE mode) state.db leaves a hot `-journal`;
 * a read-only connection cannot roll it back and SQLite says "attempt to write a readonly database". Reading
 * goes on from a private copy rolled back as the harness itself will roll back its store, and the store and
 * its journal are left exactly as they were.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../lib/runtime.ts";
import { runCli } from "./helpers/cli.ts";
import { query, seedHermesHome } from "./helpers/hermes.ts";
import { tempDir } from "./helpers/tmp.ts";

const HERMES_ID = "20261129_210454_093577";
const hash = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");
const snapshots = () => readdirSync(tmpdir()).filter((n) => n.startsWith("session-bridge-snapshot-"));

test("a crashed writer's rollback journal does not block reading, and the store and journal stay untouched", async () => {
  const home = tempDir();
  const db = seedHermesHome(home, "0.19.0", "compressed");
  const before = await runCli(["inspect", `${db}#${HERMES_ID}`, "--hermes-home", home]);
  assert.ok(query(db, "SELECT id FROM messages").length > 1);
  const [bin, ...pre] = scriptArgv(fileURLToPath(new URL("./helpers/crash-mid-write.ts", import.meta.url)));
  spawnSync(bin!, [...pre, db], { stdio: "ignore" });
  const journal = `${db}-journal`;
  assert.ok(existsSync(journal) && statSync(journal).size > 0, "the killed writer left a hot journal");
  const saved = { db: hash(db), journal: hash(journal) };
  const leftBefore = snapshots();

  const inspect = await runCli(["inspect", `${db}#${HERMES_ID}`, "--hermes-home", home]);
  assert.equal(inspect.code, 0, inspect.stderr);
  assert.equal(inspect.stdout, before.stdout, "the session reads as it was before the crash");
  const list = await runCli(["list", "--full-ids", "--from", "hermes", "--hermes-home", home]);
  assert.equal(list.code, 0, list.stderr);
  assert.ok(list.stdout.includes(HERMES_ID));
  const show = await runCli(["show", `${db}#${HERMES_ID}`, "--hermes-home", home]);
  assert.equal(show.code, 0, show.stderr);
  assert.doesNotMatch(show.stdout, /half-written/, "what is read is the store as it was before the crash");
  assert.deepEqual(
    { db: hash(db), journal: hash(journal) },
    saved,
    "the store and its journal are untouched",
  );
  assert.deepEqual(snapshots(), leftBefore, "no private copy stays behind");
});

test("a journal beside a database that is damaged anyway says both what is left and what is wrong", async () => {
  const home = tempDir();
  const db = seedHermesHome(home, "0.19.0", "compressed");
  const [bin, ...pre] = scriptArgv(fileURLToPath(new URL("./helpers/crash-mid-write.ts", import.meta.url)));
  spawnSync(bin!, [...pre, db], { stdio: "ignore" });
  // The journal's header is lost too: the copy cannot be rolled back into a readable database.
  const bytes = readFileSync(db);
  bytes.fill(0x5a, 100, bytes.length);
  writeFileSync(db, bytes);
  const r = await runCli(["inspect", `${db}#${HERMES_ID}`, "--hermes-home", home]);
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    new RegExp(`^session-bridge: ${db}: a writer that stopped mid-transaction left ${db}-journal, .*\n$`),
  );
});
