import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const env = { SESSION_BRIDGE_HOME: join(root, "bridge") };
const home = join(root, "claude");
const seeded = seedClaudeHome(home, "thinking-tool-use");
const target = join(root, "target");
mkdirSync(target);

async function handoff(extra: string[] = []) {
  const r = await runCliJson([
    "handoff",
    seeded.id,
    "--to",
    "claude",
    "--cwd",
    target,
    "--claude-home",
    home,
    ...extra,
  ], env);
  assert.equal(r.code, 0, r.stderr);
  return r.json as { op: string; target: { path: string; id: string } };
}

test("undo removes exactly what the last handoff created", async () => {
  const before = snapshot(home);
  const done = await handoff();
  assert.ok(existsSync(done.target.path));
  const r = await runCli(["undo", "--claude-home", home], env);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`removed ${done.target.path}`));
  const after = snapshot(home);
  for (const path of Object.keys(after)) {
    assert.ok(path in before || path.endsWith("/"), `left behind: ${path}`);
  }
  assert.equal((await runCli(["undo"], env)).code, 1, "nothing left to undo");
});

test("undo refuses to delete a session that was resumed since, unless forced, and then saves it", async () => {
  const done = await handoff();
  appendFileSync(
    done.target.path,
    `${JSON.stringify({ type: "last-prompt", lastPrompt: "new work", sessionId: done.target.id })}\n`,
  );
  const refused = await runCli(["undo", done.op], env);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /changed since the handoff/);
  assert.ok(existsSync(done.target.path));
  const forced = await runCliJson(["undo", done.op, "--force"], env);
  assert.equal(forced.code, 0, forced.stderr);
  assert.ok(!existsSync(done.target.path));
  const saved = (forced.json.backups as string[])[0]!;
  assert.match(readFileSync(saved, "utf8"), /new work/);
});

test("undo of a --force handoff restores the session it replaced", async () => {
  const id = "0c0c0c0c-0000-4000-8000-000000000002";
  const first = await handoff(["--session-id", id]);
  const original = readFileSync(first.target.path, "utf8");
  await handoff(["--session-id", id, "--force", "--no-handshake"]);
  assert.notEqual(readFileSync(first.target.path, "utf8"), original);
  const r = await runCli(["undo"], env);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(first.target.path, "utf8"), original);
});

test("undo --dry-run changes nothing", async () => {
  const done = await handoff();
  const before = snapshot(root);
  const r = await runCli(["undo", "--dry-run"], env);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /would remove/);
  assert.deepEqual(snapshot(root), before);
  assert.ok(existsSync(done.target.path));
});
