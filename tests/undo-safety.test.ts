/**
 * Undo never destroys work done after the handoff, and one operation is undone once. A `--force` handoff over an
 * existing Claude Code transcript or Codex rollout, resumed since (the harness appended a turn), is refused by
 * undo and by its dry run, and `undo --force` saves what is there before putting the old file back. Six undos
 * of one operation started at once, as separate processes: exactly one wins, the others say it is already
 * undone, in one line each.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { DatabaseSync } from "node:sqlite";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { builtinCoverage, expectedFor } from "./helpers/harness-material.ts";
import { type CliResult, runCli, runCliJson, startCli } from "./helpers/cli.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";
import { backupsRoot } from "../lib/store/backup.ts";
import { ledgerPath } from "../lib/store/ledger.ts";
import { operationLockPath } from "../lib/store/operation-lock.ts";
import { scriptArgv } from "../lib/runtime.ts";

/** Every registered harness, with its test material. */
const COVERED = await builtinCoverage();

interface Setup {
  env: Record<string, string>;
  bridge: string;
  root: string;
  handoff: string[];
}

/** A handoff of a Claude Code session into a home of harness `to`, as its test material prepares one. */
function setup(to: string): Setup {
  const covered = COVERED.find((c) => c.harness.name === to);
  assert.ok(covered, `no registered harness ${to}`);
  const root = tempDir();
  const source = seedClaudeHome(join(root, "source"), "thinking-tool-use");
  mkdirSync(join(root, "work"));
  const cwd = realpathSync(join(root, "work"));
  const home = join(root, "target");
  covered.material.prepareHome(home);
  const bridge = join(root, "bridge");
  return {
    env: { SESSION_BRIDGE_HOME: bridge },
    bridge,
    root,
    handoff: ["handoff", source.path, "--to", to, "--cwd", cwd, `--${covered.harness.home.flag}`, home],
  };
}

interface Handed {
  op: string;
  target: { id: string; path: string };
}

async function handOff(s: Setup, extra: string[] = []): Promise<Handed> {
  const r = await runCliJson([...s.handoff, ...extra], s.env);
  assert.equal(r.code, 0, r.stderr);
  return r.json as unknown as Handed;
}

/**
 * A handoff into the file an earlier one wrote, replacing it with `--force`: the file as it was before the
 * forced handoff (what undo must put back) and the forced handoff.
 */
async function forcedOverExisting(s: Setup): Promise<{ original: Buffer; forced: Handed }> {
  const first = await handOff(s);
  const original = readFileSync(first.target.path);
  const forced = await handOff(s, ["--session-id", first.target.id, "--force", "--no-handshake"]);
  assert.equal(forced.target.path, first.target.path, "the forced handoff wrote another file");
  assert.notDeepEqual(readFileSync(forced.target.path), original, "the forced handoff changed nothing");
  return { original, forced };
}

/**
 * Each harness that keeps a session in a file of its own: what that file is called, and the line the harness
 * appends to it when the session is resumed.
 */
const RESUMED: Record<string, { file: string; line: Record<string, unknown> }> = {
  "claude-code": {
    file: "Claude Code transcript",
    line: { type: "last-prompt", lastPrompt: "resumed work", sessionId: "resumed" },
  },
  codex: {
    file: "Codex rollout",
    line: {
      timestamp: "2026-12-02T09:00:00.000Z",
      type: "response_item",
      payload: { type: "message", role: "user", content: [{ type: "input_text", text: "resumed work" }] },
    },
  },
  "gemini-cli": {
    file: "Gemini CLI session log",
    line: {
      id: "5c1f0f0e-7a34-4e43-9a8e-0c3f2d1b6a77",
      timestamp: "2026-12-02T09:00:00.000Z",
      type: "user",
      content: [{ text: "resumed work" }],
    },
  },
  // `copilot --resume=<id>` appends to the same events.jsonl, a `session.resume` first (1.0.102's, captured).
  "copilot-cli": {
    file: "Copilot CLI events.jsonl",
    line: {
      type: "session.resume",
      data: {
        resumeTime: "2026-12-02T09:00:00.000Z",
        eventCount: 9,
        selectedModel: "gpt-4.1",
        context: { cwd: "/home/user/project" },
        alreadyInUse: false,
        sessionWasActive: false,
      },
      id: "70f0e40c-cb22-4ec3-8b97-006e3699951b",
      timestamp: "2026-12-02T09:00:00.000Z",
      parentId: null,
    },
  },
  pi: {
    file: "Pi session file",
    // A prompt typed on resume, as Pi appends it (its parent the file's last entry, whose id this test does not
    // read: an entry id Pi has not given is still a line the undo must not lose).
    line: {
      type: "message",
      id: "5c1f0f0e",
      parentId: null,
      timestamp: "2026-12-02T09:00:00.000Z",
      message: { role: "user", content: [{ type: "text", text: "resumed work" }], timestamp: 1796202000000 },
    },
  },
};
const resumedBy = (to: string) => expectedFor(RESUMED, to, "session file and resumed turn");

