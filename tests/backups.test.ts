/**
 * Backups are bounded by the retention rule (the newest copies of each original, plus whatever a pending undo
 * restores from), `prune` applies it on demand, and a handoff stopped by a signal leaves nothing behind.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { seedHermesHome } from "./helpers/hermes.ts";
import { homeFlags, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { filesUnder } from "./helpers/files.ts";
import { scriptArgv } from "../lib/runtime.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

function world() {
  const root = tempDir();
  const claudeHome = join(root, "claude");
  const source = seedClaudeHome(claudeHome, "plain-text");
  const hermesHome = join(root, "hermes");
  seedHermesHome(hermesHome, "0.19.0", "text-turns");
  const codexHome = join(root, "codex");
  makeCodexHome(codexHome);
  const bridge = join(root, "bridge");
  mkdirSync(bridge);
  const homes = homeFlags({ "claude-code": claudeHome, hermes: hermesHome, codex: codexHome }, root);
  const run = async (args: string[]) => {
    const r = await runCliJson([...args, ...homes], { SESSION_BRIDGE_HOME: bridge });
    assert.equal(r.code, 0, r.stderr);
    return r.json;
  };
  return { root, source, claudeHome, hermesHome, codexHome, bridge, homes, run };
}

test("three handoff and undo cycles keep only the newest two backups of the database", async () => {
  const w = world();
  const ops: string[] = [];
  for (let i = 0; i < 3; i++) {
    const handed = await w.run([
      "handoff",
      w.source.id,
      "--from",
      "claude",
      "--to",
      "hermes",
      "--cwd",
      w.root,
    ]);
    ops.push(handed.op as string);
    await w.run(["undo", handed.op as string]);
  }
  // Three rows backups were taken (one by each handoff; an undo of rows nobody changed takes none); the rule
  // keeps two, the newest.
  const kept = filesUnder(join(w.bridge, "backups")).filter((f) => !f.endsWith("manifest.json"));
  assert.equal(kept.length, 2, kept.join("\n"));
  assert.match(
    kept[0]!,
    new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z-hermes-[^/]+-${ops[1]}/state\\.db\\.rows$`),
  );
  assert.match(
    kept[1]!,
    new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z-hermes-[^/]+-${ops[2]}/state\\.db\\.rows$`),
  );
});

test("prune --dry-run lists what the rule would remove and removes nothing; prune removes it", async () => {
  const w = world();
  for (let i = 0; i < 2; i++) {
    await w.run([
      "handoff",
      w.source.id,
      "--from",
      "claude",
      "--to",
      "hermes",
      "--cwd",
      w.root,
      "--title",
      `copy ${i}`,
    ]);
  }
  const before = filesUnder(join(w.bridge, "backups"));
  assert.equal(before.filter((f) => f.endsWith("/state.db.rows")).length, 2);
  const planned = await w.run(["prune", "--keep", "1", "--dry-run"]);
  const removed = planned.removed as { path: string; original: string }[];
  assert.equal(removed.length, 1);
  assert.equal(removed[0]!.original, join(w.hermesHome, "state.db"));
  assert.equal(
    removed[0]!.path,
    join(w.bridge, "backups", before.find((f) => f.endsWith("/state.db.rows"))!),
  );
  assert.deepEqual(filesUnder(join(w.bridge, "backups")), before, "a dry run removes nothing");
  const pruned = await w.run(["prune", "--keep", "1"]);
  assert.deepEqual(pruned.removed, planned.removed);
  assert.deepEqual(
    filesUnder(join(w.bridge, "backups")),
    before.slice(2),
    "the copy and its folder are gone",
  );
});

test("a backup that undoing a pending handoff restores from is never pruned", async () => {
  const w = world();
  const id = "0b9e7c52-8d1e-4a57-9a0c-6d3f2b1e4c7a";
  const handoff = [
    "handoff",
    w.source.id,
    "--from",
    "claude",
    "--to",
    "claude",
    "--cwd",
    w.root,
    "--session-id",
    id,
  ];
  await w.run(handoff);
  const replacing = await w.run([...handoff, "--force"]);
  const [replaced] = (replacing.backup as { paths: string[] }).paths;
  const pruned = await w.run(["prune", "--keep", "0"]);
  assert.deepEqual(pruned.removed, []);
  assert.deepEqual(
    (pruned.kept as { path: string; reason: string }[]).map((c) => [c.path, c.reason]),
    [[replaced, "undo"]],
  );
  const target = (replacing.target as { path: string }).path;
  const replacedContent = readFileSync(replaced!, "utf8");
  await w.run(["undo", replacing.op as string]);
  assert.equal(readFileSync(target, "utf8"), replacedContent, "undo restored the replaced session");
});

/**
 * Starts a real handoff in a child process while the test holds the target database's write lock, waits for
 * the child to say it is waiting for that lock (its backup taken, its files written), and sends `signal`.
 */
