/**
 * Engines live, offline: the real Codex 0.169.0 and Claude Code 2.1.328 binaries (harness cache) against the
 * fake model servers on 127.0.0.1. One name is one conversation across harnesses: `run codex --alias reviewer`
 * then `run claude-code --alias reviewer` hands the Codex conversation to Claude Code first, so Claude's request
 * carries the Codex turn; and a conversation session-bridge handed over from Claude Code under a name is the
 * one LazyBridge's own CodexEngine(session_alias=...) adopts and runs a turn on, sending the Claude turn to the
 * model. Live runs are observed: in each of the seven harnesses, `run --events --otel` leaves a name
 * LazyBridge's registry reads and events its EventLog reads, and spans at a local OTLP receiver; two turns at
 * once on one engine under a new name are one conversation.
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
import { lazybridgeOps, lazybridgePython } from "./helpers/lazybridge.ts";
import { receiver, spansOf } from "./helpers/otlp-receiver.ts";
import { startFakeGemini } from "../lib/certify-kit/fake-servers/gemini.ts";
import { geminiEnv, prepareGeminiHome } from "../lib/harnesses/gemini-cli/certify/run.ts";
import { DatabaseSync } from "node:sqlite";
import { ClaudeCodeEngine } from "../lib/engines/mod.ts";
import { SessionRegistry } from "../lib/registry/registry.ts";
import { spawnSync } from "node:child_process";
import { spawnCollect } from "../lib/certify-kit/spawn.ts";
import { piEnv, piFolders, writeOfflineAgent } from "../lib/harnesses/pi/certify/run.ts";
import { copilotEnv, copilotFolders } from "../lib/harnesses/copilot-cli/certify/run.ts";
import { copilotScript } from "../lib/harnesses/copilot-cli/certify/sent.ts";
import { offlineOpenCode } from "../acceptance/opencode-offline.ts";

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

/**
 * `run NAME --alias observed_KIND --events DB --otel URL "TOOL: echo hi"` with the real binary: the name is one
 * LazyBridge's own registry reads back (resolve for the kinds it knows, entries for the others), the events
 * LazyBridge's own EventLog reads, and the collector gets the run as spans. What the turn did is the harness's.
 */
async function observedRun(
  run: {
    harness: string;
    kind: string;
    bin: string;
    env: Record<string, string>;
    cwd: string;
    registryFile: string;
    work: string;
  },
  python: string,
  expectTypes: string[],
): Promise<void> {
  // A name of its own per harness: one another harness holds here would be handed over first.
  const alias = `observed_${run.kind}`;
  const db = join(run.work, `${run.harness}-events.db`);
  const collector = await receiver();
  try {
    const r = await runCli(
      [
        "run",
        run.harness,
        "--alias",
        alias,
        "--bin",
        run.bin,
        "--events",
        db,
        "--otel",
        collector.url,
        "TOOL: echo hi",
      ],
      run.env,
      run.cwd,
    );
    assert.equal(r.code, 0, r.stderr);
    const nativeId = registry(run.registryFile)[run.kind]![run.cwd]![alias]!.native_id;
    const known = run.kind === "claude" || run.kind === "codex";
    const theirs = lazybridgeOps(python, run.registryFile, [
      ["entries", null, run.cwd],
      ...(known ? [["resolve", run.kind, run.cwd, alias]] : []),
    ]);
    assert.deepEqual(theirs.warnings, []);
    const entries = theirs.results[0] as { kind: string; name: string; native_id: string }[];
    assert.ok(entries.some((e) => e.kind === run.kind && e.name === alias && e.native_id === nativeId));
    if (known) assert.equal(theirs.results[1], nativeId, "LazyBridge resolves the name run bound");
    const sessionId = String(
      new DatabaseSync(db).prepare("SELECT DISTINCT session_id FROM events").get()!.session_id,
    );
    const read = spawnSync(python, ["-c", LAZYBRIDGE_READS_EVENTS, db, sessionId], { encoding: "utf8" });
    assert.equal(read.status, 0, read.stderr);
    const logged = JSON.parse(read.stdout) as { types: string[]; finish: { native_session_id?: string } };
    for (const type of expectTypes) assert.ok(logged.types.includes(type), `${type} in ${logged.types}`);
    assert.equal(logged.types[0], "agent_start");
    assert.equal(logged.types.at(-1), "agent_finish");
    assert.equal(logged.finish.native_session_id, nativeId);
    const spans = spansOf(collector.received).map((s) => s.name);
    assert.ok(spans.includes(`invoke_agent ${alias}`), spans.join(", "));
  } finally {
    await collector.stop();
  }
}

