/**
 * The effort a conversation runs at, learned from what the harness stores, live and offline: the real Codex
 * 0.169.0 with `model_reasoning_effort = "high"` in its config.toml and the real Pi 0.73.1 with
 * `defaultThinkingLevel: "high"` in its settings, each run through the engine with no effort asked. Neither
 * prints the effort; each stores it (Codex's thread row, Pi's thinking_level_change entry), and the name is
 * recorded with it in LazyBridge's registry, as LazyBridge records what a conversation last ran with. And the
 * real Copilot CLI 1.0.102 asked for an effort sends it and records it in its session; the real Claude Code
 * 2.1.328 stamps each assistant record of its transcript with it, read back on the next turn that asks none.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import process from "node:process";
import { installHarness } from "../acceptance/install-harness.ts";
import { HarnessEngine } from "../lib/engines/engine.ts";
import { codex } from "../lib/harnesses/codex/index.ts";
import { pi } from "../lib/harnesses/pi/index.ts";
import { startFakeResponses } from "../lib/certify-kit/fake-servers/responses.ts";
import { startFakeChatCompletions } from "../lib/certify-kit/fake-servers/chat-completions.ts";
import { codexEnv, codexHomeDir, prepareCodexHome } from "../lib/harnesses/codex/certify/run.ts";
import { piEnv, piFolders, writeOfflineAgent } from "../lib/harnesses/pi/certify/run.ts";
import { SessionRegistry } from "../lib/registry/registry.ts";
import { claudeCode } from "../lib/harnesses/claude-code/index.ts";
import { startFakeAnthropic } from "../lib/certify-kit/fake-servers/anthropic.ts";
import { claudeEnv, prepareClaudeHome } from "../lib/harnesses/claude-code/certify/run.ts";
import { copilotCli } from "../lib/harnesses/copilot-cli/index.ts";
import { copilotEnv, copilotFolders } from "../lib/harnesses/copilot-cli/certify/run.ts";
import { copilotScript } from "../lib/harnesses/copilot-cli/certify/sent.ts";
import { tempDir } from "./helpers/tmp.ts";

async function effortOfName(registry: SessionRegistry, kind: string): Promise<unknown> {
  const [entry] = await registry.entries({ kind });
  return entry?.effort;
}

test("Codex run with no effort asked: the high effort its config.toml names is learned from its thread row and recorded with the name", async () => {
  const root = realpathSync(tempDir("sb-effort-"));
  const server = await startFakeResponses({ logPath: join(root, "requests.jsonl") });
  try {
    const home = join(root, "home");
    prepareCodexHome(home, server.url);
    const config = join(codexHomeDir(home), "config.toml");
    // A top-level key, so before the provider's table.
    writeFileSync(config, `model_reasoning_effort = "high"\n${readFileSync(config, "utf8")}`);
    const cwd = join(root, "project");
    mkdirSync(cwd);
    const registry = new SessionRegistry({ path: join(root, "sessions.json") });
    const engine = new HarnessEngine(codex, {
      bin: await installHarness("codex"),
      cwd,
      env: codexEnv(home, process.env.PATH),
      alias: "planner",
      registry,
    });
    const turn = await engine.run("Say hello.");
    assert.ok(turn.ok, turn.stderr);
    assert.equal(turn.effort, "high");
    assert.equal(await effortOfName(registry, "codex"), "high");
  } finally {
    await server.close();
  }
});

test("Pi run with no effort asked: the high thinking level its settings name is learned from its session file and recorded with the name", async () => {
  const root = realpathSync(tempDir("sb-effort-"));
  const server = await startFakeChatCompletions({ logPath: join(root, "requests.jsonl") });
  try {
    const folders = piFolders(join(root, "pi"));
    writeOfflineAgent(folders, server.url);
    const settings = join(folders.agent, "settings.json");
    writeFileSync(
      settings,
      JSON.stringify({ ...JSON.parse(readFileSync(settings, "utf8")), defaultThinkingLevel: "high" }),
    );
    const cwd = join(root, "project");
    mkdirSync(cwd);
    const registry = new SessionRegistry({ path: join(root, "sessions.json") });
    const engine = new HarnessEngine(pi, {
      bin: await installHarness("pi"),
      cwd,
      env: piEnv(folders, process.env.PATH),
      alias: "notes",
      registry,
    });
    const turn = await engine.run("Say hello.");
    assert.ok(turn.ok, turn.stderr);
    assert.equal(turn.effort, "high");
    assert.equal(await effortOfName(registry, "pi"), "high");
  } finally {
    await server.close();
  }
});

test("Copilot CLI run with an effort: the real binary sends it to the model (--reasoning-effort), records it in its session, and the name is recorded with it", async () => {
  const root = realpathSync(tempDir("sb-effort-"));
  const log = join(root, "requests.jsonl");
  const server = await startFakeChatCompletions({ logPath: log, script: copilotScript });
  try {
    const cwd = join(root, "project");
    mkdirSync(cwd);
    const registry = new SessionRegistry({ path: join(root, "sessions.json") });
    const folders = copilotFolders(join(root, "copilot"));
    const engine = new HarnessEngine(copilotCli, {
      bin: await installHarness("copilot-cli"),
      cwd,
      env: copilotEnv(folders, server.url, process.env),
      alias: "review",
      effort: "high",
      registry,
    });
    const turn = await engine.run("Say hello.");
    assert.ok(turn.ok, turn.stderr);
    const sent = readFileSync(log, "utf8").trim().split("\n").map((l) =>
      JSON.parse(l).body?.reasoning_effort
    );
    assert.ok(sent.length > 0 && sent.every((e) => e === "high"), JSON.stringify(sent));
    const events = readFileSync(
      join(folders.copilot, "session-state", turn.sessionId!, "events.jsonl"),
      "utf8",
    );
    assert.match(events, /"type":"session\.model_change","data":\{[^}]*"reasoningEffort":"high"/);
    assert.equal(turn.effort, "high");
    assert.equal(await effortOfName(registry, "copilot"), "high");
  } finally {
    await server.close();
  }
});

test("Claude Code run with an effort: the real binary stamps it on its transcript's assistant record, from which it is read back and recorded with the name", async () => {
  const root = realpathSync(tempDir("sb-effort-"));
  const server = await startFakeAnthropic({ logPath: join(root, "requests.jsonl") });
  try {
    const home = join(root, "home");
    prepareClaudeHome(home);
    const cwd = join(root, "project");
    mkdirSync(cwd);
    const registry = new SessionRegistry({ path: join(root, "sessions.json") });
    const options = {
      bin: await installHarness("claude-code"),
      cwd,
      env: claudeEnv(home, server.url, process.env.PATH),
      alias: "review",
      registry,
    };
    const asked = await new HarnessEngine(claudeCode, { ...options, effort: "high" }).run("Say hello.");
    assert.ok(asked.ok, asked.stderr);
    assert.equal(asked.effort, "high");
    // The next engine on the name asks nothing: the transcript says what the turn ran at.
    const next = await new HarnessEngine(claudeCode, options).run("Say it again.");
    assert.ok(next.ok, next.stderr);
    assert.equal(next.sessionId, asked.sessionId);
    const projects = join(home, ".claude", "projects");
    const bucket = readdirSync(projects).find((b) =>
      existsSync(join(projects, b, `${asked.sessionId}.jsonl`))
    )!;
    const transcript = readFileSync(join(projects, bucket, `${asked.sessionId}.jsonl`), "utf8");
    const stamped = transcript.trim().split("\n").map((l) => JSON.parse(l)).filter((r) =>
      r.type === "assistant"
    )
      .map((r) => r.effort);
    assert.deepEqual(stamped.slice(0, 1), ["high"], "the asked turn is stamped high");
    assert.equal(typeof stamped.at(-1), "string");
    assert.equal(next.effort, stamped.at(-1));
    assert.equal(await effortOfName(registry, "claude"), stamped.at(-1));
  } finally {
    await server.close();
  }
});
