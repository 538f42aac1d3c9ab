/**
 * Every handoff keeps its backups in a folder of its own. The folder was named after the time, the harness and
 * the target id only, so two handoffs of one id in the same millisecond (eight processes racing, found by the
 * crash-test's races campaign) copied state.db into the same file at once, and the losers printed SQLite's
 * raw "disk I/O error" or "not an error"; and a handoff into an id made again at the same instant wrote over the
 * backup an earlier one's undo may still need.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import * as api from "../lib/mod.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { seedHermesHome } from "./helpers/hermes.ts";
import { tempDir } from "./helpers/tmp.ts";
import { integrityProblem } from "../campaigns/integrity.ts";

function homes() {
  const root = realpathSync(tempDir("sb-backup-folders-"));
  const claude = seedClaudeHome(join(root, "claude"), "plain-text");
  seedHermesHome(join(root, "hermes"), "0.19.0", "text-turns");
  const project = join(root, "project");
  mkdirSync(project);
  const where = api.stores({
    given: { "claude-code": join(root, "claude"), hermes: join(root, "hermes") },
    env: { HOME: root, SESSION_BRIDGE_HOME: join(root, "bridge") },
  });
  return { where, request: { ...where, source: { ref: claude.id }, to: "hermes", cwd: project } };
}

const NOW = new Date("2026-12-01T06:00:00Z");
const ID = "20261201_060000_abcdef";

test("a handoff into an id made again in the same millisecond keeps its backup apart from the earlier one's", async () => {
  const { where, request } = homes();
  const first = await api.handoff({ ...request, sessionId: ID, now: NOW });
  const [firstBackup] = first.backup.paths;
  assert.ok(firstBackup, "the first handoff took no backup");
  await api.undo({ op: first.op, bridgeHome: where.bridgeHome });
  const second = await api.handoff({ ...request, sessionId: ID, now: NOW });
  const [secondBackup] = second.backup.paths;
  // Apart, the second copy cannot write over the first. (Whether the first is still there afterwards is the
  // retention rule's to say: it keeps the newest two copies of state.db, and the undo's own copy is one.)
  assert.notEqual(dirname(secondBackup!), dirname(firstBackup), "both backups are in one folder");
  assert.ok(
    dirname(firstBackup).endsWith(first.op),
    "the first backup's folder is named after its operation",
  );
  assert.ok(
    dirname(secondBackup!).endsWith(second.op),
    "the second backup's folder is named after its operation",
  );
});

test("two handoffs of one id at the same moment into Hermes: one lands, the other is refused in one clear line", async () => {
  const { request } = homes();
  const outcomes = await Promise.allSettled(
    [1, 2].map(() => api.handoff({ ...request, sessionId: ID, now: NOW })),
  );
  const landed = outcomes.filter((o) => o.status === "fulfilled");
  assert.equal(
    landed.length,
    1,
    JSON.stringify(outcomes.map((o) => o.status === "rejected" && String(o.reason))),
  );
  const refused = outcomes.find((o) => o.status === "rejected")!.reason as Error;
  assert.ok(refused instanceof api.RefusedError, String(refused));
  assert.doesNotMatch(refused.message, /disk I\/O error|not an error|SQLITE_/);
  assert.equal(refused.message.split("\n").length, 1, refused.message);
  const [backup] = landed[0]!.value.backup.paths;
  assert.equal(integrityProblem(backup), undefined, "the winner's backup is not a whole database");
});