/** LazyBridge's EventLog over argv[1] (the db) for session argv[2]: the event types, and the finish payload. */
const LAZYBRIDGE_READS_EVENTS = [
  "import json, sys",
  "from lazybridge.session import EventLog",
  "events = EventLog(sys.argv[2], db=sys.argv[1]).query()",
  "finish = [e['payload'] for e in events if e['event_type'] == 'agent_finish'][-1]",
  "print(json.dumps({'types': [e['event_type'] for e in events], 'finish': finish}))",
].join("\n");

test(
  "live run in Claude Code and Codex with --events and --otel: LazyBridge resolves the name, its EventLog reads the turn's tool call and usage, the collector gets the spans",
  { skip: "skip" in lazybridge ? lazybridge.skip : false },
  async () => {
    const python = "python" in lazybridge ? lazybridge.python : "";
    const w = await world();
    try {
      const base = { env: w.env, cwd: w.cwd, registryFile: w.registryFile, work: w.work };
      const live = ["agent_start", "tool_call", "tool_result", "model_response", "agent_finish"];
      await observedRun(
        { ...base, harness: "claude-code", kind: "claude", bin: w.bins.claude },
        python,
        live,
      );
      await observedRun({ ...base, harness: "codex", kind: "codex", bin: w.bins.codex }, python, live);
    } finally {
      await w.close();
    }
  },
);

test("two live turns at once on one engine under one new name: the real Claude Code runs them one after another in one conversation", async () => {
  const w = await world();
  try {
    // Through the library: the CLI's in-process runner changes the working folder, so two at once would not do.
    const registryOf = new SessionRegistry({ path: w.registryFile });
    const engine = new ClaudeCodeEngine({
      bin: w.bins.claude,
      cwd: w.cwd,
      env: w.env,
      alias: "pair",
      registry: registryOf,
    });
    const [a, b] = await Promise.all([engine.run("Remember FIG"), engine.run("Remember LIME")]);
    assert.ok(a.ok && b.ok, `${a.stderr}\n${b.stderr}`);
    assert.equal(a.sessionId, b.sessionId, "one name, one conversation");
    assert.equal(registry(w.registryFile).claude![w.cwd]!.pair!.native_id, a.sessionId);
    // The second turn's request carries the first: it resumed the conversation the first created.
    const last = readRequestLog<AnthropicBody>(w.anthropicLog).filter((r) => r.messages).at(-1);
    const sent = JSON.stringify(last?.messages ?? []);
    assert.ok(sent.includes("Remember FIG") && sent.includes("Remember LIME"), sent.slice(0, 2000));
  } finally {
    await w.close();
  }
});

