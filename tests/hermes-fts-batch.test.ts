/**
 * A handoff into Hermes writes its messages in one statement, so Hermes's FTS5 indexes get one new segment
 * each, as when Hermes's own triggers index a batch, instead of a segment per row to merge later (which made
 * the insert three times the work of the same rows inserted at once). Structural: nothing is timed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { query, seedHermesHome } from "./helpers/hermes.ts";
import { runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const segments = (db: string, index: string) =>
  query(db, `SELECT count(DISTINCT segid) AS n FROM ${index}_idx`)[0]!.n as number;

test("a handoff into Hermes adds one full-text segment per index, not one per message, and every message is found", async () => {
  const root = tempDir();
  const source = seedClaudeHome(join(root, "claude"), "thinking-tool-use");
  const hermes = join(root, "hermes");
  seedHermesHome(hermes, "0.19.0", "text-turns");
  const db = join(hermes, "state.db");
  const indexes = ["messages_fts", "messages_fts_trigram"];
  const before = indexes.map((i) => segments(db, i));
  const r = await runCliJson([
    "handoff",
    source.path,
    "--to",
    "hermes",
    "--hermes-home",
    hermes,
    "--cwd",
    root,
  ], {
    SESSION_BRIDGE_HOME: join(root, "bridge"),
  });
  assert.equal(r.code, 0, r.stderr);
  const id = (r.json.target as { id: string }).id;
  const messages = query(db, "SELECT id FROM messages WHERE session_id = ?", id);
  assert.ok(messages.length >= 5, `${messages.length} messages`);
  assert.deepEqual(indexes.map((i) => segments(db, i) - before[indexes.indexOf(i)]!), [1, 1]);
  for (const index of indexes) {
    const found = query(
      db,
      `SELECT count(*) AS n FROM ${index} WHERE rowid IN (SELECT id FROM messages WHERE session_id = ?)`,
      id,
    );
    assert.equal(found[0]!.n, messages.length, `${index} indexes every message`);
  }
});
