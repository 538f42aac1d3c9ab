/**
 * Handoffs into Gemini CLI through the real CLI entry: a Claude Code session captured from the real binary goes
 * into a Gemini home, and the files Gemini CLI 0.61.0 needs to list and resume it are checked as written
 * (the session file under the directory's project slug, projects.json, the .project_root markers), with undo,
 * --force and the refusals. Expectations are written by hand from what the binary does (docs/harnesses/
 * gemini-cli.md, fixtures/gemini-cli/0.61.0/).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinRegistry, withHarness } from "../lib/harnesses/registry.ts";
import { geminiCli } from "../lib/harnesses/gemini-cli/index.ts";
import { emptyHomes, runCli, startCli } from "./helpers/cli.ts";
import { claudeFixture, jsonLines } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";
import { CLAUDE_COMPACTED, claudeCompactedParts, compactedParts, SUMMARY_MARK } from "./helpers/compacted.ts";
import { readGeminiSession } from "../lib/harnesses/gemini-cli/read.ts";
import { COMPRESSION_ACK } from "../lib/harnesses/gemini-cli/parts.ts";
import { FIXTURES } from "./helpers/harness-material.ts";

// Until the built-in list names Gemini CLI, it joins the registry as any harness can (withHarness).
const registry = builtinRegistry.harnesses.some((h) => h.name === "gemini-cli")
  ? builtinRegistry
  : withHarness(builtinRegistry, geminiCli);

const CLAUDE_SOURCE = claudeFixture("thinking-tool-use");
const ID = "7b0f3c52-1d2e-4f6a-9b8c-0d1e2f3a4b5c";

interface HandoffJson {
  op: string;
  target: { harness: string; id: string; path: string; resumeCommand: string };
}

/** A fresh place: a Gemini home (the folder holding .gemini/), a project directory named "My Project". */
function world() {
  const root = tempDir();
  const env = { HOME: join(root, "user") };
  const home = join(root, "gemini");
  const store = join(home, ".gemini");
  const cwd = join(root, "My Project");
  mkdirSync(cwd, { recursive: true });
  const homes = [...emptyHomes(root), "--gemini-home", home];
  const cli = async (args: string[]) => {
    const r = await runCli([...args, "--json"], env, undefined, registry);
    return { ...r, json: (r.stdout ? JSON.parse(r.stdout) : {}) as Record<string, unknown> };
  };
  const handoff = (...extra: string[]) =>
    cli([
      "handoff",
      CLAUDE_SOURCE,
      "--to",
      "gemini-cli",
      "--cwd",
      cwd,
      "--session-id",
      ID,
      ...homes,
      ...extra,
    ]);
  return { root, home, store, cwd, homes, cli, handoff };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

test("a Claude Code session hands off to Gemini CLI: its file under the directory's slug, the project registered, the resume command", async () => {
  const { home, store, cwd, handoff } = world();
  const r = await handoff();
  assert.equal(r.code, 0, r.stderr);
  const { target } = r.json as unknown as HandoffJson;
  const chats = join(store, "tmp", "my-project", "chats");
  assert.deepEqual(readdirSync(chats), [`session-2026-11-29T21-02-7b0f3c52.jsonl`]);
  assert.equal(target.path, join(chats, "session-2026-11-29T21-02-7b0f3c52.jsonl"));
  // Claude Code's default mode, stated so that the user's own default setting cannot widen it.
  assert.equal(
    target.resumeCommand,
    `cd '${cwd}' && GEMINI_CLI_HOME=${home} gemini --resume ${ID} --approval-mode default`,
  );
  assert.deepEqual(JSON.parse(readFileSync(join(store, "projects.json"), "utf8")), {
    projects: { [cwd]: "my-project" },
  });
  for (const base of ["tmp", "history"]) {
    assert.equal(readFileSync(join(store, base, "my-project", ".project_root"), "utf8").trim(), cwd);
  }
  const lines = jsonLines(target.path);
  assert.deepEqual(lines[0], {
    sessionId: ID,
    projectHash: sha256(cwd),
    startTime: "2026-11-29T21:02:10.371Z",
    lastUpdated: "2026-11-29T21:02:10.371Z",
    kind: "main",
  });
  const calls = lines.flatMap((l) => (l.toolCalls ?? []) as Record<string, unknown>[]);
  assert.equal(calls.length, 1);
  assert.equal(calls[0]!.name, "run_shell_command");
  assert.deepEqual((calls[0]!.args as Record<string, unknown>).command, "echo fixture-tool-output");
  assert.equal(calls[0]!.status, "success");
  // The result once, in the call: no user message repeats it (0.61.0 would replay it twice).
  assert.equal(lines.filter((l) => JSON.stringify(l.content ?? "").includes("functionResponse")).length, 0);
});

test("a registry naming other projects keeps them, and a slug another directory owns gets the next suffix", async () => {
  const { store, cwd, handoff } = world();
  mkdirSync(store, { recursive: true });
  const before = `${JSON.stringify({ projects: { "/elsewhere/my-project": "my-project" } }, null, 2)}`;
  writeFileSync(join(store, "projects.json"), before);
  const r = await handoff();
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(readFileSync(join(store, "projects.json"), "utf8")), {
    projects: { "/elsewhere/my-project": "my-project", [cwd]: "my-project-1" },
  });
  assert.ok(existsSync(join(store, "tmp", "my-project-1", "chats")));
});

