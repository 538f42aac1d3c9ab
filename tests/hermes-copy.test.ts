/**
 * Hermes to Hermes from the files Hermes writes beside state.db (JSON snapshots, legacy gateway transcripts):
 * the copy gets what Hermes's own rows carry, and reports what state.db cannot hold.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { hermesFixture, query, seedHermesHome } from "./helpers/hermes.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
let n = 0;
const SNAPSHOT_14 = hermesFixture("0.14.0", "snapshot/sessions/session_20261129_210555_479e6c.json");
const SNAPSHOT_19 = hermesFixture("0.19.0", "snapshot/sessions/session_20261129_210513_123b9c.json");
const TRANSCRIPT_14 = hermesFixture("0.14.0", "gateway-legacy/sessions/20261129_210600_ffb99655.jsonl");

function home() {
  const base = join(root, `h${n++}`);
  const hermesHome = join(base, "hermes");
  const db = seedHermesHome(hermesHome, "0.19.0", "text-turns");
  const target = join(base, "project");
  mkdirSync(target);
  return { base, hermesHome, db, target: realpathSync(target) };
}

interface Report {
  lossless: boolean;
  entries: { code: string; severity: string; count: number; detail: string; examples: string[] }[];
}

async function handoff(source: string, h: ReturnType<typeof home>, extra: string[] = []) {
  const r = await runCliJson(["handoff", source, "--to", "hermes", "--hermes-home", h.hermesHome, ...extra]);
  assert.equal(r.code, 0, r.stderr);
  return r.json as { target: { id: string; resumeCommand: string; path: string }; report: Report };
}

test("a Hermes snapshot converted to Hermes gets a time on every message, the handshake's included", async () => {
  const out = join(root, "snapshot-14.jsonl");
  const r = await runCli(["convert", SNAPSHOT_14, "--to", "hermes", "-o", out]);
  assert.equal(r.code, 0, r.stderr);
  const line = JSON.parse(readFileSync(out, "utf8")) as {
    id: string;
    started_at: number;
    messages: { session_id: string; role: string; timestamp: unknown }[];
  };
  assert.deepEqual(line.messages.map((m) => m.role), [
    "user",
    "assistant",
    "tool",
    "assistant",
    "user",
    "assistant",
    "user",
  ]);
  const times = line.messages.map((m) => m.timestamp);
  assert.ok(times.every((t) => typeof t === "number"), JSON.stringify(times));
  for (let i = 1; i < times.length; i++) assert.ok((times[i] as number) > (times[i - 1] as number));
  // The 0.14 snapshot's messages have no times: they follow its session_start (2026-11-29T21:05:58.979677).
  assert.equal(line.started_at, 1795986358.979677);
  assert.ok((times[0] as number) >= 1795986358.979 && (times[0] as number) < 1795986359);
  assert.ok(line.messages.every((m) => m.session_id === line.id), "every row names its session");
});

test("a Hermes copy names the tool of every tool row, where the source's result did not", async () => {
  const h = home();
  const done = await handoff(SNAPSHOT_14, h, ["--cwd", h.target]);
  const tools = query(
    h.db,
    "SELECT tool_call_id, tool_name FROM messages WHERE session_id = ? AND role = 'tool'",
    done.target.id,
  );
  assert.deepEqual(tools, [{ tool_call_id: "call_fake0001", tool_name: "terminal" }]);
  const legacy = home();
  const again = await handoff(TRANSCRIPT_14, legacy, ["--cwd", legacy.target]);
  const rows = query(
    legacy.db,
    "SELECT tool_name FROM messages WHERE session_id = ? AND role = 'tool'",
    again.target.id,
  );
  assert.deepEqual(rows, [{ tool_name: "terminal" }]);
});

test("a Hermes snapshot converted to a Hermes export file reports the tool catalog Hermes supplies itself, apart from losses", async () => {
  const out = join(root, "snapshot-19-tools.jsonl");
  const r = await runCliJson(["convert", SNAPSHOT_19, "--to", "hermes", "-o", out]);
  assert.equal(r.code, 0, r.stderr);
  const report = (r.json as { report: Report }).report;
  const tools = report.entries.find((e) => e.code === "tool-schemas-not-carried");
  assert.equal(tools?.severity, "supplied");
  assert.equal(tools?.count, 18);
  // The export file keeps the stored system prompt, so that is no loss here.
  assert.equal(report.entries.some((e) => e.code.startsWith("system-")), false);
});

test("a Hermes snapshot into Hermes reports the tool catalog and system prompt Hermes supplies itself, apart from losses", async () => {
  const h = home();
  const done = await handoff(SNAPSHOT_19, h, ["--cwd", h.target]);
  const tools = done.report.entries.find((e) => e.code === "tool-schemas-not-carried");
  assert.equal(tools?.severity, "supplied");
  assert.equal(tools?.count, 18);
  const prompt = done.report.entries.find((e) => e.code === "system-prompt-not-carried");
  assert.equal(prompt?.severity, "supplied");
  assert.match(prompt!.detail, /names the working directory \/home\/user\/project, not .*: it is left out/);
  assert.equal(
    query(h.db, "SELECT system_prompt FROM sessions WHERE id = ?", done.target.id)[0]!.system_prompt,
    null,
  );
});

/** The 0.19 snapshot as if it had been recorded in `cwd` (its system prompt names the working directory). */
function snapshotIn(cwd: string, h: ReturnType<typeof home>): string {
  const file = join(h.base, "session_20261129_210513_123b9c.json");
  const text = readFileSync(SNAPSHOT_19, "utf8").replaceAll("/home/user/project", cwd);
  writeFileSync(file, text);
  return file;
}

test("a Hermes snapshot copied into its own folder keeps the system prompt Hermes will reuse", async () => {
  const h = home();
  const done = await handoff(snapshotIn(h.target, h), h, ["--cwd", h.target]);
  const [row] = query(h.db, "SELECT system_prompt FROM sessions WHERE id = ?", done.target.id);
  assert.match(
    String(row!.system_prompt),
    /Current working directory: .*\nModel: fake-model-1\nProvider: custom$/s,
  );
  assert.equal(done.report.entries.find((e) => e.code === "system-prompt-not-carried"), undefined);
});

test("a copied system prompt Hermes will not reuse (another model) is reported as not carried, Hermes supplying its own", async () => {
  const h = home();
  writeFileSync(join(h.hermesHome, "config.yaml"), 'model:\n  default: "other-model"\n  provider: custom\n');
  const done = await handoff(snapshotIn(h.target, h), h, ["--cwd", h.target]);
  const prompt = done.report.entries.find((e) => e.code === "system-prompt-not-carried");
  assert.equal(prompt?.severity, "supplied");
  assert.match(prompt!.detail, /Model\/Provider lines match its own run \(other-model \/ custom\)/);
});

test("a relative --hermes-home is stored and printed absolute", async () => {
  const h = home();
  const rel = relative(h.base, h.hermesHome);
  const r = await runCliJson(
    [
      "handoff",
      SNAPSHOT_19,
      "--to",
      "hermes",
      "--hermes-home",
      rel,
      "--cwd",
      h.target,
    ],
    {},
    h.base,
  );
  assert.equal(r.code, 0, r.stderr);
  const target = (r.json as { target: { id: string; path: string; resumeCommand: string } }).target;
  assert.equal(target.path, `${h.db}#${target.id}`);
  assert.equal(
    target.resumeCommand,
    `cd ${h.target} && HERMES_HOME=${h.hermesHome} hermes chat --resume ${target.id}`,
  );
});
