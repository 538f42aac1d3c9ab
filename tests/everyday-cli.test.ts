/**
 * The CLI as a new user meets it: global options before the command, `help <command>`, suggestions for a
 * mistyped command or flag, extra arguments refused, `-o -` and `-o DIR`, the demo's ending and its --json,
 * "no sessions found" naming where it looked, and debug traces that point at source lines.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { cli, emptyHomes, runCli, runCliJson } from "./helpers/cli.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";
import { COMMANDS } from "../lib/cli/commands/index.ts";

const root = tempDir();
const claudeHome = join(root, "claude");
const seeded = seedClaudeHome(claudeHome, "plain-text");
const empty = join(root, "empty");
const homes = [
  "--claude-home",
  claudeHome,
  "--codex-home",
  join(empty, "codex"),
  "--hermes-home",
  join(empty, "h"),
];

test("global options are accepted before the command: session-bridge --json list", async () => {
  const r = await runCliJson(["--json", "list", ...homes]);
  assert.equal(r.code, 0);
  assert.deepEqual((r.json.sessions as { id: string }[]).map((s) => s.id), [seeded.id]);
});

test("a home given before the command is the one the command uses: --claude-home X inspect", async () => {
  const r = await runCliJson(["--claude-home", claudeHome, "--json", "inspect", seeded.id.slice(0, 8)]);
  assert.equal(r.code, 0, JSON.stringify(r.json));
  assert.equal((r.json.session as { id: string }).id, seeded.id);
  const joined = await runCliJson([`--claude-home=${claudeHome}`, "inspect", seeded.id, "--json"]);
  assert.equal(joined.code, 0, JSON.stringify(joined.json));
});

test("an unknown option before the command is exit 2 and suggests the nearest global one", async () => {
  const r = await runCli(["--jsn", "list"]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, 'session-bridge: unknown option "--jsn" before the command: did you mean --json?\n');
});

test("help <command> prints that command's help, exit 0", async () => {
  for (const { name } of COMMANDS) {
    const viaHelp = await runCli(["help", name]);
    assert.equal(viaHelp.code, 0, name);
    assert.equal(viaHelp.stdout, (await runCli([name, "--help"])).stdout, name);
    assert.match(viaHelp.stdout, new RegExp(`^Usage: session-bridge ${name}\\b`));
  }
  const bare = await runCli(["help"]);
  assert.equal(bare.code, 0);
  assert.match(bare.stdout, /Usage: session-bridge \[global options\] <command>/);
});

test("an unknown command suggests the nearest one", async () => {
  for (
    const [typed, meant] of [["lst", "list"], ["handof", "handoff"], ["inspcet", "inspect"], ["hlep", "help"]]
  ) {
    const r = await runCli([typed!]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `session-bridge: unknown command "${typed}": did you mean ${meant}?\n`);
  }
  const far = await runCli(["xyzzy"]);
  assert.equal(far.stderr, 'session-bridge: unknown command "xyzzy" (see session-bridge --help)\n');
  const help = await runCli(["help", "lsit"]);
  assert.equal(help.code, 2);
  assert.match(help.stderr, /unknown command "lsit": did you mean list\?/);
});

test("an unknown flag suggests the nearest one the command takes", async () => {
  const r = cli(["handoff", seeded.id, "--to", "codex", "--dryrun", ...homes]);
  assert.equal(r.code, 2);
  assert.equal(r.stderr, "session-bridge: Unknown option '--dryrun': did you mean --dry-run?\n");
  const far = await runCli(["list", "--qqqqqqqq"]);
  assert.equal(far.stderr, "session-bridge: Unknown option '--qqqqqqqq'\n");
});

test("an extra argument is an error (exit 2), never ignored, for every command", async () => {
  const extra = {
    list: [],
    inspect: [seeded.id],
    show: [seeded.id],
    undo: ["abcdef"],
    recover: [],
    prune: [],
  };
  for (const [name, args] of Object.entries(extra)) {
    const before = snapshot(claudeHome);
    const r = await runCli([name, ...args, "surplus", ...homes]);
    assert.equal(r.code, 2, `${name}: ${r.stderr}`);
    assert.match(
      r.stderr,
      new RegExp(`^session-bridge: unexpected argument "surplus": ${name} takes `),
      name,
    );
    assert.deepEqual(snapshot(claudeHome), before);
  }
});

test("a harness name where a flag was meant is refused with the flag it needs: handoff X codex", async () => {
  const r = await runCli(["handoff", seeded.id, "codex", ...homes]);
  assert.equal(r.code, 2);
  assert.equal(
    r.stderr,
    'session-bridge: unexpected argument "codex": handoff takes <session>; did you mean --to codex? ' +
      "(see session-bridge help handoff)\n",
  );
  const listed = await runCli(["list", "codex", ...homes]);
  assert.match(listed.stderr, /list takes no arguments; did you mean --from codex\?/);
});

test("convert -o - writes the session to stdout, and no file named -", () => {
  const here = tempDir();
  const r = cli(["convert", seeded.id, "--to", "codex", "-o", "-", ...homes], {}, here);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout.split("\n")[0]!, /"type":"session_meta"/);
  assert.deepEqual(readdirSync(here), []);
});

test("export -o - writes the session to stdout and says so on stderr", () => {
  const here = tempDir();
  const r = cli(["export", seeded.id, "-o", "-", ...homes], {}, here);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, readFileSync(seeded.path, "utf8"));
  assert.equal(r.stderr, `exported claude-code:${seeded.id} to stdout\n`);
  assert.deepEqual(readdirSync(here), []);
});

test("-o - with --json is bad usage: stdout carries the JSON document", async () => {
  for (const command of [["convert", seeded.id, "--to", "codex"], ["export", seeded.id]]) {
    const r = await runCli([...command, "-o", "-", "--json", ...homes]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--json needs -o FILE: stdout carries the JSON document/);
  }
});

test("-o DIR is an error naming the directory, for convert and export", async () => {
  const dir = join(root, "exports");
  mkdirSync(dir, { recursive: true });
  for (const command of [["convert", seeded.id, "--to", "codex"], ["export", seeded.id]]) {
    const r = await runCli([...command, "-o", dir, ...homes]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `session-bridge: -o: ${dir} is a directory: name a file to write in it\n`);
    assert.deepEqual(readdirSync(dir), []);
  }
});

test("no sessions found says where it looked", async () => {
  const r = await runCli([
    "list",
    ...emptyHomes(empty),
  ]);
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout,
    `no sessions found (looked in claude-code: ${join(empty, "empty-claude-code", "projects")}; codex: ${
      join(empty, "empty-codex")
    }; ` +
      `hermes: ${join(empty, "empty-hermes", "state.db")}; gemini-cli: ${
        join(empty, "empty-gemini-cli", ".gemini")
      }; opencode: ${join(empty, "empty-opencode", "opencode.db")}; copilot-cli: ${
        join(empty, "empty-copilot-cli", "session-state")
      }; pi: ${join(empty, "empty-pi", "sessions")})\n`,
  );
  const codexOnly = await runCli(["list", "--from", "codex", "--codex-home", join(empty, "codex")]);
  assert.equal(codexOnly.stdout, `no sessions found (looked in codex: ${join(empty, "codex")})\n`);
});

test("demo --json prints exactly one JSON document: every step's command, exit code and own document", () => {
  const r = cli(["demo", "--json"]);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as {
    ok: boolean;
    sandbox: string | null;
    steps: { command: string[]; exitCode: number; output: { ok: boolean } }[];
  };
  assert.equal(doc.ok, true);
  assert.equal(doc.sandbox, null, "the sandbox is gone, so no path is given");
  assert.ok(doc.steps.length >= 5);
  for (const step of doc.steps) {
    assert.equal(step.command[0], "session-bridge");
    assert.equal(step.exitCode, 0);
    assert.equal(step.output.ok, true);
  }
});

test("demo does not end on a sandbox it has deleted: its last lines say it is removed and what to run next", async () => {
  const r = await runCli(["demo"]);
  assert.equal(r.code, 0, r.stderr);
  const last = r.stdout.trimEnd().split("\n").slice(-2);
  assert.match(last[0]!, /^The sandbox is now removed/);
  assert.match(last[1]!, /session-bridge list, then session-bridge handoff latest --to <harness> --dry-run/);
  const sandbox = /CLAUDE_CONFIG_DIR=(\S+)\/claude/.exec(r.stdout)![1]!;
  assert.equal(existsSync(sandbox), false);
});

test("demo --keep ends on the kept sandbox's path, which exists", async () => {
  const r = await runCli(["demo", "--keep"]);
  assert.equal(r.code, 0, r.stderr);
  const kept = /The sandbox is kept at (\S+):/.exec(r.stdout)?.[1];
  assert.ok(kept && existsSync(join(kept, "claude")), r.stdout.slice(-300));
  // Its undo commands work when run as the last lines say.
  const bridge = new RegExp(`run the undo commands with SESSION_BRIDGE_HOME=(${kept}\\S*)\\.$`, "m").exec(
    r.stdout,
  )?.[1];
  const op = /undo with:\n {2}session-bridge undo (\S+)/.exec(r.stdout)?.[1];
  assert.ok(bridge && op, r.stdout.slice(-400));
  const undone = cli(["undo", op, "--dry-run"], { SESSION_BRIDGE_HOME: bridge });
  assert.equal(undone.code, 0, undone.stderr);
  rmSync(kept, { recursive: true, force: true });
});

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const TRACE_LINE = /\n\s+at .*\(?lib\/harnesses\/resolve\.ts:\d+:\d+\)?/;

test("SESSION_BRIDGE_DEBUG=1 traces carry source positions (from source)", () => {
  const r = cli(["inspect", join(root, "missing.jsonl")], { SESSION_BRIDGE_DEBUG: "1" });
  assert.equal(r.code, 2);
  assert.match(r.stderr, TRACE_LINE);
});

test("SESSION_BRIDGE_DEBUG=1 traces of the compiled binary carry source positions, not minified ones", () => {
  // The build command of `npm run build`, into a temp folder: what a user installs.
  const script = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.build as string;
  const out = join(tempDir("sb-binary-"), "session-bridge");
  const words = script.split(" ").slice(1);
  words[words.indexOf("--outfile") + 1] = out;
  const built = spawnSync(join(ROOT, "node_modules/.bin/bun"), words, { cwd: ROOT, encoding: "utf8" });
  assert.equal(built.status, 0, built.stderr);
  const r = spawnSync(out, ["inspect", join(root, "missing.jsonl")], {
    encoding: "utf8",
    cwd: tempDir(),
    env: { ...process.env, SESSION_BRIDGE_DEBUG: "1" },
  });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, TRACE_LINE);
  assert.doesNotMatch(r.stderr, /\$bunfs\/root\/[^ ]+\.js:\d/);
  // Without the variable: one line, no trace.
  const plain = spawnSync(out, ["inspect", join(root, "missing.jsonl")], {
    encoding: "utf8",
    cwd: tempDir(),
  });
  assert.equal(plain.stderr, `session-bridge: ${join(root, "missing.jsonl")}: no such file\n`);
});

test("a command's help explains <session> only when the command takes one", async () => {
  for (const { name } of COMMANDS) {
    const help = (await runCli(["help", name])).stdout;
    assert.equal(help.includes("<session> is one of:"), /^Usage: \S+ \S+ <session>/.test(help), name);
  }
  assert.match((await runCli(["help", "handoff"])).stdout, /<session> is one of:\n {2}PATH/);
  assert.doesNotMatch((await runCli(["help", "undo"])).stdout, /<session>/);
});

test("the main help lists --version and says where a new user starts", async () => {
  const help = (await runCli(["--help"])).stdout;
  assert.match(help, /^ {2}-V, --version {7}print the version$/m);
  assert.match(help, /'session-bridge demo'/);
});

test("a missing --to names the harnesses it can be", async () => {
  for (const command of [["handoff"], ["convert", "-o", join(root, "never.jsonl")]]) {
    const r = await runCli([...command, seeded.id, ...homes]);
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      "session-bridge: missing --to H (claude-code, codex, hermes, gemini-cli, opencode, copilot-cli or pi)\n",
    );
  }
});

test("a flag given without its value says so in plain words", async () => {
  const r = await runCli(["list", "--cwd"]);
  assert.equal(r.stderr, "session-bridge: --cwd needs a value\n");
  const short = await runCli(["convert", seeded.id, "--to", "codex", "-o"]);
  assert.equal(short.stderr, "session-bridge: --output needs a value\n");
});

test("drift that finds no session says where it looked", async () => {
  const r = await runCli([
    "drift",
    ...emptyHomes(empty),
  ]);
  assert.equal(r.code, 0);
  assert.equal(
    r.stdout,
    "0 sessions checked: no drift\n" +
      `  looked in claude-code: ${join(empty, "empty-claude-code", "projects")}; codex: ${
        join(empty, "empty-codex")
      }; ` +
      `hermes: ${join(empty, "empty-hermes", "state.db")}; gemini-cli: ${
        join(empty, "empty-gemini-cli", ".gemini")
      }; opencode: ${join(empty, "empty-opencode", "opencode.db")}; copilot-cli: ${
        join(empty, "empty-copilot-cli", "session-state")
      }; pi: ${join(empty, "empty-pi", "sessions")}\n`,
  );
});

test("version asked for the ways other tools take it is pointed to --version / -V", async () => {
  assert.equal(
    (await runCli(["-v"])).stderr,
    'session-bridge: unknown option "-v" before the command: did you mean -V?\n',
  );
  assert.equal(
    (await runCli(["version"])).stderr,
    'session-bridge: unknown command "version": did you mean --version?\n',
  );
  assert.equal(
    (await runCli(["LIST"])).stderr,
    'session-bridge: unknown command "LIST": did you mean list?\n',
  );
});

test("undo --list shows when each handoff was made on the local clock", () => {
  const bridge = tempDir("sb-bridge-");
  const target = tempDir();
  const env = { SESSION_BRIDGE_HOME: bridge, TZ: "Asia/Tokyo" };
  const done = cli(["handoff", seeded.id, "--to", "claude", "--cwd", target, "--json", ...homes], env);
  assert.equal(done.code, 0, done.stderr);
  const op = (JSON.parse(done.stdout) as { op: string }).op;
  const at = (JSON.parse(cli(["undo", "--list", "--json"], env).stdout) as { operations: { at: string }[] })
    .operations[0]!.at;
  // Tokyo's clock, by the platform's own formatter: "2026-12-01 18:07".
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone: "Asia/Tokyo",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    }).formatToParts(new Date(at)).map((p) => [p.type, p.value]),
  );
  const tokyo = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
  assert.match(cli(["undo", "--list"], env).stdout, new RegExp(`^${op} {2}${tokyo} {2}claude-code:`, "m"));
});