async function interruptedHandoff(
  w: ReturnType<typeof world>,
  to: string,
  database: string,
  signal: NodeJS.Signals,
) {
  const handoff = ["handoff", w.source.id, "--from", "claude", "--to", to, "--cwd", w.root];
  return await interrupted(w, handoff, database, signal);
}

/** Runs `args` in a child while the test holds `database`'s write lock; signals it once it waits for the lock. */
async function interrupted(
  w: ReturnType<typeof world>,
  args: string[],
  database: string,
  signal: NodeJS.Signals,
) {
  const lock = new DatabaseSync(database);
  lock.exec("BEGIN IMMEDIATE");
  try {
    const [bin, ...pre] = scriptArgv(MAIN);
    const child = spawn(bin!, [...pre, ...args, ...w.homes], {
      env: { ...process.env, SESSION_BRIDGE_HOME: w.bridge, SESSION_BRIDGE_DEBUG: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    let stdout = "";
    child.stdout.on("data", (d) => (stdout += d));
    const waiting = `session-bridge: ${database} is locked by another process`;
    await new Promise<void>((resolve, reject) => {
      child.stderr.on("data", (d) => {
        stderr += d;
        if (stderr.includes(waiting)) resolve();
      });
      child.on("exit", () => reject(new Error(`exited before waiting for the lock: ${stderr}`)));
    });
    const backupsWhileWaiting = filesUnder(join(w.bridge, "backups"));
    // process.kill, not child.kill: Deno's child.kill reports the sent signal as the exit cause whatever happens.
    process.kill(child.pid!, signal);
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)));
    return { code, stdout, stderr, backupsWhileWaiting };
  } finally {
    lock.exec("ROLLBACK");
    lock.close();
  }
}

test("Ctrl-C during a handoff to Codex leaves no rollout, temp file, backup or ledger entry", async () => {
  const w = world();
  const storeBefore = filesUnder(w.codexHome);
  const r = await interruptedHandoff(w, "codex", join(w.codexHome, "state_5.sqlite"), "SIGINT");
  assert.ok(r.backupsWhileWaiting.some((f) => f.endsWith("/state_5.sqlite")), "it was mid-handoff");
  assert.equal(r.code, 130, r.stderr);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /\nsession-bridge: interrupted by SIGINT: nothing was changed\n$/);
  assert.deepEqual(filesUnder(w.codexHome), storeBefore);
  assert.deepEqual(filesUnder(w.bridge), []);
  const db = new DatabaseSync(join(w.codexHome, "state_5.sqlite"), { readOnly: true });
  assert.deepEqual({ ...db.prepare("SELECT count(*) AS n FROM threads").get() }, { n: 0 });
  db.close();
});

