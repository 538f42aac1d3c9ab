import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { bucketName } from "../lib/harnesses/claude-code/bucket.ts";
import { HANDSHAKE_OPEN, INTERRUPTED_RESULT } from "../lib/handshake/handshake.ts";
import { claudeFixture, jsonLines, seedClaudeHome } from "./helpers/fixtures.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
let n = 0;
function world(fixture: string) {
  const base = join(root, `w${n++}`);
  const home = join(base, "claude");
  const seeded = seedClaudeHome(home, fixture);
  const target = join(base, "other project");
  mkdirSync(target, { recursive: true });
  return { base, home, target: realpathSync(target), ...seeded };
}

/** Every parentUuid points at a uuid earlier in the file: one unbroken chain, as Claude needs. */
function assertChain(path: string) {
  const seen = new Set<string>();
  for (const r of jsonLines(path)) {
    if (typeof r.uuid !== "string") continue;
    if (r.parentUuid !== null) {
      assert.ok(seen.has(r.parentUuid as string), `dangling parentUuid in ${r.uuid}`);
    }
    seen.add(r.uuid);
  }
}

/** Handshake records: for Claude Code 2.x a `local_command` system record (see write.ts), whatever its form. */
function handshakes(path: string) {
  return jsonLines(path).filter((r) => JSON.stringify(r.message ?? r.content ?? "").includes(HANDSHAKE_OPEN));
}

test("same-harness convert without changes reproduces the file byte for byte", async () => {
  const out = join(root, "copy.jsonl");
  const r = await runCli([
    "convert",
    claudeFixture("thinking-tool-use"),
    "--to",
    "claude",
    "--no-handshake",
    "-o",
    out,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(out, "utf8"), readFileSync(claudeFixture("thinking-tool-use"), "utf8"));
  assert.match(r.stderr, /lossless/);
});

test("convert refuses to overwrite an existing output without --force", async () => {
  const out = join(root, "exists.jsonl");
  assert.equal((await runCli(["convert", claudeFixture("plain-text"), "--to", "claude", "-o", out])).code, 0);
  const before = readFileSync(out, "utf8");
  const again = await runCli(["convert", claudeFixture("resumed"), "--to", "claude", "-o", out]);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /already exists/);
  assert.equal(readFileSync(out, "utf8"), before);
});

