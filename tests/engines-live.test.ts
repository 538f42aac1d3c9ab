/**
 * Engines live, offline: the real Codex 0.169.0 and Claude Code 2.1.328 binaries (harness cache) against the
 * fake model servers on 127.0.0.1. One name is one conversation across harnesses: `run codex --alias reviewer`
 * then `run claude-code --alias reviewer` hands the Codex conversation to Claude Code first, so Claude's request
 * carries the Codex turn; and a conversation session-bridge handed over from Claude Code under a name is the
 * one LazyBridge's own CodexEngine(session_alias=...) adopts and runs a turn on, sending the Claude turn to the
 * model.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import process from "node:process";
import { installHarness } from "../acceptance/install-harness.ts";
import { startFakeAnthropic } from "../lib/certify-kit/fake-servers/anthropic.ts";
import { startFakeResponses } from "../lib/certify-kit/fake-servers/responses.ts";
import { claudeEnv, prepareClaudeHome } from "../lib/harnesses/claude-code/certify/run.ts";
import { codexEnv, prepareCodexHome } from "../lib/harnesses/codex/certify/run.ts";
import { readRequestLog } from "../lib/certify-kit/request-log.ts";
import { runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { startFakeChatCompletions } from "../lib/certify-kit/fake-servers/chat-completions.ts";
import { hermesEnv, offlineConfig, writeHermesHome } from "../lib/harnesses/hermes/certify/run.ts";
import { lazybridgePython } from "./helpers/lazybridge.ts";
import { spawnSync } from "node:child_process";
import { spawnCollect } from "../lib/certify-kit/spawn.ts";

type Logged = { body?: { input?: { role?: string; content?: unknown }[] } };

/** What the LazyBridge driver below prints: the id the engine adopted, the thread its turn ran on, the reply. */
type LazyBridgeTurn = { adopted: string | null; thread: string | null; reply: string; error: unknown };

/** One turn through LazyBridge's CodexEngine(session_alias="planner") in argv[1], prompt argv[2]; JSON out. */
const LAZYBRIDGE_CODEX_TURN = [
  "import asyncio, json, sys",
  "from lazybridge.engines.codex import CodexEngine",
  "from lazybridge.envelope import Envelope",
  "engine = CodexEngine(session_alias='planner', cwd=sys.argv[1], max_retries=0)",
  "adopted = engine.thread_id",
  "out = asyncio.run(engine.run(Envelope.from_task(sys.argv[2]), tools=[], output_type=str, memory=None, session=None))",
  "error = out.error.model_dump() if out.error else None",
  "print(json.dumps({'adopted': adopted, 'thread': engine.thread_id, 'reply': str(out.payload or ''), 'error': error}))",
].join("\n");

type AnthropicBody = { messages?: { role: string; content: unknown }[] };

async function world() {
  const work = tempDir("sb-engines-");
  const home = join(work, "home");
  const project = join(work, "project");
  mkdirSync(project, { recursive: true });
  const cwd = realpathSync(project);
  const anthropicLog = join(work, "anthropic.jsonl");
  const responsesLog = join(work, "responses.jsonl");
  const anthropic = await startFakeAnthropic({ logPath: anthropicLog });
  const responses = await startFakeResponses({ logPath: responsesLog });
  prepareCodexHome(home, responses.url);
  prepareClaudeHome(home);
  const bins = { codex: await installHarness("codex"), claude: await installHarness("claude-code") };
  const registryFile = join(work, "lazybridge", "sessions.json");
  const env: Record<string, string> = {
    ...codexEnv(home, process.env.PATH),
    ...claudeEnv(home, anthropic.url, process.env.PATH),
    // Both binaries on PATH, as a user has them (LazyBridge finds codex there).
    PATH: `${dirname(bins.codex)}:${dirname(bins.claude)}:${process.env.PATH ?? "/usr/bin:/bin"}`,
    LAZYBRIDGE_SESSIONS_FILE: registryFile,
    SESSION_BRIDGE_HOME: join(work, "bridge"),
  };
  const close = async () => {
    await anthropic.close();
    await responses.close();
  };
  return { work, cwd, env, bins, registryFile, anthropicLog, responsesLog, close };
}