/** What the harness does when the session is resumed: one more line at the end of its file. */
function resume(path: string, to: string): void {
  appendFileSync(path, `${JSON.stringify(resumedBy(to).line)}\n`);
}

/** The folders of backups an undo of `op` made. */
function undoBackupFolders(bridge: string, op: string): string[] {
  let names: string[];
  try {
    names = readdirSync(backupsRoot(bridge));
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith(`-undo-${op}`));
}

// A harness keeping many sessions in one file (a database) is never handed off over a file of its own.
for (
  const { harness: { name: to } } of COVERED.filter(({ harness }) => !harness.files.sessionsInFile?.length)
) {
  const { file } = resumedBy(to);

  test(`undo of a --force handoff over a ${file} resumed since refuses, its dry run too, leaving the file byte for byte`, async () => {
    const s = setup(to);
    const { forced } = await forcedOverExisting(s);
    resume(forced.target.path, to);
    const resumed = readFileSync(forced.target.path);
    const before = snapshot(s.root);
    const real = await runCli(["undo", forced.op], s.env);
    assert.equal(real.code, 1, real.stderr);
    assert.match(real.stderr, /changed since the handoff/);
    assert.equal(real.stderr.trim().split("\n").length, 1, real.stderr);
    assert.deepEqual(readFileSync(forced.target.path), resumed, "the resumed turn is gone");
    const dry = await runCli(["undo", forced.op, "--dry-run"], s.env);
    assert.equal(dry.code, 1, dry.stderr);
    assert.equal(dry.stderr, real.stderr, "the dry run gives the real undo's reason");
    assert.match(dry.stdout, new RegExp(`^would refuse to undo ${forced.op} `));
    assert.deepEqual(snapshot(s.root), before, "a refused undo changed something");
  });

  test(`undo --force of a --force handoff over a ${file} resumed since saves the resumed file, then puts back the one replaced`, async () => {
    const s = setup(to);
    const { original, forced } = await forcedOverExisting(s);
    resume(forced.target.path, to);
    const resumed = readFileSync(forced.target.path);
    const r = await runCliJson(["undo", forced.op, "--force"], s.env);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(readFileSync(forced.target.path), original, "the replaced file is not back");
    const saved = (r.json.backups as string[]).filter((b) => readFileSync(b).equals(resumed));
    assert.equal(saved.length, 1, `the resumed file is in no backup: ${JSON.stringify(r.json.backups)}`);
    assert.deepEqual(undoBackupFolders(s.bridge, forced.op).length, 1);
  });
}

test("undo of a --force handoff whose file is as the handoff left it restores the one replaced, saving nothing", async () => {
  const s = setup("codex");
  const { original, forced } = await forcedOverExisting(s);
  const r = await runCliJson(["undo", forced.op], s.env);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readFileSync(forced.target.path), original);
  assert.deepEqual(r.json.changed, []);
});

test("undo of a --force handoff recorded without the hash of what it left refuses unless forced, then saves the file", async () => {
  const s = setup("claude-code");
  const { original, forced } = await forcedOverExisting(s);
  // A ledger written before undo checked replaced files: their entries name the backup only.
  const ledger = readFileSync(ledgerPath(s.bridge), "utf8");
  writeFileSync(ledgerPath(s.bridge), ledger.replace(/,"sha256":"[0-9a-f]{64}"\}\]/g, "}]"));
  assert.notEqual(readFileSync(ledgerPath(s.bridge), "utf8"), ledger, "no hash was recorded to remove");
  const left = readFileSync(forced.target.path);
  const refused = await runCli(["undo", forced.op], s.env);
  assert.equal(refused.code, 1, refused.stderr);
  assert.match(refused.stderr, /changed since the handoff/);
  const r = await runCliJson(["undo", forced.op, "--force"], s.env);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readFileSync(forced.target.path), original);
  assert.ok((r.json.backups as string[]).some((b) => readFileSync(b).equals(left)), "the file was not saved");
});

test("undo of an operation already undone says so in one line, and changes nothing", async () => {
  const s = setup("claude-code");
  const done = await handOff(s);
  assert.equal((await runCli(["undo", done.op], s.env)).code, 0);
  const before = snapshot(s.root);
  for (const ref of [done.op, done.op.slice(0, 8)]) {
    const again = await runCli(["undo", ref], s.env);
    assert.equal(again.code, 1, again.stderr);
    assert.equal(again.stderr, `session-bridge: operation ${done.op} is already undone\n`);
  }
  assert.deepEqual(snapshot(s.root), before);
});

