/**
 * The public library API (lib/mod.ts) on real captured sessions in private homes: list, load, convert to a file,
 * plan (nothing written), hand off (files and index row present, resume command), undo (all gone again), and
 * failures as typed errors carrying the CLI's exit code. Only lib/mod.ts is used; the helpers only seed stores.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import * as api from "../lib/mod.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome, threadRow } from "./helpers/codex.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = realpathSync(tempDir("sb-api-"));
const codexHome = join(root, "codex");
makeCodexHome(codexHome);
const claude = seedClaudeHome(join(root, "claude"), "plain-text");
const project = join(root, "project");
mkdirSync(project);
// Homes given by name, everything else from an environment that is not this process's.
const where = api.stores({
  given: { "claude-code": join(root, "claude"), codex: codexHome },
  env: { HOME: root, HERMES_HOME: join(root, "hermes"), SESSION_BRIDGE_HOME: join(root, "bridge") },
});
const now = new Date("2026-12-01T06:00:00Z");

test("stores resolves every registered harness's home and session-bridge's own folder from what it is given", () => {
  assert.deepEqual(where.homes, {
    "claude-code": join(root, "claude"),
    codex: codexHome,
    hermes: join(root, "hermes"),
    // Gemini CLI's home is the user's home itself (its store is <home>/.gemini).
    "gemini-cli": root,
    // OpenCode's is its data folder, under XDG_DATA_HOME (here unset: ~/.local/share).
    opencode: join(root, ".local/share/opencode"),
    // Copilot CLI's is ~/.copilot (COPILOT_HOME unset).
    "copilot-cli": join(root, ".copilot"),
    // Pi's is its agent folder (PI_CODING_AGENT_DIR unset: ~/.pi/agent).
    pi: join(root, ".pi/agent"),
  });
  assert.equal(where.bridgeHome, join(root, "bridge"));
});

test("list finds the seeded session, with the broken stores named apart", async () => {
  const listed = await api.list({ ...where, from: "claude" });
  assert.deepEqual(listed.sessions.map((s) => [s.harness, s.id, s.path]), [[
    "claude-code",
    claude.id,
    claude.path,
  ]]);
  assert.deepEqual(listed.broken, []);
});

test("load reads a session by id prefix into the IR", async () => {
  const { session, source, skipped } = await api.load({ ...where, ref: claude.id.slice(0, 8) });
  assert.equal(source.name, "claude-code");
  assert.equal(session.meta.id, claude.id);
  assert.equal(session.meta.cwd, "/home/user/project");
  assert.equal(api.inspection(session).id, claude.id);
  assert.ok(session.messages.some((m) => m.role === "user"));
  assert.deepEqual(skipped, []);
});

test("a call's read limits are its own: two loads at once, one refusing the longest record, the other not", async () => {
  const lines = readFileSync(claude.path, "utf8").split("\n");
  const longest = Math.max(...lines.map((l) => Buffer.byteLength(l)));
  const at = lines.findIndex((l) => Buffer.byteLength(l) === longest) + 1;
  const tight = { ...api.DEFAULT_READ_LIMITS, maxRecordBytes: longest - 1 };
  const [refused, read] = await Promise.allSettled([
    api.load({ ...where, ref: claude.path, limits: tight }),
    api.load({ ...where, ref: claude.path }),
  ]);
  assert.equal(refused.status, "rejected");
  assert.ok(refused.reason instanceof api.InputError);
  assert.match(refused.reason.message, new RegExp(`^${claude.path}:${at}: a record longer than`));
  assert.equal(read.status, "fulfilled");
  assert.equal(read.value.session.meta.id, claude.id);
});

test("convert writes the session in the target's format to a file and touches no store", async () => {
  const output = join(root, "converted.jsonl");
  const converted = await api.convert({ ...where, source: { ref: claude.id }, to: "codex", output, now });
  assert.equal(converted.output, output);
  assert.equal(converted.target.harness, "codex");
  const first = JSON.parse(readFileSync(output, "utf8").split("\n")[0]!) as { type: string };
  assert.equal(first.type, "session_meta");
  assert.equal(existsSync(join(codexHome, "sessions")), false);
  assert.equal(typeof converted.report, "object");
});

test("plan previews a handoff and writes nothing; handoff carries it out; undo takes it back", async () => {
  const request = { ...where, source: { ref: claude.id }, to: "codex", cwd: project, now };
  const planned = await api.plan(request);
  assert.equal(planned.dryRun, true);
  assert.equal(planned.op, undefined);
  assert.equal(planned.refusal, undefined);
  assert.equal(planned.kind, "render");
  assert.equal(planned.files.length, 1);
  assert.equal(existsSync(planned.files[0]!), false);
  assert.equal(threadRow(codexHome, planned.target.id), undefined);
  // The plan says, as data, the request that carries it out: the id it minted and the directory it chose.
  assert.deepEqual(
    [planned.reproduce!.sessionId, planned.reproduce!.to, planned.reproduce!.cwd],
    [planned.target.id, "codex", planned.target.cwd],
  );
  assert.deepEqual(api.undoable(where.bridgeHome), []);

  const done = await api.handoff({ ...request, sessionId: planned.target.id });
  assert.equal(done.dryRun, false);
  assert.equal(done.target.id, planned.target.id);
  assert.deepEqual(done.files, planned.files);
  assert.ok(existsSync(done.files[0]!));
  assert.equal(threadRow(codexHome, done.target.id)?.rollout_path, done.files[0]);
  assert.equal(
    done.target.resumeCommand,
    `cd ${project} && CODEX_HOME=${codexHome} codex resume ${done.target.id}`,
  );
  assert.deepEqual(api.undoable(where.bridgeHome).map((e) => e.op), [done.op]);

  const undone = await api.undo({ bridgeHome: where.bridgeHome, op: done.op, now });
  assert.equal(undone.entry.op, done.op);
  assert.deepEqual(undone.plan.remove, done.files);
  assert.equal(existsSync(done.files[0]!), false);
  assert.equal(threadRow(codexHome, done.target.id), undefined);
  assert.deepEqual(api.undoable(where.bridgeHome), []);
});

test("failures are typed errors carrying the CLI's exit code, and nothing is written", async () => {
  const before = api.undoable(where.bridgeHome).map((e) => e.op);
  const unknown = await api.handoff({ ...where, source: { ref: "no-such-session" }, to: "codex", now }).then(
    () => undefined,
    (error: unknown) => error,
  );
  assert.ok(unknown instanceof api.InputError);
  assert.equal(unknown.exitCode, 2);
  assert.match(unknown.message, /^no session matches "no-such-session"/);

  const first = await api.handoff({ ...where, source: { ref: claude.id }, to: "codex", cwd: project, now });
  const again = await api.handoff({
    ...where,
    source: { ref: claude.id },
    to: "codex",
    cwd: project,
    sessionId: first.target.id,
    now,
  }).then(() => undefined, (error: unknown) => error);
  assert.ok(again instanceof api.RefusedError);
  assert.equal(again.exitCode, 1);
  assert.match(again.message, /already exists/);
  assert.deepEqual(api.undoable(where.bridgeHome).map((e) => e.op), [...before, first.op]);
});