function registry(file: string): Record<string, Record<string, Record<string, { native_id: string }>>> {
  return JSON.parse(readFileSync(file, "utf8")).sessions;
}

test("run codex --alias reviewer, then run claude-code --alias reviewer: Claude's request carries the Codex turn", async () => {
  const w = await world();
  try {
    const first = await runCli(
      ["run", "codex", "--alias", "reviewer", "--bin", w.bins.codex, "Remember PINEAPPLE"],
      w.env,
      w.cwd,
    );
    assert.equal(first.code, 0, first.stderr);
    const codexId = registry(w.registryFile).codex![w.cwd]!.reviewer!.native_id;
    assert.match(first.stderr, new RegExp(`@reviewer -> codex:${codexId}`));
    const codexReply = first.stdout.trim();
    assert.ok(codexReply.length > 0);

    const second = await runCli(
      ["run", "claude-code", "--alias", "reviewer", "--bin", w.bins.claude, "What was the word?"],
      w.env,
      w.cwd,
    );
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, new RegExp(`handed @reviewer over: codex:${codexId} -> claude-code:`));
    const names = registry(w.registryFile);
    assert.equal(names.codex![w.cwd]!.reviewer!.native_id, codexId, "the Codex binding is kept");
    const claudeId = names.claude![w.cwd]!.reviewer!.native_id;
    assert.match(second.stderr, new RegExp(`@reviewer -> claude-code:${claudeId}`));
    // The fake Anthropic server logs each request body as it is.
    const request = readRequestLog<AnthropicBody>(w.anthropicLog).filter((r) => r.messages).at(-1);
    const sent = (request?.messages ?? []).map((m) => ({
      role: m.role,
      text: JSON.stringify(m.content),
    }));
    assert.ok(
      sent.some((m) => m.role === "user" && m.text.includes("Remember PINEAPPLE")),
      JSON.stringify(sent),
    );
    const replyWords = codexReply.slice(0, 40);
    assert.ok(
      sent.some((m) => m.role === "assistant" && m.text.includes(replyWords)),
      `${replyWords} in ${JSON.stringify(sent)}`,
    );
    assert.ok(sent.at(-1)!.text.includes("What was the word?"));
  } finally {
    await w.close();
  }
});

const lazybridge = lazybridgePython();

