/**
 * Codex -> Codex copies describe themselves: the `threads` row says what the copied file is (history mode,
 * version, sandbox, source), an incomplete `session_meta` is completed and reported, `--force` replaces a taken
 * thread id undoably, paths in the index are absolute, and a call cut off by `turn_aborted` stays pending.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { jsonLines } from "./helpers/fixtures.ts";
import { codexFixture, makeCodexHome, seedCodexThread, threadRow } from "./helpers/codex.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { codex } from "../lib/harnesses/codex/index.ts";
import { readCodexSession } from "../lib/harnesses/codex/read.ts";
import { codexTools } from "../lib/harnesses/codex/tools.ts";

const root = tempDir();
const env = { SESSION_BRIDGE_HOME: join(root, "bridge") };
const project = join(root, "project");
mkdirSync(project);
const cwd = realpathSync(project);
let n = 0;

function home(options: Parameters<typeof makeCodexHome>[1] = {}): string {
  const dir = join(root, `codex-${n++}`);
  makeCodexHome(dir, options);
  return dir;
}

type Target = { id: string; path: string; resumeCommand: string };
type Report = { lossless: boolean; entries: { code: string; severity: string }[] };

async function handoff(codexHome: string, source: string, extra: string[] = []) {
  return await runCliJson(
    ["handoff", source, "--to", "codex", "--cwd", cwd, "--codex-home", codexHome, ...extra],
    env,
  );
}

test("a copied legacy rollout is registered as the legacy history of the Codex that wrote it, with its own sandbox", async () => {
  const codexHome = home({ version: "0.169.0" });
  const legacy = join(root, "legacy-source.jsonl");
  copyFileSync(codexFixture("0.147.0", "tool-call"), legacy);
  const r = await handoff(codexHome, legacy);
  assert.equal(r.code, 0, r.stderr);
  const target = r.json.target as Target;
  const row = threadRow(codexHome, target.id)!;
  assert.equal(row.history_mode, "legacy");
  assert.equal(row.cli_version, "0.147.0");
  assert.equal(
    row.sandbox_policy,
    '{"type":"managed","file_system":{"type":"restricted","entries":[{"path":{"type":"special","value":{"kind":"root"}},"access":"read"}]},"network":"restricted"}',
  );
  assert.equal(row.approval_mode, "never");
  assert.equal(row.model, "gpt-5.5");
  assert.ok(jsonLines(target.path).every((l) => !("ordinal" in l)), "the copy stays legacy, as the row says");
});

test("a copied codex exec thread is an interactive thread in file and row, so codex exec resume keeps it listed", async () => {
  const codexHome = home();
  const source = seedCodexThread(codexHome, "0.169.0", "text-turns");
  assert.equal(threadRow(codexHome, source.id)!.source, "exec");
  const r = await handoff(codexHome, source.id);
  assert.equal(r.code, 0, r.stderr);
  const target = r.json.target as Target;
  const meta = jsonLines(target.path)[0]!.payload as Record<string, unknown>;
  const row = threadRow(codexHome, target.id)!;
  assert.equal(meta.source, "cli");
  assert.equal(row.source, "cli");
  assert.equal(meta.originator, "codex_exec");
  assert.equal(row.originator, "codex_exec");
  assert.equal(row.history_mode, "paginated");
  const entries = (r.json.report as Report).entries.map((e) => e.code);
  assert.ok(entries.includes("codex-source-interactive"), entries.join(", "));
});

test("a session_meta missing required fields is completed in the copy and the handoff is not called lossless", async () => {
  const codexHome = home();
  const broken = join(root, "broken-meta.jsonl");
  const lines = readFileSync(codexFixture("0.169.0", "text-turns"), "utf8").trimEnd().split("\n");
  const meta = JSON.parse(lines[0]!) as { payload: Record<string, unknown> };
  delete meta.payload.originator;
  delete meta.payload.cli_version;
  lines[0] = JSON.stringify(meta);
  writeFileSync(broken, `${lines.join("\n")}\n`);
  const r = await handoff(codexHome, broken);
  assert.equal(r.code, 0, r.stderr);
  const report = r.json.report as Report;
  assert.equal(report.lossless, false);
  const entry = report.entries.find((e) => e.code === "codex-session-meta-incomplete");
  assert.equal(entry?.severity, "loss");
  const target = r.json.target as Target;
  const written = jsonLines(target.path)[0]!.payload as Record<string, unknown>;
  assert.equal(written.originator, "session-bridge");
  assert.equal(written.cli_version, "0.169.0");
  const row = threadRow(codexHome, target.id)!;
  assert.equal(row.originator, "session-bridge");
  assert.equal(row.cli_version, "0.169.0");
});

test("--force on a taken Codex thread id replaces row and rollout after backing them up, and undo puts them back", async () => {
  const codexHome = home();
  const taken = seedCodexThread(codexHome, "0.169.0", "tool-call");
  const before = threadRow(codexHome, taken.id)!;
  const original = readFileSync(taken.path, "utf8");
  const refused = await runCli([
    "handoff",
    codexFixture("0.169.0", "text-turns"),
    "--to",
    "codex",
    "--cwd",
    cwd,
    "--codex-home",
    codexHome,
    "--session-id",
    taken.id,
  ], env);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /already (registered|exists)/);
  const r = await handoff(codexHome, codexFixture("0.169.0", "text-turns"), [
    "--session-id",
    taken.id,
    "--force",
  ]);
  assert.equal(r.code, 0, r.stderr);
  const target = r.json.target as Target;
  const row = threadRow(codexHome, taken.id)!;
  assert.equal(row.rollout_path, target.path);
  assert.equal(row.first_user_message, "Please greet the reviewer with one sentence about tidy kitchens.");
  if (target.path !== taken.path) assert.equal(existsSync(taken.path), false, "one rollout per thread id");
  const undo = await runCliJson(["undo", String(r.json.op)], env);
  assert.equal(undo.code, 0, undo.stderr);
  assert.deepEqual(threadRow(codexHome, taken.id), before);
  assert.equal(readFileSync(taken.path, "utf8"), original);
  if (target.path !== taken.path) assert.equal(existsSync(target.path), false);
});

test("a relative Codex home is stored as an absolute rollout_path in the threads row", async () => {
  const codexHome = home();
  const relativeHome = relative(process.cwd(), codexHome);
  assert.ok(!relativeHome.startsWith("/"));
  const session = await readCodexSession(codexFixture("0.169.0", "text-turns"));
  const id = codex.store.newId(new Date("2026-11-30T10:00:00Z"));
  const options = { id, cwd, now: new Date("2026-11-30T10:00:00Z"), stubOpenCalls: false };
  const plan = await codex.store.plan(
    session,
    options,
    relativeHome,
    false,
  );
  assert.equal(plan.refusal, undefined);
  await plan.commit({ force: false, backup: false, backupFolder: join(tempDir(), "backups", "b") });
  const row = threadRow(codexHome, id)!;
  assert.equal(
    row.rollout_path,
    join(codexHome, "sessions", "2026", "11", "30", `rollout-2026-11-30T${hh(options.now)}-${id}.jsonl`),
  );
  assert.ok(String(row.rollout_path).startsWith("/"));
  assert.match(
    plan.resumeCommand,
    new RegExp(`CODEX_HOME=${codexHome.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} codex resume`),
  );
});

/** `hh-mm-ss` of a time in local time, as Codex names its files. */
function hh(at: Date): string {
  const pad = (v: number) => String(v).padStart(2, "0");
  return `${pad(at.getHours())}-${pad(at.getMinutes())}-${pad(at.getSeconds())}`;
}

