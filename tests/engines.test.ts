/**
 * The engines' alias rules, with stand-in binaries that print what Claude Code's stream-json prints (so each
 * rule is seen on its own, without a model): the name is bound as soon as an id is announced, an interrupted
 * turn included; a new id at the end of a resumed turn is followed; an explicit id wins and re-points the name;
 * a known name is resumed; a registry that cannot be written warns and the turn still runs.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import process from "node:process";
import { ClaudeCodeEngine, HarnessEngine, HermesEngine } from "../lib/engines/mod.ts";
import { codex } from "../lib/harnesses/codex/index.ts";
import { copilotCli } from "../lib/harnesses/copilot-cli/index.ts";
import { fileURLToPath } from "node:url";
import { SessionRegistry } from "../lib/registry/registry.ts";
import { tempDir } from "./helpers/tmp.ts";
import { runCliJson, startCli } from "./helpers/cli.ts";
import { lazybridgeOps, lazybridgeOpsAsync, lazybridgePython } from "./helpers/lazybridge.ts";

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

/** A stand-in `claude` that logs its argv and a copy of the registry as it finds it, and runs on `--session-id`. */
function namingStandIn(dir: string, registryFile: string): string {
  const bin = join(dir, "claude-naming");
  const script = [
    "#!/bin/sh",
    `printf '%s\\n' "$*" >> "${join(dir, "argv.log")}"`,
    `cat "${registryFile}" > "${join(dir, "registry-at-start.json")}" 2>/dev/null`,
    'id=""; prev=""; for a in "$@"; do [ "$prev" = "--session-id" ] && id="$a"; [ "$prev" = "--resume" ] && id="$a"; prev="$a"; done',
    `printf '{"type":"system","subtype":"init","session_id":"%s"}\\n' "$id"`,
    `printf '{"type":"result","result":"ok","session_id":"%s"}\\n' "$id"`,
  ].join("\n");
  writeFileSync(bin, script + "\n");
  chmodSync(bin, 0o755);
  return bin;
}

