/**
 * Handoffs into GitHub Copilot CLI through the real CLI (built in): the session folder's events.jsonl and workspace.yaml, the rows of its index
 * (a session-store.db made from the schema the binary itself wrote, fixtures/copilot-cli/1.0.102/), the resume
 * command, a taken id refused, undo, and open calls written as Copilot treats them on resume.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { builtinRegistry, findHarness } from "../lib/harnesses/registry.ts";
import { HANDSHAKE_DISPLAY } from "../lib/harnesses/copilot-cli/encode.ts";
import { INTERRUPTED_RESULT, isHandshake, startsWithHandshake } from "../lib/handshake/handshake.ts";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { CLAUDE_COMPACTED, claudeCompactedParts, compactedParts, SUMMARY_MARK } from "./helpers/compacted.ts";
import { readCopilotSession } from "../lib/harnesses/copilot-cli/read.ts";

const registry = builtinRegistry;
const REPO = join(import.meta.dirname!, "..");
const CLAUDE = (name: string) => join(REPO, "fixtures", "claude-code", "2.1.332", `${name}.jsonl`);
const STORE_SCHEMA = join(REPO, "fixtures", "copilot-cli", "1.0.102", "exec", "session-store.json");

interface Event {
  type: string;
  data: Record<string, unknown>;
}

/** A Copilot home as the binary leaves it after a first run: its index, made from the binary's own schema. */
function world(withIndex = true) {
  const root = tempDir("sb-copilot-write-");
  const home = join(root, "copilot");
  const cwd = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd);
  if (withIndex) {
    const db = new DatabaseSync(join(home, "session-store.db"));
    const { schema } = JSON.parse(readFileSync(STORE_SCHEMA, "utf8")) as { schema: string[] };
    // The FTS table makes its shadow tables itself; indexes after their tables.
    const statements = schema.filter((s) =>
      !/^CREATE TABLE 'search_index_/.test(s) && !/sqlite_sequence/.test(s)
    );
    for (const s of statements.filter((s) => !s.startsWith("CREATE INDEX"))) db.exec(s);
    for (const s of statements.filter((s) => s.startsWith("CREATE INDEX"))) db.exec(s);
    db.exec("INSERT INTO schema_version (version) VALUES (8)");
    db.close();
  }
  const homes = ["--copilot-home", home];
  const env = { HOME: join(root, "home") };
  const handoff = async (source: string, ...more: string[]) => {
    const r = await runCli(
      ["handoff", source, "--to", "copilot-cli", "--cwd", cwd, ...homes, "--json", ...more],
      env,
      undefined,
      registry,
    );
    return { ...r, json: r.code === 0 ? JSON.parse(r.stdout) as Record<string, unknown> : undefined };
  };
  return { root, home, cwd, homes, env, handoff };
}

const eventsOf = (path: string): Event[] =>
  readFileSync(path, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Event);

const rowsOf = (home: string, sql: string, ...args: string[]) => {
  const db = new DatabaseSync(join(home, "session-store.db"), { readOnly: true });
  try {
    return db.prepare(sql).all(...args);
  } finally {
    db.close();
  }
};

