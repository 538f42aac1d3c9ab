/**
 * Writing never goes through a symbolic link (issue 36, item 6). In session-bridge's own folder a linked
 * ledger, intents or backups folder, or listing cache is refused by name and what it points at stays as it
 * was; in a harness's home a linked state database is refused the same way, a linked folder (`projects` on a
 * bigger disk) is followed as the harness follows it and doctor says so, and `--force` over a linked or
 * dangling transcript puts the link itself back on undo.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { createHermesStore } from "../lib/harnesses/hermes/first-run.ts";
import type { DoctorReport } from "../lib/pipeline/doctor.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { sha256 } from "./helpers/hermes.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir("sb-links-");
const claude = join(root, "claude");
const seeded = seedClaudeHome(claude, "thinking-tool-use");
const work = join(root, "work");
mkdirSync(work);
let homes = 0;

/** A fresh session-bridge folder and an unrelated folder outside it, holding one file of its own. */
function freshHomes(): { bridge: string; outside: string; file: string } {
  const n = ++homes;
  const bridge = join(root, `bridge-${n}`);
  const outside = join(root, `outside-${n}`);
  mkdirSync(bridge);
  mkdirSync(outside);
  const file = join(outside, "unrelated.txt");
  writeFileSync(file, "someone else's file\n");
  return { bridge, outside, file };
}

const handoffArgs = (to: string, ...extra: string[]) => [
  "handoff",
  seeded.id,
  "--to",
  to,
  "--cwd",
  work,
  "--claude-home",
  claude,
  "--no-handshake",
  ...extra,
];

const ownLink = (link: string) =>
  `session-bridge: ${link} is a symbolic link; session-bridge does not write through links in its own folder\n`;
const harnessLink = (link: string) =>
  `session-bridge: ${link} is a symbolic link; session-bridge does not write a harness's file through a link\n`;

test("a linked ledger.jsonl in session-bridge's folder is refused by name and the file it points at is untouched", async () => {
  const { bridge, outside, file } = freshHomes();
  symlinkSync(file, join(bridge, "ledger.jsonl"));
  const before = snapshot(outside);
  const claudeBefore = snapshot(claude);
  const r = await runCli(handoffArgs("claude"), { SESSION_BRIDGE_HOME: bridge });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stderr, ownLink(join(bridge, "ledger.jsonl")));
  assert.deepEqual(snapshot(outside), before);
  assert.deepEqual(snapshot(claude), claudeBefore, "nothing was handed off");
});

test("a linked intents folder in session-bridge's folder is refused by name and nothing lands outside", async () => {
  const { bridge, outside } = freshHomes();
  // Named like the temp file of an intent whose process died: what recovery removes from its own folder.
  writeFileSync(join(outside, "00000000-0000-4000-8000-000000000000.json.2147483646.tmp"), "not ours\n");
  symlinkSync(outside, join(bridge, "intents"));
  const before = snapshot(outside);
  const r = await runCli(handoffArgs("claude"), { SESSION_BRIDGE_HOME: bridge });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stderr, ownLink(join(bridge, "intents")));
  assert.deepEqual(snapshot(outside), before);
  const doctor = await runCliJson(["doctor", "--claude-home", claude], { SESSION_BRIDGE_HOME: bridge });
  assert.equal(doctor.code, 1, doctor.stderr);
  const link = (doctor.json as unknown as DoctorReport).checks.find((c) => c.check === "link");
  assert.equal(link?.status, "problem");
  assert.equal(
    link?.fix,
    `put what it links to (${outside}) in its place, or remove the link: rm ${join(bridge, "intents")}`,
  );
});

test("a linked backups folder in session-bridge's folder is refused by name and nothing lands outside", async () => {
  const { bridge, outside } = freshHomes();
  const hermes = join(root, "hermes-backups");
  mkdirSync(hermes);
  createHermesStore(hermes, "fake-model-1");
  symlinkSync(outside, join(bridge, "backups"));
  const before = snapshot(outside);
  const store = await sha256(join(hermes, "state.db"));
  const r = await runCli(handoffArgs("hermes", "--hermes-home", hermes), { SESSION_BRIDGE_HOME: bridge });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stderr, ownLink(join(bridge, "backups")));
  assert.deepEqual(snapshot(outside), before);
  assert.equal(await sha256(join(hermes, "state.db")), store, "nothing was handed off");
});