test("undo removes the session file and the markers it wrote and puts projects.json back as it was", async () => {
  const { store, homes, cli, handoff } = world();
  mkdirSync(store, { recursive: true });
  const before = `${JSON.stringify({ projects: { "/elsewhere/other": "other" } }, null, 2)}`;
  writeFileSync(join(store, "projects.json"), before);
  const r = await handoff();
  assert.equal(r.code, 0, r.stderr);
  const { op, target } = r.json as unknown as HandoffJson;
  const undone = await cli(["undo", op, ...homes]);
  assert.equal(undone.code, 0, undone.stderr);
  assert.equal(existsSync(target.path), false);
  assert.equal(existsSync(join(store, "tmp", "my-project", ".project_root")), false);
  assert.equal(existsSync(join(store, "history", "my-project", ".project_root")), false);
  assert.equal(readFileSync(join(store, "projects.json"), "utf8"), before);
});

test("undo of a handoff into an empty home removes projects.json it made", async () => {
  const { store, homes, cli, handoff } = world();
  const r = await handoff();
  assert.equal(r.code, 0, r.stderr);
  const undone = await cli(["undo", (r.json as unknown as HandoffJson).op, ...homes]);
  assert.equal(undone.code, 0, undone.stderr);
  assert.equal(existsSync(join(store, "projects.json")), false);
});

test("a taken session id is refused with exit 1 and nothing changed; --force replaces its file in place", async () => {
  const { store, handoff } = world();
  const first = await handoff();
  assert.equal(first.code, 0, first.stderr);
  const path = (first.json as unknown as HandoffJson).target.path;
  writeFileSync(path, `${readFileSync(path, "utf8")}{"$set":{"summary":"resumed since"}}\n`);
  const registry = readFileSync(join(store, "projects.json"), "utf8");
  const again = await handoff();
  assert.equal(again.code, 1);
  assert.match(
    again.stderr,
    new RegExp(`session ${ID} already exists in .*session-2026-11-29T21-02-7b0f3c52\\.jsonl`),
  );
  assert.match(readFileSync(path, "utf8"), /resumed since/);
  const forced = await handoff("--force");
  assert.equal(forced.code, 0, forced.stderr);
  assert.equal((forced.json as unknown as HandoffJson).target.path, path);
  assert.doesNotMatch(readFileSync(path, "utf8"), /resumed since/);
  assert.deepEqual(readdirSync(join(store, "tmp", "my-project", "chats")), [
    "session-2026-11-29T21-02-7b0f3c52.jsonl",
  ]);
  assert.equal(readFileSync(join(store, "projects.json"), "utf8"), registry);
});