test("handoff to another directory lands in that directory's bucket with a fresh id and one chain", async () => {
  const w = world("thinking-tool-use");
  const r = await runCliJson([
    "handoff",
    w.id,
    "--to",
    "claude-code",
    "--cwd",
    w.target,
    "--claude-home",
    w.home,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const target = r.json.target as { id: string; path: string; resumeCommand: string };
  assert.equal(target.path, join(w.home, "projects", bucketName(w.target), `${target.id}.jsonl`));
  assert.notEqual(target.id, w.id);
  assert.equal(
    target.resumeCommand,
    `cd '${w.target}' && CLAUDE_CONFIG_DIR=${w.home} claude --resume ${target.id}`,
  );
  const text = readFileSync(target.path, "utf8");
  assert.ok(text.endsWith("\n"));
  const records = jsonLines(target.path);
  for (const rec of records) {
    if ("sessionId" in rec) assert.equal(rec.sessionId, target.id);
    if ("cwd" in rec) assert.equal(rec.cwd, w.target);
    if ("timestamp" in rec) assert.ok(Number.isFinite(Date.parse(rec.timestamp as string)));
  }
  assertChain(target.path);
  assert.equal(handshakes(target.path).length, 1);
  assert.equal(records.at(-1)!.type, "system", "the handshake is the newest leaf");
  assert.equal(records.at(-1)!.subtype, "local_command");
  assert.ok(existsSync(w.path), "the source is untouched");
});

test("the handed-off session reads back with the same conversation plus the handshake", async () => {
  const w = world("resumed");
  const r = await runCliJson(["handoff", w.id, "--to", "claude", "--cwd", w.target, "--claude-home", w.home]);
  const path = (r.json.target as { path: string }).path;
  const before = await readClaudeSession(w.path);
  const after = await readClaudeSession(path);
  const texts = (s: typeof before) => s.messages.map((m) => `${m.role}:${JSON.stringify(m.blocks)}`);
  assert.deepEqual(texts(after).slice(0, -1), texts(before));
  assert.match(texts(after).at(-1)!, /session-bridge-handoff/);
});

test("a second hop replaces the handshake instead of stacking another", async () => {
  const w = world("plain-text");
  const first = await runCliJson([
    "handoff",
    w.id,
    "--to",
    "claude",
    "--cwd",
    w.target,
    "--claude-home",
    w.home,
  ]);
  const firstId = (first.json.target as { id: string }).id;
  const second = await runCliJson([
    "handoff",
    firstId,
    "--to",
    "claude",
    "--cwd",
    w.base,
    "--claude-home",
    w.home,
  ]);
  assert.equal(second.code, 0, second.stderr);
  const path = (second.json.target as { path: string }).path;
  assert.equal(handshakes(path).length, 1);
  assertChain(path);
});

test("--stub-open-calls closes the open call with an error result right after it; the handshake is unchanged", async () => {
  const w = world("interrupted-tool-call");
  const plain = await runCliJson([
    "handoff",
    w.id,
    "--to",
    "claude",
    "--cwd",
    w.target,
    "--claude-home",
    w.home,
  ]);
  const stubbed = await runCliJson([
    "handoff",
    w.id,
    "--to",
    "claude",
    "--cwd",
    w.target,
    "--stub-open-calls",
    "--claude-home",
    w.home,
  ]);
  assert.equal(stubbed.code, 0, stubbed.stderr);
  const path = (stubbed.json.target as { path: string }).path;
  assertChain(path);
  const records = jsonLines(path);
  const callIndex = records.findLastIndex((r) =>
    r.type === "assistant" && JSON.stringify(r.message).includes("tool_use")
  );
  const next = records.slice(callIndex + 1).find((r) => r.type === "user")!;
  const content =
    (next.message as { content: { type: string; is_error: boolean; content: string }[] }).content;
  assert.equal(content[0]!.type, "tool_result");
  assert.equal(content[0]!.is_error, true);
  assert.equal(content[0]!.content, INTERRUPTED_RESULT);
  const handshakeText = (p: string) => String(handshakes(p)[0]!.content).replace(/ on \S+Z\./, "");
  assert.equal(handshakeText(path), handshakeText((plain.json.target as { path: string }).path));
  assert.match(handshakeText(path), /Bash \(toolu_/);
});

test("subagent transcripts travel with the session, retargeted to the new id", async () => {
  const w = world("subagent");
  const r = await runCliJson(["handoff", w.id, "--to", "claude", "--cwd", w.target, "--claude-home", w.home]);
  assert.equal(r.code, 0, r.stderr);
  const files = r.json.files as string[];
  const sub = files.find((f) => f.includes("/subagents/"));
  assert.ok(sub && existsSync(sub));
  const id = (r.json.target as { id: string }).id;
  for (const rec of jsonLines(sub)) if ("sessionId" in rec) assert.equal(rec.sessionId, id);
});

test("a copy into another directory says the new one in the environment Claude Code replays to the model", async () => {
  const w = world("interactive");
  const old = (await readClaudeSession(w.path)).meta.cwd!;
  const r = await runCliJson([
    "handoff",
    w.id,
    "--to",
    "claude-code",
    "--cwd",
    w.target,
    "--claude-home",
    w.home,
  ]);
  assert.equal(r.code, 0, r.stderr);
  const records = jsonLines((r.json.target as { path: string }).path);
  const environments = records.flatMap((rec) => {
    const attachment = rec.attachment as
      | { type?: string; snapshot?: { workingDirectory?: string } }
      | undefined;
    return attachment?.type === "environment" ? [{ attachment, rendered: JSON.stringify(rec.rendered) }] : [];
  });
  assert.ok(environments.length > 0, "the fixture records its environment");
  for (const { attachment, rendered } of environments) {
    assert.equal(attachment.snapshot?.workingDirectory, w.target);
    assert.ok(rendered.includes(`Primary working directory: ${w.target}\\n`), rendered);
  }
  // The request logs (api-request-*) keep what was sent then: Claude Code skips them when it loads a session.
  const loaded = records.filter((rec) => !String(rec.type).startsWith("api-request"));
  assert.ok(!JSON.stringify(loaded).includes(`: ${old}\\n`));
});