test("a Claude Code session handed to Copilot CLI: its folder's events and workspace, its index rows, and copilot --resume=<id>", async () => {
  const { home, cwd, handoff } = world();
  const r = await handoff(CLAUDE("thinking-tool-use"));
  assert.equal(r.code, 0, r.stderr);
  const target = r.json!.target as { id: string; path: string; resumeCommand: string };
  const folder = join(home, "session-state", target.id);
  assert.equal(target.path, join(folder, "events.jsonl"));
  assert.equal(target.resumeCommand, `cd ${cwd} && COPILOT_HOME=${home} copilot --resume=${target.id}`);
  const events = eventsOf(target.path);
  assert.equal(events[0]!.type, "session.start");
  assert.equal(events[0]!.data.sessionId, target.id);
  assert.deepEqual(events[0]!.data.context, { cwd });
  // One assistant.message per model call: the reasoning and the call the source recorded block by block.
  const calls = events.filter((e) => e.type === "assistant.message" && (e.data.toolRequests as []).length);
  assert.equal(calls.length, 1);
  assert.ok(String(calls[0]!.data.reasoningText).length > 0, "the reasoning, as text");
  assert.equal((calls[0]!.data.toolRequests as { name: string }[])[0]!.name, "bash");
  const complete = events.find((e) => e.type === "tool.execution_complete")!;
  assert.deepEqual(complete.data.result, { content: "fixture-tool-output" });
  // The handshake reaches the model (transformedContent) and shows as one line.
  const last = events.at(-1)!;
  assert.equal(last.type, "user.message");
  assert.match(String(last.data.transformedContent), /^<session-bridge-handoff>/);
  const workspace = readFileSync(join(folder, "workspace.yaml"), "utf8");
  assert.match(workspace, new RegExp(`^id: ${target.id}\ncwd: ${cwd}\nclient_name: github/cli\nname: `));
  assert.match(workspace, /^name: "Run this for me\. TOOL: echo fixture-tool-output"$/m);
  assert.deepEqual(
    rowsOf(home, "SELECT id, cwd, summary FROM sessions").map((row) => ({ ...row })),
    [{ id: target.id, cwd, summary: "Run this for me. TOOL: echo fixture-tool-output" }],
  );
  assert.deepEqual(
    rowsOf(home, "SELECT turn_index, user_message, assistant_response FROM turns").map((row) => ({ ...row })),
    [{
      turn_index: 0,
      user_message: "Run this for me. TOOL: echo fixture-tool-output",
      assistant_response: "Tool said: fixture-tool-output",
    }],
  );
  assert.equal(
    rowsOf(home, "SELECT source_id FROM search_index WHERE search_index MATCH 'fixture'")[0]?.source_id,
    `${target.id}:turn:0`,
  );
});

test("a handoff into Copilot CLI refuses a taken session id without --force, and writes nothing", async () => {
  const { home, handoff } = world();
  const first = await handoff(CLAUDE("plain-text"));
  assert.equal(first.code, 0, first.stderr);
  const id = (first.json!.target as { id: string }).id;
  const turns = rowsOf(home, "SELECT count(*) AS n FROM turns")[0]!.n;
  const before = readFileSync(join(home, "session-state", id, "events.jsonl"), "utf8");
  const again = await handoff(CLAUDE("thinking-tool-use"), "--session-id", id);
  assert.equal(again.code, 1);
  assert.match(
    again.stderr,
    new RegExp(`session ${id} already exists in ${join(home, "session-state", id)}`),
  );
  assert.equal(rowsOf(home, "SELECT count(*) AS n FROM turns")[0]!.n, turns);
  assert.equal(readFileSync(join(home, "session-state", id, "events.jsonl"), "utf8"), before);
});

test("undo takes back a handoff into Copilot CLI: its files and its index rows are gone", async () => {
  const { home, homes, env, handoff } = world();
  const r = await handoff(CLAUDE("plain-text"));
  assert.equal(r.code, 0, r.stderr);
  const { id, path } = r.json!.target as { id: string; path: string };
  const undone = await runCli(["undo", String(r.json!.op), ...homes], env, undefined, registry);
  assert.equal(undone.code, 0, undone.stderr);
  assert.equal(existsSync(path), false);
  assert.equal(existsSync(join(home, "session-state", id, "workspace.yaml")), false);
  for (const table of ["sessions", "turns", "search_index"]) {
    assert.equal(rowsOf(home, `SELECT count(*) AS n FROM ${table}`)[0]!.n, 0, table);
  }
});