test(
  "live run in Hermes and Gemini CLI with --events and --otel: LazyBridge reads the names it keeps for others, its EventLog the turn",
  { skip: "skip" in lazybridge ? lazybridge.skip : false },
  async () => {
    const python = "python" in lazybridge ? lazybridge.python : "";
    const work = tempDir("sb-engines-");
    const home = join(work, "home");
    const tmp = join(work, "tmp");
    mkdirSync(tmp, { recursive: true });
    mkdirSync(join(work, "project"));
    const cwd = realpathSync(join(work, "project"));
    const registryFile = join(work, "lazybridge", "sessions.json");
    const shared = { LAZYBRIDGE_SESSIONS_FILE: registryFile, SESSION_BRIDGE_HOME: join(work, "bridge") };
    const chat = await startFakeChatCompletions({ logPath: join(work, "chat.jsonl") });
    const gemini = await startFakeGemini({ logPath: join(work, "gemini.jsonl") });
    try {
      const hermesBin = await installHarness("hermes");
      writeHermesHome(join(home, ".hermes"), offlineConfig(chat.url), "0.19.0");
      const hermesRun = {
        harness: "hermes",
        kind: "hermes",
        bin: hermesBin,
        env: { ...hermesEnv(hermesBin, home, join(home, ".hermes"), tmp), ...shared },
        cwd,
        registryFile,
        work,
      };
      // Quiet Hermes prints the answer alone: the turn is its start, its answer and its finish.
      await observedRun(hermesRun, python, ["agent_start", "model_response", "agent_finish"]);
      const geminiHome = join(work, "gemini-home");
      prepareGeminiHome(geminiHome);
      const geminiRun = {
        harness: "gemini-cli",
        kind: "gemini",
        bin: await installHarness("gemini-cli"),
        env: { ...geminiEnv(geminiHome, gemini.url, process.env.PATH), ...shared },
        cwd,
        registryFile,
        work,
      };
      // Gemini CLI offers no shell tool to a non-interactive turn in its default approval mode: the turn is an
      // answer with its usage (the tool events of its stream are checked on captured output).
      await observedRun(geminiRun, python, ["agent_start", "model_response", "agent_finish"]);
    } finally {
      await chat.close();
      await gemini.close();
    }
  },
);

test(
  "live run in Pi, OpenCode and Copilot CLI with --events and --otel: each binary's own machine-readable output gives the tool call, its result and the answers, which LazyBridge's EventLog reads; the names are ones its registry keeps",
  { skip: "skip" in lazybridge ? lazybridge.skip : false },
  async () => {
    const python = "python" in lazybridge ? lazybridge.python : "";
    const work = realpathSync(tempDir("sb-engines-"));
    mkdirSync(join(work, "project"));
    const cwd = join(work, "project");
    const registryFile = join(work, "lazybridge", "sessions.json");
    const shared = { LAZYBRIDGE_SESSIONS_FILE: registryFile, SESSION_BRIDGE_HOME: join(work, "bridge") };
    const base = { cwd, registryFile, work };
    const live = ["agent_start", "tool_call", "tool_result", "model_response", "agent_finish"];
    const chat = await startFakeChatCompletions({ logPath: join(work, "chat.jsonl") });
    const copilotChat = await startFakeChatCompletions({
      logPath: join(work, "copilot.jsonl"),
      script: copilotScript,
    });
    const oc = await offlineOpenCode(join(work, "opencode"));
    try {
      const folders = piFolders(join(work, "pi"));
      writeOfflineAgent(folders, chat.url);
      const piRun = { harness: "pi", kind: "pi", bin: await installHarness("pi") };
      await observedRun(
        { ...base, ...piRun, env: { ...piEnv(folders, process.env.PATH), ...shared } },
        python,
        live,
      );
      const ocEnv = Object.fromEntries(
        Object.entries(oc.env).filter((e): e is [string, string] => e[1] !== undefined),
      );
      const ocRun = { harness: "opencode", kind: "opencode", bin: await installHarness("opencode") };
      await observedRun({ ...base, ...ocRun, env: { ...ocEnv, ...shared } }, python, live);
      const copilotHome = copilotFolders(join(work, "copilot"));
      const copilotRun = {
        harness: "copilot-cli",
        kind: "copilot",
        bin: await installHarness("copilot-cli"),
      };
      await observedRun(
        {
          ...base,
          ...copilotRun,
          env: { ...copilotEnv(copilotHome, copilotChat.url, process.env), ...shared },
        },
        python,
        live,
      );
    } finally {
      await chat.close();
      await copilotChat.close();
      await oc.close();
    }
  },
);