test("prune never removes anything through a linked backups folder", async () => {
  const { bridge, outside } = freshHomes();
  // Shaped like a day-old backup folder left empty: what prune removes in its own folder.
  mkdirSync(join(outside, "2020-01-01T00-00-00-000Z-claude-code-x"));
  symlinkSync(outside, join(bridge, "backups"));
  const before = snapshot(outside);
  const r = await runCli(["prune"], { SESSION_BRIDGE_HOME: bridge });
  assert.equal(r.code, 1, r.stderr);
  assert.equal(r.stderr, ownLink(join(bridge, "backups")));
  assert.deepEqual(snapshot(outside), before);
});

test("a linked listing cache is never written through: the listing is served, the link named, and what it points at untouched", async () => {
  const { bridge, outside, file } = freshHomes();
  const env = { SESSION_BRIDGE_HOME: bridge };
  const args = ["list", "--full-ids", "--claude-home", claude];
  symlinkSync(outside, join(bridge, "cache"));
  const folder = await runCli(args, env);
  assert.equal(folder.code, 0, folder.stderr);
  assert.ok(folder.stdout.includes(seeded.id), folder.stdout);
  assert.equal(folder.stderr, ownLink(join(bridge, "cache")));
  assert.deepEqual(readdirSync(outside), ["unrelated.txt"]);

  const other = freshHomes();
  mkdirSync(join(other.bridge, "cache"));
  symlinkSync(other.file, join(other.bridge, "cache", "listing.json"));
  const linkedFile = await runCli(args, { SESSION_BRIDGE_HOME: other.bridge });
  assert.equal(linkedFile.code, 0, linkedFile.stderr);
  assert.equal(linkedFile.stderr, ownLink(join(other.bridge, "cache", "listing.json")));
  assert.equal(readlinkSync(join(other.bridge, "cache", "listing.json")), other.file, "the link stays");
  assert.equal(readFileSync(other.file, "utf8"), "someone else's file\n");
  assert.equal(readFileSync(file, "utf8"), "someone else's file\n");
});

test("a linked events.db in session-bridge's folder is not written through: the handoff is done, the audit names the link", async () => {
  const { bridge, file } = freshHomes();
  symlinkSync(file, join(bridge, "events.db"));
  const r = await runCli(handoffArgs("claude"), { SESSION_BRIDGE_HOME: bridge });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(r.stderr.includes(ownLink(join(bridge, "events.db")).slice("session-bridge: ".length)), r.stderr);
  assert.equal(readFileSync(file, "utf8"), "someone else's file\n");
});

test("session-bridge's folder itself may be a link to a folder: handoff and undo work there", async () => {
  const { bridge } = freshHomes();
  const linkedHome = join(root, "linked-bridge");
  symlinkSync(bridge, linkedHome);
  const env = { SESSION_BRIDGE_HOME: linkedHome };
  const done = await runCliJson(handoffArgs("claude"), env);
  assert.equal(done.code, 0, done.stderr);
  assert.ok(readFileSync(join(bridge, "ledger.jsonl"), "utf8").includes(done.json.op as string));
  const undone = await runCli(["undo", done.json.op as string], env);
  assert.equal(undone.code, 0, undone.stderr);
});

test("a linked Codex state_5.sqlite is refused by name and the database it points at is untouched", async () => {
  const { bridge, outside } = freshHomes();
  const codex = join(root, "codex-linked");
  const database = makeCodexHome(codex);
  const elsewhere = join(outside, "state_5.sqlite");
  renameSync(database, elsewhere);
  symlinkSync(elsewhere, database);
  const before = await sha256(elsewhere);
  const dry = await runCli(handoffArgs("codex", "--codex-home", codex, "--dry-run"), {
    SESSION_BRIDGE_HOME: bridge,
  });
  assert.equal(dry.code, 1, dry.stderr);
  assert.ok(dry.stderr.endsWith(harnessLink(database)), "a dry run says so too");
  const r = await runCli(handoffArgs("codex", "--codex-home", codex), { SESSION_BRIDGE_HOME: bridge });
  assert.equal(r.code, 1, r.stderr);
  assert.ok(r.stderr.endsWith(harnessLink(database)), r.stderr);
  assert.equal(await sha256(elsewhere), before);
  assert.deepEqual(readdirSync(outside), ["state_5.sqlite", "unrelated.txt"]);
});

