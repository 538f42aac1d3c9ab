/**
 * Session text, paths and ids are untrusted: a title, cwd, model or tool name carrying terminal escapes or
 * bidi overrides must reach the terminal as visible escapes, through every command and every error message.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeFixture, FIXTURE_CWD, sessionIdOf } from "./helpers/fixtures.ts";
import { cli, cliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../lib/runtime.ts";
import { shellQuote } from "../lib/io/shell.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

// Colour, an OSC 52 clipboard write, a screen clear, an 8-bit CSI and a right-to-left override.
const HOSTILE = "\u001b[31mred\u001b]52;c;cm0gLXJmIH4=\u0007\u001b[2J\u009b1m\u202eexe.txt";
const SHOWN = "\\u001b[31mred\\u001b]52;c;cm0gLXJmIH4=\\u0007\\u001b[2J\\u009b1m\\u202eexe.txt";
// deno-lint-ignore no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const root = tempDir();
const home = join(root, "claude");
const bucket = join(home, "projects", "-hostile");
mkdirSync(bucket, { recursive: true });
const source = claudeFixture("interrupted-tool-call");
const id = sessionIdOf(source);
const inJson = (s: string) => JSON.stringify(s).slice(1, -1);
const firstPrompt = readFileSync(source, "utf8").match(
  /"type":"user","message":\{"role":"user","content":"([^"]*)"/,
)![1]!;
writeFileSync(
  join(bucket, `${id}.jsonl`),
  readFileSync(source, "utf8")
    .replaceAll(firstPrompt, inJson(`title ${HOSTILE}`))
    .replaceAll(FIXTURE_CWD, `/home/user/${inJson(HOSTILE)}`)
    .replaceAll('"model":"claude-opus-5-5"', `"model":"${inJson(`model ${HOSTILE}`)}"`)
    .replaceAll('"name":"Bash"', `"name":"${inJson(`Bash${HOSTILE}`)}"`),
);

function assertInert(where: string, text: string) {
  assert.doesNotMatch(text, RAW, `${where} carries a raw control character: ${JSON.stringify(text)}`);
}

test("list shows a hostile title and cwd as visible escapes, each on its own row", () => {
  const r = cli(["list", "--claude-home", home, "--from", "claude"]);
  assert.equal(r.code, 0, r.stderr);
  assertInert("list", r.stdout + r.stderr);
  const rows = r.stdout.trim().split("\n");
  assert.equal(rows.length, 2);
  assert.ok(rows[1]!.includes(`/home/user/${SHOWN}`), rows[1]);
  assert.ok(rows[1]!.endsWith(`title ${SHOWN}`), rows[1]);
});

test("list --json carries the original characters as JSON escapes", () => {
  const r = cliJson(["list", "--claude-home", home, "--from", "claude"]);
  assertInert("list --json", r.stdout);
  const [row] = r.json.sessions as { title: string; cwd: string }[];
  assert.equal(row!.title, `title ${HOSTILE}`);
  assert.equal(row!.cwd, `/home/user/${HOSTILE}`);
});

test("inspect shows hostile title, cwd, model and open tool call names as visible escapes", () => {
  const r = cli(["inspect", id, "--claude-home", home]);
  assert.equal(r.code, 0, r.stderr);
  assertInert("inspect", r.stdout + r.stderr);
  assert.match(r.stdout, new RegExp(`\n  title     title ${escape(SHOWN)}\n`));
  assert.match(r.stdout, new RegExp(`\n  cwd       /home/user/${escape(SHOWN)}\n`));
  assert.match(r.stdout, new RegExp(`\n  models    model ${escape(SHOWN)}\n`));
  assert.match(r.stdout, new RegExp(`open tool calls \\(Bash${escape(SHOWN)} `));
});

test("show prints transcript text with escapes made visible", () => {
  const r = cli(["show", id, "--claude-home", home]);
  assert.equal(r.code, 0, r.stderr);
  assertInert("show", r.stdout + r.stderr);
  assert.ok(r.stdout.includes(`title ${SHOWN}`));
});

test("an error message naming a hostile reference or path escapes it", () => {
  const missing = cli(["inspect", `${root}/${HOSTILE}.jsonl`, "--claude-home", home]);
  assert.equal(missing.code, 2);
  assertInert("error", missing.stderr + missing.stdout);
  assert.equal(missing.stderr, `session-bridge: ${root}/${SHOWN}.jsonl: no such file\n`);
  const unmatched = cli(["inspect", `x${HOSTILE}`, "--claude-home", home]);
  assertInert("error", unmatched.stderr + unmatched.stdout);
  const json = cliJson(["inspect", `${root}/${HOSTILE}.jsonl`, "--claude-home", home]);
  assertInert("error --json", json.stdout + json.stderr);
  assert.equal(
    (json.json.error as { message: string }).message,
    `${root}/${HOSTILE}.jsonl: no such file`,
  );
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Claude Code lines, and Hermes's one line per session streamed in parts (every session streamed): each piece
 * is neutralized alone. What differs between two runs is left out of the comparison: the stub's fresh uuid,
 * Hermes's fresh session id.
 */
const TARGETS: { to: string; env: Record<string, string>; varies: string[] }[] = [
  { to: "claude", env: {}, varies: ["uuid"] },
  { to: "hermes", env: { SESSION_BRIDGE_STREAM_FROM: "0" }, varies: ["id", "session_id"] },
];

for (const target of TARGETS) {
  test(`convert to ${target.to} printed to a terminal escapes control characters; piped, it keeps the session's bytes`, () => {
    const args = ["convert", id, "--to", target.to, "--no-handshake", "--claude-home", home];
    const piped = cli(args, target.env);
    assert.equal(piped.code, 0, piped.stderr);
    assert.ok(piped.stdout.includes("\u202eexe.txt"), "piped output is the session as written");
    // `script` runs the command on a pseudo-terminal, as a user's shell would; the report on stderr is dropped.
    const command = `${[...scriptArgv(MAIN), ...args].map(shellQuote).join(" ")} 2>/dev/null`;
    const tty = spawnSync("script", ["-qec", command, "/dev/null"], {
      encoding: "utf8",
      env: { ...process.env, SESSION_BRIDGE_HOME: root, ...target.env },
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.equal(tty.status, 0, tty.stderr);
    // The terminal turns each newline into CR LF; any other control character would be ours.
    const shown = tty.stdout.replaceAll("\r\n", "\n");
    assert.ok(!RAW.test(shown), "convert to a terminal carries a raw control character");
    assert.ok(shown.includes("\\u202eexe.txt"));
    const lines = shown.trim().split("\n");
    const values = (text: string[]) =>
      text.map((l) => JSON.parse(l, (k, v) => (target.varies.includes(k) ? undefined : v)));
    assert.deepEqual(values(lines), values(piped.stdout.trim().split("\n")));
  });
}