const RACERS = 6;
/** What a loser of the race must never print: a raw system or SQLite error, or a wrong reason. */
const RAW = /ENOENT|EEXIST|unlink|not an error|disk I\/O error|changed since the handoff|Error:|^\s+at /m;

/** The notice an undo prints when another process holds the operation's lock. */
const WAITING = /^session-bridge: operation \S+ is being undone by process \d+ on .*: waiting for it/;

/**
 * Exactly one run undid `op`; every other said in one line that it is already undone (after the waiting notice,
 * when it found the winner still at work).
 */
function oneWinner(results: CliResult[], op: string): void {
  const won = results.filter((r) => r.code === 0);
  assert.equal(won.length, 1, results.map((r) => `exit ${r.code}: ${r.stderr}`).join("\n"));
  for (const r of results) {
    assert.doesNotMatch(r.stderr, RAW);
    if (r.code === 0) continue;
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stderr.trimEnd().split("\n");
    assert.ok(lines.slice(0, -1).every((l) => WAITING.test(l)), r.stderr);
    assert.equal(lines.at(-1), `session-bridge: operation ${op} is already undone`);
  }
}

/** How many times the ledger says `op` was undone. */
function undoneMarks(bridge: string, op: string): number {
  return readFileSync(ledgerPath(bridge), "utf8").split("\n").filter((l) => l.includes(`"undone":"${op}"`))
    .length;
}

/** The harnesses whose homes keep a database, from which an undo deletes rows. */
const WITH_DATABASE = COVERED.filter(({ harness, material }) =>
  material.prepareHome(join(tempDir(), harness.name)).database
).map(({ harness }) => harness.name);

for (const to of WITH_DATABASE) {
  test(`${RACERS} undos of one handoff into ${to} started at once: one undoes it, the others say it is already undone`, async () => {
    const s = setup(to);
    const done = await handOff(s);
    const runs = Array.from({ length: RACERS }, () => startCli(["undo", done.op], s.env));
    const results = await Promise.all(runs.map((r) => r.result));
    oneWinner(results, done.op);
    assert.equal(undoneMarks(s.bridge, done.op), 1);
    // Rows nobody changed since the handoff are not copied (lib/store/row-backup.ts): no undo left a backup.
    assert.equal(undoBackupFolders(s.bridge, done.op).length, 0);
    if (to === "hermes") {
      const [database, id] = done.target.path.split("#") as [string, string];
      const db = new DatabaseSync(database, { readOnly: true });
      const left = db.prepare("SELECT count(*) AS n FROM messages WHERE session_id = ?").get(id) as {
        n: number;
      };
      db.close();
      assert.equal(Number(left.n), 0);
    }
  });
}

test(`${RACERS} forced undos of a resumed --force handoff into Claude Code at once: one saves and restores, the others say it is already undone`, async () => {
  const s = setup("claude-code");
  const { original, forced } = await forcedOverExisting(s);
  resume(forced.target.path, "claude-code");
  const resumed = readFileSync(forced.target.path);
  const runs = Array.from({ length: RACERS }, () => startCli(["undo", forced.op, "--force"], s.env));
  const results = await Promise.all(runs.map((r) => r.result));
  oneWinner(results, forced.op);
  assert.equal(undoneMarks(s.bridge, forced.op), 1);
  assert.deepEqual(readFileSync(forced.target.path), original);
  const folders = undoBackupFolders(s.bridge, forced.op);
  assert.equal(folders.length, 1, "one undo, one copy of the resumed transcript");
  const copies = readdirSync(join(backupsRoot(s.bridge), folders[0]!)).filter((n) => n !== "manifest.json");
  assert.deepEqual(copies.map((c) => readFileSync(join(backupsRoot(s.bridge), folders[0]!, c))), [resumed]);
});

test("an undo lock left by a process killed holding it does not block the next undo, which removes it", async () => {
  const s = setup("claude-code");
  const done = await handOff(s);
  const [bin, ...pre] = scriptArgv(fileURLToPath(new URL("./helpers/die-holding-lock.ts", import.meta.url)));
  const killed = spawnSync(bin!, [...pre, s.bridge, done.op], { encoding: "utf8" });
  assert.equal(killed.signal, "SIGKILL", killed.stderr);
  assert.ok(existsSync(operationLockPath(s.bridge, done.op)), "the killed process left no lock to take over");
  const r = await runCli(["undo", done.op], s.env);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  assert.ok(!existsSync(done.target.path));
  assert.ok(!existsSync(operationLockPath(s.bridge, done.op)), "the lock was left behind");
});