/** The world's handoff started in a child process (left running), for runs that must overlap a lock. */
function startedHandoff({ root, cwd, homes }: ReturnType<typeof world>) {
  return startCli(
    ["handoff", CLAUDE_SOURCE, "--to", "gemini-cli", "--cwd", cwd, "--session-id", ID, ...homes, "--json"],
    { HOME: join(root, "user") },
  );
}

/** Resolves once the handoff says it waits for the lock; fails with what it said if it ended instead. */
async function waiting(run: ReturnType<typeof startCli>): Promise<void> {
  if (!(await run.stderrMatches(/projects\.json is locked by another process: waiting/))) {
    assert.fail(`the handoff did not wait for the lock: ${(await run.result).stderr}`);
  }
}

test("a handoff waits while a Gemini CLI holds its projects.json lock, then registers the project", async () => {
  const w = world();
  const lock = join(w.store, "projects.json.lock");
  mkdirSync(lock, { recursive: true });
  const run = startedHandoff(w);
  await waiting(run);
  assert.equal(existsSync(join(w.store, "tmp")), false);
  rmdirSync(lock);
  const r = await run.result;
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(readFileSync(join(w.store, "projects.json"), "utf8")), {
    projects: { [w.cwd]: "my-project" },
  });
  assert.equal(existsSync(lock), false);
});

test("a project Gemini CLI registers while the handoff waits for its lock is taken as Gemini left it, and undo leaves it", async () => {
  const w = world();
  const lock = join(w.store, "projects.json.lock");
  mkdirSync(lock, { recursive: true });
  const run = startedHandoff(w);
  await waiting(run);
  // What Gemini CLI writes, holding the lock, on its first run in the directory.
  const registry = `${JSON.stringify({ projects: { [w.cwd]: "my-project" } }, null, 2)}`;
  writeFileSync(join(w.store, "projects.json"), registry);
  for (const base of ["tmp", "history"]) {
    mkdirSync(join(w.store, base, "my-project"), { recursive: true });
    writeFileSync(join(w.store, base, "my-project", ".project_root"), w.cwd);
  }
  rmdirSync(lock);
  const r = await run.result;
  assert.equal(r.code, 0, r.stderr);
  const { op, target } = JSON.parse(r.stdout) as HandoffJson;
  assert.equal(
    target.path,
    join(w.store, "tmp", "my-project", "chats", "session-2026-11-29T21-02-7b0f3c52.jsonl"),
  );
  const undone = await w.cli(["undo", op, ...w.homes]);
  assert.equal(undone.code, 0, undone.stderr);
  assert.equal(existsSync(target.path), false);
  assert.equal(readFileSync(join(w.store, "projects.json"), "utf8"), registry);
  for (const base of ["tmp", "history"]) {
    assert.equal(readFileSync(join(w.store, base, "my-project", ".project_root"), "utf8"), w.cwd);
  }
});

interface ReportJson {
  report: { entries: { code: string; severity: string; detail: string }[] };
}

const cleanupWarnings = (json: Record<string, unknown>) =>
  (json as unknown as ReportJson).report.entries.filter((e) => e.code === "gemini-session-cleanup");

test("a handoff into Gemini CLI warns that its session cleanup deletes a session resumed later, naming the setting that keeps it", async () => {
  const { store, handoff } = world();
  const r = await handoff();
  assert.equal(r.code, 0, r.stderr);
  const [warning, ...more] = cleanupWarnings(r.json);
  assert.equal(more.length, 0);
  assert.equal(warning?.severity, "warning");
  assert.match(warning!.detail, /deletes a session resumed in a later minute/);
  assert.ok(
    warning!.detail.endsWith(
      `set "general": {"sessionRetention": {"enabled": false}} in ${join(store, "settings.json")}`,
    ),
    warning!.detail,
  );
  assert.equal(existsSync(join(store, "settings.json")), false);
});

