/**
 * Backups and undo in proportion to what they change (issue 30, item 7): a handoff into Hermes backs up the
 * rows it replaces, not the whole state.db; its undo backs up nothing the handoff's source still holds; and the
 * store is given back its space (deleted pages, FTS5 tombstones), as Hermes does after its own deletes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { query, seedHermesHome } from "./helpers/hermes.ts";
import { runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { generateClaudeSession } from "../bench/session.ts";

/** What the store takes on disk: the database and its write-ahead log. */
const storeBytes = (db: string) =>
  statSync(db).size + (existsSync(`${db}-wal`) ? statSync(`${db}-wal`).size : 0);

const bytesOf = (paths: string[]) => paths.reduce((sum, p) => sum + statSync(p).size, 0);

test("a handoff into Hermes and its undo leave state.db within a tenth of its size before, and back up only what they change", async () => {
  const root = tempDir();
  const source = join(root, "long.jsonl");
  generateClaudeSession(source, 4);
  const hermes = join(root, "hermes");
  const db = seedHermesHome(hermes, "0.19.0", "text-turns");
  const env = { SESSION_BRIDGE_HOME: join(root, "bridge") };
  const flags = ["--hermes-home", hermes];
  const before = storeBytes(db);

  // The whole session is written (not fitted to a window, issue 33): the store's growth is what is measured.
  const whole = ["--fit", "off"];
  const handed = await runCliJson(
    ["handoff", source, "--to", "hermes", "--cwd", root, ...whole, ...flags],
    env,
  );
  assert.equal(handed.code, 0, handed.stderr);
  const grown = storeBytes(db) - before;
  assert.ok(grown > 4 * 1024 * 1024, `the session's rows take room in the store (${grown} bytes)`);
  const handoffBackups = (handed.json.backup as { paths: string[] }).paths;
  assert.ok(
    bytesOf(handoffBackups) < grown / 100,
    `the handoff's backup holds what it replaced (nothing), not the store: ${bytesOf(handoffBackups)} bytes`,
  );

  const undone = await runCliJson(["undo", handed.json.op as string, ...flags], env);
  assert.equal(undone.code, 0, undone.stderr);
  assert.deepEqual(undone.json.backups, [], "rows nobody changed since the handoff need no copy");
  const id = (handed.json.target as { id: string }).id;
  assert.equal(query(db, "SELECT count(*) AS n FROM messages WHERE session_id = ?", id)[0]!.n, 0);
  assert.ok(
    storeBytes(db) <= before * 1.1,
    `state.db after the undo: ${storeBytes(db)} bytes, before the handoff: ${before}`,
  );
  assert.equal(query(db, "PRAGMA integrity_check")[0]!.integrity_check, "ok");
  assert.equal(
    query(db, "SELECT count(*) AS n FROM messages_fts WHERE messages_fts MATCH 'refactors'")[0]!.n,
    0,
    "no full-text entry of the removed rows is left",
  );
});