test("a new conversation's id is known before its first turn where the harness takes one (Claude Code --session-id): prepare() picks a fresh UUID, the name is bound to it before the binary runs, and the turns run on it", async () => {
  const { dir, registry } = setup();
  const bin = namingStandIn(dir, registry.path);
  const engine = new ClaudeCodeEngine({ bin, cwd: dir, env, alias: "fresh", registry });
  assert.equal(engine.sessionId, undefined);
  const id = await engine.prepare();
  assert.match(id ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(engine.sessionId, id);
  assert.equal(await registry.resolve("claude", dir, "fresh"), id, "bound before any turn");
  const first = await engine.run("hello");
  assert.equal(first.sessionId, id);
  const seen = JSON.parse(readFileSync(join(dir, "registry-at-start.json"), "utf8"));
  assert.equal(
    seen.sessions.claude[realpathSync(dir)].fresh.native_id,
    id,
    "the binary started with the name bound",
  );
  await engine.run("again");
  const argv = readFileSync(join(dir, "argv.log"), "utf8").trim().split("\n");
  assert.match(argv[0]!, new RegExp(`--session-id ${id}`));
  assert.doesNotMatch(argv[0]!, /--resume/);
  assert.match(argv[1]!, new RegExp(`--resume ${id}`));
  assert.doesNotMatch(argv[1]!, /--session-id/);
});

test("without a name, run() alone picks the id before the binary runs; a turn the harness does not keep, or a harness that names its own (Codex), gets none beforehand", async () => {
  const { dir, registry } = setup();
  const bin = namingStandIn(dir, registry.path);
  const unnamed = new ClaudeCodeEngine({ bin, cwd: dir, env, registry });
  const turn = await unnamed.run("hello");
  assert.match(readFileSync(join(dir, "argv.log"), "utf8"), new RegExp(`--session-id ${turn.sessionId}`));
  const ephemeral = new ClaudeCodeEngine({ bin, cwd: dir, env, registry, persistSession: false });
  assert.equal(await ephemeral.prepare(), undefined);
  assert.equal(
    await new HarnessEngine(codex, { bin, cwd: dir, env, registry, alias: "c" }).prepare(),
    undefined,
  );
  assert.equal(await registry.resolve("codex", dir, "c"), undefined);
});

test("the effort a harness ran with is learned from what it stores and recorded with the name: Codex's thread row says high though none was asked", async () => {
  const { dir, registry } = setup();
  const thread = "01a23c34-91d0-75e1-9d13-496004d4745a";
  const codexHome = join(dir, "codex-home");
  mkdirSync(codexHome);
  // Codex's own index, as 0.169.0 keeps it (the columns read here, of its threads table).
  const db = new DatabaseSync(join(codexHome, "state_5.sqlite"));
  db.exec("CREATE TABLE threads (id TEXT PRIMARY KEY, model TEXT, reasoning_effort TEXT)");
  db.prepare("INSERT INTO threads VALUES (?, 'gpt-5.5', 'high')").run(thread);
  db.close();
  const bin = standIn(dir, [JSON.stringify({ type: "thread.started", thread_id: thread })]);
  const engine = new HarnessEngine(codex, {
    bin,
    cwd: dir,
    env: { ...env, CODEX_HOME: codexHome },
    alias: "planner",
    registry,
  });
  const turn = await engine.run("plan it");
  assert.equal(turn.effort, "high");
  assert.equal(engine.effort, "high");
  const [entry] = await registry.entries({ kind: "codex" });
  assert.deepEqual({ id: entry!.native_id, effort: entry!.effort }, { id: thread, effort: "high" });
  // The CLI says the same: run --json reports the effort learned.
  const cli = await runCliJson(
    ["run", "codex", "--alias", "planner", "--bin", bin, "plan again"],
    {
      ...env,
      CODEX_HOME: codexHome,
      LAZYBRIDGE_SESSIONS_FILE: registry.path,
      SESSION_BRIDGE_HOME: join(dir, "b"),
    },
    dir,
  );
  assert.equal(cli.code, 0, cli.stderr);
  assert.equal(cli.json.effort, "high");
  // A thread Codex keeps no effort for (the model's default) leaves the name's as it was.
  const other = new HarnessEngine(codex, {
    bin,
    cwd: dir,
    env: { ...env, CODEX_HOME: join(dir, "none") },
    registry,
  });
  assert.equal((await other.run("again")).effort, undefined);
});

test("Copilot CLI's effort is learned from its session's last model change, the main agent's only: high from a session run at high, none where only a subagent changed it", async () => {
  const { dir, registry } = setup();
  const home = join(dir, "copilot-home");
  const id = "9b5e29e6-b39b-4797-8989-2c2d927faa72";
  const captured = [
    [
      id,
      fileURLToPath(
        new URL("./fixtures/engine-output/copilot-cli-1.0.102-effort-high.events.jsonl", import.meta.url),
      ),
    ],
    [
      "ad27e5d8-1b3e-4a70-b651-362e6ffa67b9",
      fileURLToPath(
        new URL(
          "../fixtures/copilot-cli/1.0.102/exec-subagent/session-state/ad27e5d8-1b3e-4a70-b651-362e6ffa67b9/events.jsonl",
          import.meta.url,
        ),
      ),
    ],
  ];
  const learned: (string | undefined)[] = [];
  for (const [session, file] of captured) {
    mkdirSync(join(home, "session-state", session!), { recursive: true });
    copyFileSync(file!, join(home, "session-state", session!, "events.jsonl"));
    const bin = standIn(dir, [JSON.stringify({ type: "result", sessionId: session, exitCode: 0 })]);
    const engine = new HarnessEngine(copilotCli, {
      bin,
      cwd: dir,
      env: { ...env, COPILOT_HOME: home },
      registry,
    });
    learned.push((await engine.run("hello")).effort);
  }
  assert.deepEqual(learned, ["high", undefined]);
});

test("Claude Code's effort is learned from its transcript's last assistant record: medium, as 2.1.328 stamped it, though none was asked", async () => {
  const { dir, registry } = setup();
  const config = join(dir, "claude-config");
  const id = "5b0c4f6e-3c1a-4d2e-9f10-2a6b8c9d0e1f";
  mkdirSync(join(config, "projects", "-project"), { recursive: true });
  copyFileSync(
    fileURLToPath(new URL("../fixtures/claude-code/2.1.328/compacted.jsonl", import.meta.url)),
    join(config, "projects", "-project", `${id}.jsonl`),
  );
  const bin = standIn(dir, [init(id), result(id, "ok")]);
  const engine = new ClaudeCodeEngine({
    bin,
    cwd: dir,
    env: { ...env, CLAUDE_CONFIG_DIR: config },
    alias: "r",
    registry,
  });
  assert.equal((await engine.run("hello")).effort, "medium");
  assert.equal((await registry.entries({ kind: "claude" }))[0]!.effort, "medium");
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

/**
 * A stand-in `claude` that names a conversation of its own (its PID) unless it resumes one, and logs its argv:
 * two turns that overlap start two conversations; turns queued one after another continue the first.
 */
function conversingStandIn(dir: string): string {
  const bin = join(dir, "claude-conversing");
  writeFileSync(
    bin,
    `#!/bin/sh
printf '%s\\n' "$*" >> "${join(dir, "argv.log")}"
id="pid-$$"
while [ $# -gt 0 ]; do [ "$1" = "--resume" ] && id="$2"; shift; done
printf '{"type":"system","subtype":"init","session_id":"%s"}\\n' "$id"
printf '{"type":"result","result":"ok","session_id":"%s"}\\n' "$id"
`,
  );
  chmodSync(bin, 0o755);
  return bin;
}

function loggedTurns(dir: string): string[] {
  return readFileSync(join(dir, "argv.log"), "utf8").trim().split("\n");
}

test("two turns started at once on one engine under a new name run one after another: the second continues the conversation the first created", async () => {
  const { dir, registry } = setup();
  const engine = new ClaudeCodeEngine({
    bin: conversingStandIn(dir),
    cwd: dir,
    env,
    alias: "planner",
    registry,
  });
  const [first, second] = await Promise.all([engine.run("one"), engine.run("two")]);
  const created = first.sessionId!;
  assert.match(created, /^pid-\d+$/);
  assert.equal(second.sessionId, created, "one name, one conversation");
  const turns = loggedTurns(dir);
  assert.equal(turns.filter((argv) => !argv.includes("--resume")).length, 1, turns.join("\n"));
  assert.match(turns[1]!, new RegExp(`--resume ${created}`));
  assert.equal(await registry.resolve("claude", dir, "planner"), created);
});

test("two engines under one new name in one process queue behind the first turn, which creates the conversation", async () => {
  const { dir, registry } = setup();
  const bin = conversingStandIn(dir);
  const engines = [1, 2, 3].map(() =>
    new ClaudeCodeEngine({ bin, cwd: dir, env, alias: "planner", registry })
  );
  const turns = await Promise.all(engines.map((e, i) => e.run(`turn ${i}`)));
  const created = turns[0]!.sessionId!;
  assert.deepEqual(turns.map((t) => t.sessionId), [created, created, created]);
  assert.equal(loggedTurns(dir).filter((argv) => !argv.includes("--resume")).length, 1);
  assert.equal(await registry.resolve("claude", dir, "planner"), created);
});

const lazybridge = lazybridgePython();

test(
  "run in two processes at once while LazyBridge's own registry binds in a third: every name lands in the one file, which LazyBridge reads",
  { skip: "skip" in lazybridge ? lazybridge.skip : false },
  async () => {
    const python = "python" in lazybridge ? lazybridge.python : "";
    const { dir } = setup();
    const cwd = realpathSync(dir);
    const file = join(dir, "sessions.json");
    const bin = conversingStandIn(dir);
    const cliEnv = { LAZYBRIDGE_SESSIONS_FILE: file, SESSION_BRIDGE_HOME: join(dir, "bridge") };
    const runs = ["w1", "w2"].map((alias) =>
      startCli(["run", "claude-code", "--alias", alias, "--bin", bin, "hello"], cliEnv, cwd).result
    );
    const theirs = lazybridgeOpsAsync(python, file, [["bind-many", "codex", cwd, "lb", 40, "lb-id"]]);
    const [w1, w2] = await Promise.all(runs);
    await theirs;
    assert.equal(w1!.code, 0, w1!.stderr);
    assert.equal(w2!.code, 0, w2!.stderr);
    const read = lazybridgeOps(python, file, [["entries", "claude", cwd], ["entries", "codex", cwd]]);
    assert.deepEqual(read.warnings, [], "LazyBridge found nothing to quarantine");
    const [claude, codex] = read.results as { name: string; native_id: string }[][];
    assert.deepEqual(claude!.map((e) => e.name).sort(), ["w1", "w2"]);
    assert.match(
      w1!.stderr,
      new RegExp(`@w1 -> claude-code:${claude!.find((e) => e.name === "w1")!.native_id}`),
    );
    assert.equal(codex!.length, 40);
    assert.ok(!existsSync(`${file}.lock`), "no lock left behind");
  },
);

test("an engine given an effort asks Claude Code for it and records it with the name, as LazyBridge's bind does", async () => {
  const { dir, registry } = setup();
  const bin = conversingStandIn(dir);
  await new ClaudeCodeEngine({ bin, cwd: dir, env, alias: "deep", registry, model: "opus", effort: "high" })
    .run("x");
  assert.match(loggedTurns(dir)[0]!, /--model opus --effort high/);
  const entry =
    JSON.parse(readFileSync(join(dir, "sessions.json"), "utf8")).sessions.claude[realpathSync(dir)].deep;
  assert.deepEqual([entry.model, entry.effort], ["opus", "high"]);
});

test("persistSession: false runs each turn as a conversation Claude Code does not keep: never resumed, never named", async () => {
  const { dir, registry } = setup();
  const engine = new ClaudeCodeEngine({
    bin: conversingStandIn(dir),
    cwd: dir,
    env,
    registry,
    persistSession: false,
  });
  const first = await engine.run("one");
  await engine.run("two");
  const turns = loggedTurns(dir);
  assert.ok(
    turns.every((argv) => argv.includes("--no-session-persistence") && !argv.includes("--resume")),
    turns.join("\n"),
  );
  assert.match(first.sessionId!, /^pid-/, "the turn still says which id it ran under");
  assert.equal(engine.sessionId, undefined);
  assert.throws(
    () =>
      new ClaudeCodeEngine({ bin: "/bin/false", cwd: dir, env, registry, alias: "x", persistSession: false }),
    /persistSession: false\) has no name or id/,
  );
});

test("an effort, or a conversation not kept, asked of a harness that offers neither is refused before its binary runs", async () => {
  const { dir, registry } = setup();
  const bin = conversingStandIn(dir);
  await assert.rejects(
    new HermesEngine({ bin, cwd: dir, env, registry, effort: "high" }).run("x"),
    /hermes takes no reasoning effort/,
  );
  await assert.rejects(
    new HarnessEngine(copilotCli, { bin, cwd: dir, env, registry, persistSession: false }).run("x"),
    /copilot-cli keeps every conversation/,
  );
  assert.ok(!existsSync(join(dir, "argv.log")), "nothing ran");
});

test("a prompt longer than one argument can hold, for a binary that takes it as one, is refused before the binary runs", async () => {
  const { dir, registry } = setup();
  const bin = conversingStandIn(dir);
  // Linux's MAX_ARG_STRLEN is 131,072 bytes with the closing NUL; spawned, this would fail with E2BIG.
  await assert.rejects(
    new ClaudeCodeEngine({ bin, cwd: dir, env, registry }).run("é".repeat(65_536)),
    /claude-code takes its prompt as one argument, of at most 131,071 bytes: this one is 131,072/,
  );
  assert.ok(!existsSync(join(dir, "argv.log")), "nothing ran");
  await new ClaudeCodeEngine({ bin, cwd: dir, env, registry }).run("x".repeat(131_071));
  assert.equal(loggedTurns(dir).length, 1, "the longest that fits runs");
});

/**
 * A stand-in `hermes`: `chat` answers as quiet Hermes does (the answer, then its session id); `sessions delete`
 * prints `deleteSays` (Hermes 0.19.0 prints "Deleted session '<id>'." or "Session '<id>' not found.", exit 0).
 */
function forgettingStandIn(dir: string, deleteSays: string): string {
  const bin = join(dir, "hermes-forgetting");
  writeFileSync(
    bin,
    `#!/bin/sh
printf '%s\n' "$*" >> "${join(dir, "argv.log")}"
if [ "$1" = "sessions" ]; then printf '%s\n' "${deleteSays}"; exit 0; fi
printf 'the answer\nsession_id: 20261204_150812_535e70\n'
`,
  );
  chmodSync(bin, 0o755);
  return bin;
}

test("persistSession: false on a harness with no flag for it runs the turn, then deletes its conversation with the harness's own command", async () => {
  const { dir, registry } = setup();
  const bin = forgettingStandIn(dir, "Deleted session '20261204_150812_535e70'.");
  const engine = new HermesEngine({ bin, cwd: dir, env, registry, persistSession: false });
  const turn = await engine.run("summarize");
  assert.equal(turn.ok, true);
  assert.equal(turn.reply, "the answer");
  assert.deepEqual(turn.warnings, []);
  const argv = loggedTurns(dir);
  assert.equal(argv.length, 2, argv.join("\n"));
  assert.doesNotMatch(argv[0]!, /--resume/);
  assert.equal(argv[1], "sessions delete --yes 20261204_150812_535e70");
  assert.equal(engine.sessionId, undefined, "the next turn starts afresh");
  assert.ok(!existsSync(registry.path), "nothing is named");
});

test("a conversation the harness could not delete after a turn not to be kept is a warning naming it, and the turn stands", async () => {
  const { dir, registry } = setup();
  const bin = forgettingStandIn(dir, "Session '20261204_150812_535e70' not found.");
  const turn = await new HermesEngine({ bin, cwd: dir, env, registry, persistSession: false }).run("x");
  assert.equal(turn.ok, true);
  assert.equal(turn.reply, "the answer");
  assert.deepEqual(turn.warnings, [
    "hermes kept conversation 20261204_150812_535e70, which could not be deleted " +
    "(Session '20261204_150812_535e70' not found.)",
  ]);
});