test("an open call followed by Codex's turn_aborted stays pending after the thread was resumed", async () => {
  const path = join(root, "aborted-then-resumed.jsonl");
  const killed = readFileSync(codexFixture("0.169.0", "killed"), "utf8").trimEnd().split("\n");
  let ordinal = killed.length;
  const line = (type: string, payload: Record<string, unknown>) =>
    JSON.stringify({ timestamp: "2026-11-29T21:00:00.000Z", ordinal: ordinal++, type, payload });
  const resumed = [
    line("event_msg", { type: "turn_aborted", turn_id: "t-killed", reason: "interrupted" }),
    line("event_msg", { type: "task_started", turn_id: "t-next" }),
    line("response_item", {
      type: "message",
      role: "user",
      content: [{ type: "input_text", text: "continue please" }],
    }),
    line("response_item", {
      type: "message",
      role: "assistant",
      content: [{ type: "output_text", text: "Continuing." }],
    }),
    line("event_msg", { type: "task_complete", turn_id: "t-next", last_agent_message: "Continuing." }),
  ];
  writeFileSync(path, `${[...killed, ...resumed].join("\n")}\n`);
  const session = await readCodexSession(path);
  assert.deepEqual(
    session.pending.openToolCalls.map((c) => [c.callId, c.name]),
    [["call_e2bee841b2e44f0016d6c611", "exec_command"]],
  );
  // A call the model answered and then moved on from is not pending.
  const answered = await readCodexSession(codexFixture("0.169.0", "resumed"));
  assert.deepEqual(answered.pending.openToolCalls, []);
});

test("an open call of a turn cut off by a new turn (Codex killed, then resumed) stays pending", async () => {
  const path = join(root, "killed-then-resumed.jsonl");
  copyFileSync(codexFixture("0.169.0", "killed"), path);
  appendFileSync(
    path,
    `${
      JSON.stringify({
        timestamp: "2026-11-29T21:00:00.000Z",
        type: "event_msg",
        payload: { type: "task_started", turn_id: "t2" },
      })
    }\n${
      JSON.stringify({
        timestamp: "2026-11-29T21:00:01.000Z",
        type: "response_item",
        payload: { type: "message", role: "assistant", content: [{ type: "output_text", text: "Back." }] },
      })
    }\n`,
  );
  const session = await readCodexSession(path);
  assert.deepEqual(session.pending.openToolCalls.map((c) => c.name), ["exec_command"]);
});

test("Codex's legacy shell tools map to the canonical shell call", () => {
  assert.deepEqual(
    codexTools.toCanonical({
      name: "local_shell",
      input: { type: "exec", command: ["bash", "-lc", "ls -la"], working_directory: "/w", timeout_ms: 5000 },
    }),
    { kind: "shell", command: "ls -la", workdir: "/w", timeoutMs: 5000 },
  );
  assert.deepEqual(
    codexTools.toCanonical({
      name: "shell",
      input: { command: ["git", "log", "--format=%H %s"], workdir: "/w" },
    }),
    { kind: "shell", command: "git log '--format=%H %s'", workdir: "/w" },
  );
  assert.deepEqual(
    codexTools.toCanonical({ name: "shell_command", input: { command: "echo hi", workdir: "/w" } }),
    { kind: "shell", command: "echo hi", workdir: "/w" },
  );
});
