/**
 * The engines' alias rules, with stand-in binaries that print what Claude Code's stream-json prints (so each
 * rule is seen on its own, without a model): the name is bound as soon as an id is announced, an interrupted
 * turn included; a new id at the end of a resumed turn is followed; an explicit id wins and re-points the name;
 * a known name is resumed; a registry that cannot be written warns and the turn still runs.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { ClaudeCodeEngine } from "../lib/engines/mod.ts";
import { SessionRegistry } from "../lib/registry/registry.ts";
import { tempDir } from "./helpers/tmp.ts";

/** A stand-in `claude`: logs its argv, prints `lines`, exits with `code`. */
function standIn(dir: string, lines: string[], code = 0): string {
  const bin = join(dir, `claude-${Math.random().toString(36).slice(2)}`);
  const body = lines.map((l) => `printf '%s\\n' '${l.replaceAll("'", "'\\''")}'`).join("\n");
  writeFileSync(bin, `#!/bin/sh\nprintf '%s\\n' "$*" >> "${join(dir, "argv.log")}"\n${body}\nexit ${code}\n`);
  chmodSync(bin, 0o755);
  return bin;
}

const init = (id: string) => JSON.stringify({ type: "system", subtype: "init", session_id: id });
const result = (id: string, text: string) => JSON.stringify({ type: "result", result: text, session_id: id });
const env = { PATH: process.env.PATH ?? "/usr/bin:/bin" };

function setup() {
  const dir = tempDir("sb-engine-");
  const registry = new SessionRegistry({ path: join(dir, "sessions.json") });
  return { dir, registry };
}

test("an unknown name starts a fresh conversation and is bound as soon as the id is announced, even when the turn is interrupted", async () => {
  const { dir, registry } = setup();
  const bin = standIn(dir, [init("11111111-1111-4111-8111-111111111111")], 130);
  const turn = await new ClaudeCodeEngine({ bin, cwd: dir, env, alias: "reviewer", registry }).run("hello");
  assert.equal(turn.ok, false);
  assert.equal(await registry.resolve("claude", dir, "reviewer"), "11111111-1111-4111-8111-111111111111");
  assert.doesNotMatch(readFileSync(join(dir, "argv.log"), "utf8"), /--resume/);
});

test("a known name is resumed, and when the resumed turn ends in a new id the name follows it", async () => {
  const { dir, registry } = setup();
  await registry.bind("claude", dir, "reviewer", "old-id");
  const bin = standIn(dir, [init("old-id"), result("new-id", "the answer")]);
  const engine = new ClaudeCodeEngine({ bin, cwd: dir, env, alias: "reviewer", registry });
  const turn = await engine.run("again");
  assert.equal(turn.reply, "the answer");
  assert.equal(turn.sessionId, "new-id");
  assert.equal(engine.sessionId, "new-id");
  assert.match(readFileSync(join(dir, "argv.log"), "utf8"), /--resume old-id/);
  assert.equal(await registry.resolve("claude", dir, "reviewer"), "new-id");
});

test("an explicit id wins over the name, which is re-pointed at it", async () => {
  const { dir, registry } = setup();
  await registry.bind("claude", dir, "reviewer", "old-id");
  const bin = standIn(dir, [init("explicit-id"), result("explicit-id", "ok")]);
  await new ClaudeCodeEngine({ bin, cwd: dir, env, alias: "reviewer", sessionId: "explicit-id", registry })
    .run("x");
  assert.match(readFileSync(join(dir, "argv.log"), "utf8"), /--resume explicit-id/);
  assert.equal(await registry.resolve("claude", dir, "reviewer"), "explicit-id");
});

test("a registry that cannot be written is a warning; the turn runs and answers", async () => {
  const dir = tempDir("sb-engine-");
  writeFileSync(join(dir, "file"), "");
  const registry = new SessionRegistry({ path: join(dir, "file", "sessions.json") });
  const bin = standIn(dir, [init("id-1"), result("id-1", "still answered")]);
  const turn = await new ClaudeCodeEngine({ bin, cwd: dir, env, alias: "reviewer", registry }).run("x");
  assert.equal(turn.ok, true);
  assert.equal(turn.reply, "still answered");
  assert.ok(turn.warnings.some((w) => /could not (record|read)/.test(w)), turn.warnings.join("\n"));
});

test("a name that is no alias is refused before anything runs", () => {
  const { dir, registry } = setup();
  assert.throws(() => new ClaudeCodeEngine({ bin: "/bin/false", cwd: dir, env, alias: "9lives", registry }));
});
