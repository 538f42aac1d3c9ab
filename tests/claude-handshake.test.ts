/**
 * Where the Claude writer puts what a handoff adds (results for interrupted calls, the handshake), and the ids
 * it writes: what the real Claude Code needs to send the model everything (see the live test beside it).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HANDSHAKE_OPEN, INTERRUPTED_RESULT } from "../lib/handshake/handshake.ts";
import { renderClaude } from "../lib/harnesses/claude-code/render.ts";
import { readClaudeSession } from "../lib/harnesses/claude-code/read.ts";
import { isUuid } from "../lib/ids.ts";
import { runCliJson } from "./helpers/cli.ts";
import { claudeFixture, FIXTURE_CWD, jsonLines, seedClaudeHome } from "./helpers/fixtures.ts";
import { tempDir } from "./helpers/tmp.ts";

type Json = Record<string, unknown>;
const root = tempDir();
let n = 0;

async function handoff(home: string, id: string, extra: string[] = []) {
  const target = join(root, `target-${n++}`);
  mkdirSync(target);
  const r = await runCliJson(
    ["handoff", id, "--to", "claude-code", "--cwd", realpathSync(target), "--claude-home", home, ...extra],
    { SESSION_BRIDGE_HOME: join(root, "bridge") },
  );
  assert.equal(r.code, 0, r.stderr);
  return (r.json.target as { path: string }).path;
}

async function render(fixture: string, version: string, handshake = `${HANDSHAKE_OPEN}\nhello`) {
  const session = await readClaudeSession(claudeFixture(fixture));
  const lines: string[] = [];
  const options = {
    id: "00000000-0000-4000-8000-0000000000aa",
    cwd: FIXTURE_CWD,
    now: new Date(),
    handshake,
  };
  for await (const l of renderClaude(session, { ...options, stubOpenCalls: true }, version)) lines.push(l);
  return lines.map((l) => JSON.parse(l) as Record<string, unknown>);
}

test("an interrupted call handed from Claude Code to Claude Code keeps its call: a result right after it, then the handshake", async () => {
  const home = join(root, "claude-interrupted");
  const seeded = seedClaudeHome(home, "interrupted-tool-call");
  const records = jsonLines(await handoff(home, seeded.id));
  const call = records.findLast((r) =>
    r.type === "assistant" && JSON.stringify(r.message).includes("tool_use")
  )!;
  const callId = (call.message as { content: { type: string; id: string }[] }).content
    .find((b) => b.type === "tool_use")!.id;
  const result = records.find((r) => r.parentUuid === call.uuid && r.type === "user")!;
  assert.deepEqual((result.message as { content: unknown }).content, [
    { type: "tool_result", tool_use_id: callId, content: INTERRUPTED_RESULT, is_error: true },
  ]);
  const handshake = records.at(-1)!;
  assert.equal(handshake.parentUuid, result.uuid, "the handshake follows the result, never the bare call");
  assert.equal(handshake.type, "system");
  assert.equal(handshake.subtype, "local_command");
  assert.match(String(handshake.content), /^<session-bridge-handoff>/);
});

test("the handshake for Claude Code 2.x is a local_command system record, read after its synthetic reply", async () => {
  const records = await render("plain-text", "2.1.328");
  const last = records.at(-1)!;
  assert.deepEqual(
    { type: last.type, subtype: last.subtype, content: last.content, level: last.level, isMeta: last.isMeta },
    {
      type: "system",
      subtype: "local_command",
      content: `${HANDSHAKE_OPEN}\nhello`,
      level: "info",
      isMeta: false,
    },
  );
});

test("the handshake for Claude Code 1.0.x, which sends no system record to the model, is a meta user record", async () => {
  const last = (await render("plain-text", "1.0.128")).at(-1)!;
  assert.equal(last.type, "user");
  assert.equal(last.isMeta, true);
  assert.deepEqual(last.message, { role: "user", content: `${HANDSHAKE_OPEN}\nhello` });
});

test("a handshake written as a system record is read back as the earlier hop's handshake and replaced once", async () => {
  const home = join(root, "claude-two-hops");
  const seeded = seedClaudeHome(home, "interrupted-tool-call");
  const first = await handoff(home, seeded.id);
  const second = jsonLines(
    await handoff(home, jsonLines(first).find((r) => r.sessionId)!.sessionId as string),
  );
  const handshakes = second.filter((r) => JSON.stringify(r).includes(HANDSHAKE_OPEN));
  assert.equal(handshakes.length, 1);
  const results = second.filter((r) => JSON.stringify(r.message ?? "").includes(INTERRUPTED_RESULT));
  assert.equal(results.length, 1, "the first hop's result is kept, not doubled");
});

test("record ids that are not UUIDs are re-minted into UUIDs in a Claude target, the chain kept", async () => {
  const home = join(root, "claude-short-ids");
  const bucket = join(home, "projects", "-home-user-project");
  mkdirSync(bucket, { recursive: true });
  const id = "7d1c7bb6-5a0e-4c5b-9d43-3a8e7f1f0c11";
  const base = {
    sessionId: id,
    cwd: FIXTURE_CWD,
    version: "2.1.328",
    isSidechain: false,
    userType: "external",
  };
  const source = [
    {
      ...base,
      type: "user",
      uuid: "u1",
      parentUuid: null,
      timestamp: "2026-11-29T10:00:00.000Z",
      message: { role: "user", content: "first words" },
    },
    {
      ...base,
      type: "assistant",
      uuid: "a1",
      parentUuid: "u1",
      timestamp: "2026-11-29T10:00:01.000Z",
      message: { role: "assistant", content: [{ type: "text", text: "first answer" }] },
    },
    {
      ...base,
      type: "user",
      uuid: "u2",
      parentUuid: "a1",
      timestamp: "2026-11-29T10:00:02.000Z",
      message: { role: "user", content: "second words" },
    },
    { type: "last-prompt", lastPrompt: "second words", leafUuid: "u2", sessionId: id },
  ];
  writeFileSync(join(bucket, `${id}.jsonl`), source.map((r) => JSON.stringify(r)).join("\n") + "\n");
  const records = jsonLines(await handoff(home, id));
  const chain = records.filter((r) => r.type === "user" || r.type === "assistant");
  assert.deepEqual(
    chain.map((r) => JSON.stringify((r.message as { content: unknown }).content)),
    ['"first words"', '[{"type":"text","text":"first answer"}]', '"second words"'],
  );
  for (const r of records.filter((r) => typeof r.uuid === "string")) {
    assert.ok(isUuid(r.uuid as string), String(r.uuid));
  }
  assert.equal(chain[0]!.parentUuid, null);
  assert.equal(chain[1]!.parentUuid, chain[0]!.uuid);
  assert.equal(chain[2]!.parentUuid, chain[1]!.uuid);
  assert.equal(records.find((r) => r.type === "last-prompt")!.leafUuid, chain[2]!.uuid);
  assert.equal(records.at(-1)!.parentUuid, chain[2]!.uuid, "the handshake hangs off the re-minted leaf");
});

test("a Claude → Claude copy links a prompt typed while a tool ran into the chain Claude Code resumes", async () => {
  const home = join(root, "claude-queued");
  const seeded = seedClaudeHome(home, "interactive-interrupted");
  const records = jsonLines(await handoff(home, seeded.id));
  const byUuid = new Map(records.map((r) => [r.uuid, r]));
  // The chain Claude Code loads: from the newest record up its parents (read as plain JSON here).
  const chain: Record<string, unknown>[] = [];
  for (let r = records.at(-1); r; r = byUuid.get(r.parentUuid)) chain.unshift(r);
  const said = chain.filter((r) => r.type === "user" || r.type === "assistant").map((r) => {
    const content = (r.message as { content: unknown }).content;
    const first = typeof content === "string" ? { type: "text", text: content } : (content as Json[])[0]!;
    return `${r.type}: ${first.type === "text" ? first.text : first.type}`;
  });
  const queued = "user: Typed while the slow command ran: then list the files.";
  assert.equal(said.filter((s) => s === queued).length, 1, said.join("\n"));
  const at = said.indexOf(queued);
  assert.deepEqual(said.slice(at - 3, at + 2), [
    "assistant: tool_use",
    "user: tool_result",
    "user: [Request interrupted by user for tool use]",
    queued,
    "assistant: Tool said: [Tool result missing due to internal error]",
  ]);
});