test(
  "a conversation handed over from Claude Code under a name is the one LazyBridge's CodexEngine(session_alias=...) adopts, and its turn sends the Claude words of both roles to the model",
  {
    skip: "skip" in lazybridge ? lazybridge.skip : false,
  },
  async () => {
    const python = "python" in lazybridge ? lazybridge.python : "";
    const w = await world();
    try {
      const seeded = await runCli(
        ["run", "claude-code", "--alias", "planner", "--bin", w.bins.claude, "Remember MANGO"],
        w.env,
        w.cwd,
      );
      assert.equal(seeded.code, 0, seeded.stderr);
      // Codex makes its state database on first use; a handoff into a home without one is refused.
      spawnSync(w.bins.codex, ["archive", "00000000-0000-7000-8000-000000000000"], {
        env: w.env,
        cwd: w.cwd,
      });
      const handed = await runCli(["handoff", "@planner", "--to", "codex", "--cwd", w.cwd], w.env, w.cwd);
      assert.equal(handed.code, 0, handed.stderr);
      const names = registry(w.registryFile);
      const codexId = names.codex![w.cwd]!.planner!.native_id;
      assert.ok(names.claude![w.cwd]!.planner, "the Claude binding is kept");
      // LazyBridge's own engine, in its own process: it adopts the handed-over id from the shared registry and
      // runs one turn on it through `codex app-server` (which reads the same offline config.toml). Spawned
      // asynchronously: a synchronous spawn would block this process's event loop, and with it the fake model
      // server, so app-server's request would never be answered.
      const turn = await spawnCollect(python, ["-c", LAZYBRIDGE_CODEX_TURN, w.cwd, "What was the word?"], {
        env: w.env,
        cwd: w.cwd,
        timeoutMs: 120_000,
      });
      assert.equal(turn.code, 0, turn.stderr);
      const ran = JSON.parse(turn.stdout.trim().split("\n").at(-1)!) as LazyBridgeTurn;
      assert.equal(ran.error, null, JSON.stringify(ran));
      assert.equal(ran.adopted, codexId, "CodexEngine(session_alias=...) adopts the handed-over id");
      assert.equal(ran.thread, codexId, "the turn ran on the handed-over thread");
      assert.ok(ran.reply.length > 0);
      assert.equal(registry(w.registryFile).codex![w.cwd]!.planner!.native_id, codexId);
      // The fake Responses server logs each request body as it is: the last one is LazyBridge's turn.
      const input = readRequestLog<Logged>(w.responsesLog).filter((r) => r.body?.input).at(-1)?.body?.input ??
        [];
      const sent = input.map((item) => ({ role: item.role, text: JSON.stringify(item.content ?? "") }));
      assert.ok(
        sent.some((m) => m.role === "user" && m.text.includes("Remember MANGO")),
        JSON.stringify(sent).slice(-3000),
      );
      const claudeWords = seeded.stdout.trim().slice(0, 40);
      assert.ok(claudeWords.length > 0);
      assert.ok(
        sent.some((m) => m.role === "assistant" && m.text.includes(claudeWords)),
        `${claudeWords} in ${JSON.stringify(sent).slice(-3000)}`,
      );
      assert.ok(sent.at(-1)!.role === "user" && sent.at(-1)!.text.includes("What was the word?"));
    } finally {
      await w.close();
    }
  },
);

test("run hermes --alias notes twice: the second turn resumes the first conversation (real Hermes 0.19.0)", async () => {
  const work = tempDir("sb-engines-");
  const home = join(work, "home");
  const hermesHome = join(home, ".hermes");
  const tmp = join(work, "tmp");
  mkdirSync(tmp, { recursive: true });
  const project = join(work, "project");
  mkdirSync(project);
  const cwd = realpathSync(project);
  const logPath = join(work, "chat.jsonl");
  const server = await startFakeChatCompletions({ logPath });
  try {
    const bin = await installHarness("hermes");
    writeHermesHome(hermesHome, offlineConfig(server.url), "0.19.0");
    const registryFile = join(work, "sessions.json");
    const env = {
      ...hermesEnv(bin, home, hermesHome, tmp),
      LAZYBRIDGE_SESSIONS_FILE: registryFile,
      SESSION_BRIDGE_HOME: join(work, "bridge"),
    };
    const first = await runCli(
      ["run", "hermes", "--alias", "notes", "--bin", bin, "Remember KIWI"],
      env,
      cwd,
    );
    assert.equal(first.code, 0, first.stderr);
    const id = registry(registryFile).hermes![cwd]!.notes!.native_id;
    const second = await runCli(
      ["run", "hermes", "--alias", "notes", "--bin", bin, "What was the word?"],
      env,
      cwd,
    );
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, new RegExp(`@notes -> hermes:${id}`));
    const last = readRequestLog<{ body?: { messages?: { role: string; content: unknown }[] } }>(logPath)
      .filter((r) => r.body?.messages).at(-1);
    const text = JSON.stringify(last?.body?.messages ?? []);
    assert.ok(text.includes("Remember KIWI") && text.includes("What was the word?"), text.slice(0, 2000));
  } finally {
    await server.close();
  }
});