test("an open call handed to Copilot CLI: closed as a failed result coded interrupted, or left started for Copilot to close", async () => {
  const stubbed = world();
  const closed = await stubbed.handoff(CLAUDE("interrupted-tool-call"));
  assert.equal(closed.code, 0, closed.stderr);
  const result = eventsOf((closed.json!.target as { path: string }).path)
    .find((e) => e.type === "tool.execution_complete")!;
  assert.equal(result.data.success, false);
  assert.deepEqual(result.data.error, { message: INTERRUPTED_RESULT, code: "interrupted" });
  const open = world();
  const left = await open.handoff(CLAUDE("interrupted-tool-call"), "--no-stub-open-calls");
  assert.equal(left.code, 0, left.stderr);
  const events = eventsOf((left.json!.target as { path: string }).path);
  // As Copilot leaves a call it was killed in: started, no result (on resume it records its own).
  assert.equal(events.filter((e) => e.type === "tool.execution_start").length, 1);
  assert.equal(events.filter((e) => e.type === "tool.execution_complete").length, 0);
});

test("a Copilot CLI home with no session-store.db yet takes the session folder alone, and says so", async () => {
  const { home, handoff } = world(false);
  const r = await handoff(CLAUDE("plain-text"));
  assert.equal(r.code, 0, r.stderr);
  assert.equal(existsSync(join(home, "session-store.db")), false, "no index is made up");
  assert.ok(existsSync((r.json!.target as { path: string }).path));
  assert.match(r.stdout, /copilot-no-session-store/);
});

test("a subagent's transcript handed to Copilot CLI is named in the loss report as not carried, and no agentId event is written", async () => {
  const { handoff } = world();
  const r = await handoff(CLAUDE("subagent"));
  assert.equal(r.code, 0, r.stderr);
  const report = r.json!.report as { entries: { code: string; severity: string; examples: string[] }[] };
  const subagents = report.entries.find((e) => e.code === "subagents");
  assert.equal(subagents?.severity, "loss");
  assert.ok(subagents.examples.length > 0, "the subagent named");
  const target = r.json!.target as { path: string };
  assert.deepEqual(eventsOf(target.path).filter((e) => "agentId" in e), []);
});

test("the handshake written into Copilot CLI reads back as the handoff's context, as its model got it, not the line its timeline shows", async () => {
  const { handoff } = world();
  const r = await handoff(CLAUDE("plain-text"));
  assert.equal(r.code, 0, r.stderr);
  const session = await findHarness(builtinRegistry, "copilot-cli").store.read(
    (r.json!.target as { path: string }).path,
  );
  const handshakes = session.messages.filter(isHandshake);
  assert.equal(handshakes.length, 1);
  const [text] = handshakes[0]!.blocks.flatMap((b) => b.type === "text" ? [b.text] : []);
  assert.ok(startsWithHandshake(text!), text);
  assert.ok(
    !session.messages.some((m) => m.blocks.some((b) => b.type === "text" && b.text === HANDSHAKE_DISPLAY)),
  );
});

test("a compacted session handed to Copilot CLI keeps its whole history before Copilot's own compaction, and reads back as the compacted thread and its summary", async () => {
  const { handoff } = world();
  const r = await handoff(CLAUDE_COMPACTED);
  assert.equal(r.code, 0, r.stderr);
  const source = await claudeCompactedParts();
  const target = r.json!.target as { path: string };
  const events = eventsOf(target.path);
  const compaction = events.findIndex((e) => e.type === "session.compaction_complete");
  assert.ok(compaction > 0, "Copilot's own compaction record is written");
  assert.equal(events[compaction - 1]!.type, "session.compaction_start");
  // The summary's words as the conversion passes them on (a source's markup tags neutralized).
  const summary = String(events[compaction]!.data.summaryContent);
  assert.ok(summary.includes(SUMMARY_MARK) && source.summary.includes(SUMMARY_MARK));
  const prompts = (from: number, to: number) =>
    events.slice(from, to).filter((e) => e.type === "user.message").map((e) => `user: ${e.data.content}`);
  assert.deepEqual(prompts(0, compaction), source.history.filter((t) => t.startsWith("user: ")));
  assert.deepEqual(compactedParts(await readCopilotSession(target.path)), { ...source, summary });
  const report = r.json!.report as { entries: { code: string; detail: string }[] };
  assert.match(report.entries.find((e) => e.code === "compacted-history")!.detail, /kept on disk/);
});