test("a linked Hermes state.db is refused by name and the database it points at is untouched", async () => {
  const { bridge, outside } = freshHomes();
  const hermes = join(root, "hermes-linked");
  mkdirSync(hermes);
  createHermesStore(hermes, "fake-model-1");
  const database = join(hermes, "state.db");
  const elsewhere = join(outside, "state.db");
  renameSync(database, elsewhere);
  symlinkSync(elsewhere, database);
  const before = await sha256(elsewhere);
  const dry = await runCli(handoffArgs("hermes", "--hermes-home", hermes, "--dry-run"), {
    SESSION_BRIDGE_HOME: bridge,
  });
  assert.equal(dry.code, 1, dry.stderr);
  assert.ok(dry.stderr.endsWith(harnessLink(database)), "a dry run says so too");
  const r = await runCli(handoffArgs("hermes", "--hermes-home", hermes), { SESSION_BRIDGE_HOME: bridge });
  assert.equal(r.code, 1, r.stderr);
  assert.ok(r.stderr.endsWith(harnessLink(database)), r.stderr);
  assert.equal(await sha256(elsewhere), before);
  assert.deepEqual(readdirSync(outside), ["state.db", "unrelated.txt"]);
});

test("Claude Code's projects folder linked to another disk: handoff writes there, and doctor says it is followed", async () => {
  const { bridge } = freshHomes();
  const home = join(root, "claude-linked-projects");
  const { id } = seedClaudeHome(home, "thinking-tool-use");
  const disk = join(root, "bigger-disk");
  renameSync(join(home, "projects"), disk);
  symlinkSync(disk, join(home, "projects"));
  const env = { SESSION_BRIDGE_HOME: bridge };
  const done = await runCliJson(
    ["handoff", id, "--to", "claude", "--cwd", work, "--claude-home", home, "--no-handshake"],
    env,
  );
  assert.equal(done.code, 0, done.stderr);
  const path = (done.json.target as { path: string }).path;
  assert.ok(readFileSync(path.replace(join(home, "projects"), disk), "utf8").length > 0);
  const doctor = await runCliJson(["doctor", "--claude-home", home], env);
  const report = doctor.json as unknown as DoctorReport;
  const linked = report.checks.find((c) => c.subject === "claude-code" && c.check === "linked folder");
  assert.deepEqual(linked, {
    subject: "claude-code",
    check: "linked folder",
    status: "ok",
    detail: `${join(home, "projects")} links to ${disk}: followed, as Claude Code follows it`,
  });
});

/** A handoff into Claude Code with a fixed id, whose transcript path is then returned. */
async function handoffWithId(bridge: string, id: string, ...extra: string[]) {
  const r = await runCliJson(handoffArgs("claude", "--session-id", id, ...extra), {
    SESSION_BRIDGE_HOME: bridge,
  });
  assert.equal(r.code, 0, r.stderr);
  return { op: r.json.op as string, path: (r.json.target as { path: string }).path };
}

test("--force over a linked Claude Code transcript replaces the link, not what it points at, and undo puts the link back", async () => {
  const { bridge, file } = freshHomes();
  const id = "0c0c0c0c-0000-4000-8000-00000000a001";
  const first = await handoffWithId(bridge, id);
  assert.equal((await runCli(["undo", first.op], { SESSION_BRIDGE_HOME: bridge })).code, 0);
  symlinkSync(file, first.path);
  const forced = await handoffWithId(bridge, id, "--force");
  assert.equal(readFileSync(file, "utf8"), "someone else's file\n", "the link's target was not written");
  assert.match(readFileSync(first.path, "utf8"), new RegExp(id));
  const undone = await runCli(["undo", forced.op], { SESSION_BRIDGE_HOME: bridge });
  assert.equal(undone.code, 0, undone.stderr);
  assert.equal(readlinkSync(first.path), file, "the link is back as it was");
  assert.equal(readFileSync(file, "utf8"), "someone else's file\n");
});

test("--force over a dangling link where the Claude Code transcript goes, then undo, puts the dangling link back", async () => {
  const { bridge, outside } = freshHomes();
  const id = "0c0c0c0c-0000-4000-8000-00000000a002";
  const first = await handoffWithId(bridge, id);
  assert.equal((await runCli(["undo", first.op], { SESSION_BRIDGE_HOME: bridge })).code, 0);
  const nowhere = join(outside, "gone.jsonl");
  symlinkSync(nowhere, first.path);
  const unforced = await runCli(handoffArgs("claude", "--session-id", id), { SESSION_BRIDGE_HOME: bridge });
  assert.equal(unforced.code, 1, unforced.stderr);
  assert.match(unforced.stderr, /already exists/);
  const forced = await handoffWithId(bridge, id, "--force");
  assert.deepEqual(readdirSync(outside), ["unrelated.txt"], "nothing was made at the link's target");
  const undone = await runCli(["undo", forced.op], { SESSION_BRIDGE_HOME: bridge });
  assert.equal(undone.code, 0, undone.stderr);
  assert.equal(readlinkSync(first.path), nowhere, "the dangling link is back as it was");
});