test("a Gemini CLI home whose settings turn the session cleanup off gets no such warning, its settings untouched", async () => {
  const { store, handoff } = world();
  mkdirSync(store, { recursive: true });
  const settings = `${
    JSON.stringify({ general: { sessionRetention: { enabled: false } }, model: { name: "gemini-3.8-flash" } })
  }\n`;
  writeFileSync(join(store, "settings.json"), settings);
  const r = await handoff();
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(cleanupWarnings(r.json), []);
  assert.equal(readFileSync(join(store, "settings.json"), "utf8"), settings);
});

test("settings that leave the session cleanup on (enabled: true, or only its age) still get the warning", async () => {
  for (const retention of [{ enabled: true }, { maxAge: "90d" }]) {
    const { store, handoff } = world();
    mkdirSync(store, { recursive: true });
    writeFileSync(join(store, "settings.json"), JSON.stringify({ general: { sessionRetention: retention } }));
    const r = await handoff();
    assert.equal(r.code, 0, r.stderr);
    assert.equal(cleanupWarnings(r.json).length, 1, JSON.stringify(retention));
  }
});

test("a Gemini CLI session copied into Gemini CLI keeps each call's result in the call alone, not also as the user message Gemini replays a second time", async () => {
  const { cwd, homes, cli } = world();
  // fixtures/gemini-cli/0.61.0/exec-tool.jsonl: the call's result is in its toolCalls entry and again as user
  // message bb5831a7-… (0.61.0 and 0.51.0 send both on resume).
  const source = join(FIXTURES, "gemini-cli", "0.61.0", "exec-tool.jsonl");
  const r = await cli(["handoff", source, "--to", "gemini-cli", "--cwd", cwd, "--session-id", ID, ...homes]);
  assert.equal(r.code, 0, r.stderr);
  const { target } = r.json as unknown as HandoffJson;
  const records = readFileSync(target.path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  assert.deepEqual(records.filter((x) => x.id === "bb5831a7-e41e-455a-9126-ddbdb30f2c44"), []);
  const calls = records.filter((x) => x.type === "gemini" && x.toolCalls?.length);
  assert.ok(calls.length > 0);
  for (const call of calls) {
    assert.equal(call.toolCalls[0].result[0].functionResponse.name, "run_shell_command");
  }
  assert.ok(records.some((x) => x.sessionId === ID), "the copy is its own session");
});

test("a compacted session handed to Gemini CLI keeps its whole history above Gemini's own compression checkpoint, and reads back as the compacted thread and its summary", async () => {
  const { cwd, homes, cli } = world();
  const r = await cli(["handoff", CLAUDE_COMPACTED, "--to", "gemini-cli", "--cwd", cwd, ...homes]);
  assert.equal(r.code, 0, r.stderr);
  const source = await claudeCompactedParts();
  const path = (r.json.target as { path: string }).path;
  const records = jsonLines(path);
  const at = records.findIndex((l) =>
    Array.isArray((l.$set as Record<string, unknown> | undefined)?.messages)
  );
  const listed =
    (records[at]!.$set as { messages: { type: string; content: { text: string }[] }[] }).messages;
  assert.deepEqual(listed.map((m) => m.type), ["user", "gemini"]);
  assert.equal(listed[1]!.content[0]!.text, COMPRESSION_ACK);
  const snapshot = listed[0]!.content[0]!.text;
  assert.ok(snapshot.includes(SUMMARY_MARK));
  const typed = records.slice(0, at).filter((l) => l.type === "user").map((l) =>
    `user: ${(l.content as { text: string }[])[0]!.text}`
  );
  assert.deepEqual(typed, source.history.filter((t) => t.startsWith("user: ")));
  const back = compactedParts(await readGeminiSession(path));
  // Gemini's own acknowledgement of the snapshot reads back as its context, not the model's words.
  assert.deepEqual(back, { ...source, summary: snapshot });
  const report = r.json.report as { entries: { code: string; detail: string }[] };
  assert.match(report.entries.find((e) => e.code === "compacted-history")!.detail, /kept on disk/);
});