test("SIGTERM during a handoff to Hermes leaves the database, backups and ledger as they were", async () => {
  const w = world();
  const database = join(w.hermesHome, "state.db");
  const rows = () => {
    const db = new DatabaseSync(database, { readOnly: true });
    const n = {
      ...db.prepare("SELECT (SELECT count(*) FROM sessions) AS s, (SELECT count(*) FROM messages) AS m")
        .get(),
    };
    db.close();
    return n;
  };
  const before = { rows: rows(), files: filesUnder(w.hermesHome) };
  const r = await interruptedHandoff(w, "hermes", database, "SIGTERM");
  // It was mid-handoff (waiting for the lock); the rows it replaces are copied only once it holds the lock.
  assert.deepEqual(r.backupsWhileWaiting, []);
  assert.equal(r.code, 143, r.stderr);
  assert.match(r.stderr, /\nsession-bridge: interrupted by SIGTERM: nothing was changed\n$/);
  assert.deepEqual({ rows: rows(), files: filesUnder(w.hermesHome) }, before);
  assert.deepEqual(filesUnder(w.bridge), []);
});

test("prune leaves a backup folder another process has just made, and removes one left empty for a day", async () => {
  const w = world();
  const stamp = (d: Date) => d.toISOString().replace(/[:.]/g, "-");
  const fresh = join(w.bridge, "backups", `${stamp(new Date())}-codex-in-progress`);
  const abandoned = join(w.bridge, "backups", `${stamp(new Date(Date.now() - 2 * 86_400_000))}-codex-killed`);
  mkdirSync(fresh, { recursive: true });
  mkdirSync(abandoned, { recursive: true });
  writeFileSync(join(abandoned, ".manifest.json.tmp"), "{");
  const pruned = await w.run(["prune"]);
  assert.deepEqual(pruned.removedFolders, [abandoned]);
  assert.equal(existsSync(fresh), true);
  assert.equal(existsSync(abandoned), false);
});

test("a relative SESSION_BRIDGE_HOME records absolute backups, so undo works from another directory", async () => {
  const w = world();
  const id = "4f1c2a9e-7b3d-4e8a-9c6f-2d5b8a1e3c70";
  const args = [
    "handoff",
    w.source.id,
    "--from",
    "claude",
    "--to",
    "claude",
    "--cwd",
    w.root,
    "--session-id",
    id,
  ];
  const env = { SESSION_BRIDGE_HOME: "bridge" };
  assert.equal((await runCliJson([...args, ...w.homes], env, w.root)).code, 0);
  const replacing = await runCliJson([...args, "--force", ...w.homes], env, w.root);
  assert.equal(replacing.code, 0, replacing.stderr);
  const [copy] = (replacing.json.backup as { paths: string[] }).paths;
  assert.ok(copy!.startsWith(`${w.bridge}/backups/`), copy);
  const undone = await runCliJson(
    ["undo", replacing.json.op as string],
    { SESSION_BRIDGE_HOME: w.bridge },
    "/",
  );
  assert.equal(undone.code, 0, undone.stderr);
});

test("Ctrl-C during an undo leaves the handoff in place and still undoable, with no undo backup", async () => {
  const w = world();
  const handed = await w.run(["handoff", w.source.id, "--from", "claude", "--to", "hermes", "--cwd", w.root]);
  const database = join(w.hermesHome, "state.db");
  const before = filesUnder(w.bridge);
  const r = await interrupted(w, ["undo", handed.op as string], database, "SIGINT");
  // It was mid-undo (waiting for the lock), and takes no backup: nobody changed the rows since the handoff.
  assert.ok(!r.backupsWhileWaiting.some((f) => /-undo-/.test(f)), r.backupsWhileWaiting.join("\n"));
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /\nsession-bridge: interrupted by SIGINT: nothing was changed\n$/);
  assert.deepEqual(filesUnder(w.bridge), before);
  const id = (handed.target as { id: string }).id;
  const db = new DatabaseSync(database, { readOnly: true });
  assert.deepEqual({ ...db.prepare("SELECT count(*) AS n FROM sessions WHERE id = ?").get(id) }, { n: 1 });
  db.close();
  await w.run(["undo", handed.op as string]);
});
