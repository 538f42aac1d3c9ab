import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { claudeFixture, FIXTURE_CWD, seedClaudeHome } from "./helpers/fixtures.ts";
import { cli, runCli, runCliJson } from "./helpers/cli.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const home = join(root, "claude");
const seeded = seedClaudeHome(home, "thinking-tool-use");
const other = seedClaudeHome(home, "plain-text");
const target = join(root, "target");
mkdirSync(target);

/**
 * Runs a command expected to fail, and checks the one-line error, the exit code and that nothing changed: in
 * this process, or with `inChild` as a process of its own (its real exit status and stderr).
 */
async function refuses(args: string[], code: number, pattern: RegExp, inChild = false) {
  const before = { home: snapshot(home), target: snapshot(target) };
  const all = [...args, "--claude-home", home];
  const r = inChild ? cli(all) : await runCli(all);
  assert.equal(r.code, code, `${args.join(" ")}: ${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.equal(r.stderr.trim().split("\n").length, 1, `one line: ${r.stderr}`);
  assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
  assert.deepEqual({ home: snapshot(home), target: snapshot(target) }, before, "nothing written");
}

test("a non-JSON line in the middle of a session is exit 2 naming file and line, nothing written", async () => {
  const bad = join(root, "bad.jsonl");
  const lines = readFileSync(claudeFixture("plain-text"), "utf8").split("\n");
  lines.splice(5, 0, "{not json");
  writeFileSync(bad, lines.join("\n"));
  await refuses(["handoff", bad, "--to", "claude", "--cwd", target], 2, /bad\.jsonl:6: not valid JSON/, true);
});

test("a binary file is exit 2", async () => {
  const bin = join(root, "image.jsonl");
  writeFileSync(bin, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x00, 0x0a]));
  await refuses(["inspect", bin], 2, /not a text file/);
});

test("an id with ../ is exit 2", async () => {
  await refuses(
    ["handoff", seeded.id, "--to", "claude", "--cwd", target, "--session-id", "../../etc/passwd"],
    2,
    /invalid session id/,
  );
});

test("a missing file is exit 2", async () => {
  await refuses(["show", join(root, "nope.jsonl")], 2, /no such file/);
});

test("an unknown harness name is exit 2", async () => {
  await refuses(["handoff", seeded.id, "--to", "no-such-harness"], 2, /unknown harness "no-such-harness"/);
});

test("an unknown flag is exit 2", async () => {
  await refuses(["list", "--frm", "claude"], 2, /Unknown option '--frm'/, true);
});

test("a --cwd that does not exist is exit 2: a session placed there could never be resumed", async () => {
  await refuses(
    ["handoff", seeded.id, "--to", "claude", "--cwd", join(root, "no-such-dir")],
    2,
    /--cwd: .*no-such-dir is not an existing directory/,
  );
});

test("convert -o into a folder that does not exist is exit 2", async () => {
  await refuses(
    ["convert", seeded.id, "--to", "claude", "-o", join(root, "missing", "out.jsonl")],
    2,
    /-o: .*missing is not an existing directory/,
  );
});

test("handing off onto an existing session id is refused with exit 1 and nothing changes", async () => {
  const first = await runCliJson([
    "handoff",
    seeded.id,
    "--to",
    "claude",
    "--cwd",
    target,
    "--claude-home",
    home,
  ]);
  const id = (first.json.target as { id: string }).id;
  await refuses(
    ["handoff", other.id, "--to", "claude", "--cwd", target, "--session-id", id],
    1,
    /already exists in .* \(pass another --session-id, or --force to replace it/,
  );
});

test("--force replaces an existing target and reports the backup of the old file", async () => {
  const id = "0b0b0b0b-0000-4000-8000-000000000001";
  assert.equal(
    (await runCli([
      "handoff",
      seeded.id,
      "--to",
      "claude",
      "--cwd",
      target,
      "--session-id",
      id,
      "--claude-home",
      home,
    ]))
      .code,
    0,
  );
  const r = await runCliJson([
    "handoff",
    other.id,
    "--to",
    "claude",
    "--cwd",
    target,
    "--session-id",
    id,
    "--force",
    "--claude-home",
    home,
  ], {
    SESSION_BRIDGE_HOME: join(root, "bridge"),
  });
  assert.equal(r.code, 0, r.stderr);
  const backup = r.json.backup as { paths: string[] };
  assert.equal(backup.paths.length, 1);
  assert.match(readFileSync(backup.paths[0]!, "utf8"), /fixture-tool-output/);
  assert.match(readFileSync((r.json.target as { path: string }).path, "utf8"), /first plain turn/);
});

test("an ambiguous reference lists the candidates", async () => {
  const dup = join(home, "projects", "-elsewhere");
  mkdirSync(dup, { recursive: true });
  copyFileSync(seeded.path, join(dup, `${seeded.id.slice(0, 8)}-aaaa-4aaa-8aaa-aaaaaaaaaaaa.jsonl`));
  const r = await runCli(["inspect", seeded.id.slice(0, 8), "--claude-home", home]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /is ambiguous: claude-code:/);
  assert.match(r.stderr, new RegExp(seeded.id));
});

test("--dry-run prints the plan and the report and writes nothing", async () => {
  const before = snapshot(home);
  const r = await runCliJson([
    "handoff",
    seeded.id,
    "--to",
    "claude",
    "--cwd",
    target,
    "--dry-run",
    "--claude-home",
    home,
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.dryRun, true);
  assert.ok((r.json.report as { entries: unknown[] }).entries.length > 0);
  assert.deepEqual(snapshot(home), before);
});

test("inspect --json carries the documented session fields", async () => {
  const r = await runCliJson(["inspect", seeded.id, "--claude-home", home]);
  assert.equal(r.code, 0);
  assert.equal(r.json.schema, "session-bridge/1");
  assert.equal(r.json.ok, true);
  const s = r.json.session as Record<string, unknown>;
  for (const key of ["harness", "id", "cwd", "messages", "text", "reasoning", "toolCalls", "toolResults"]) {
    assert.ok(key in s, key);
  }
  assert.equal(s.harness, "claude-code");
  assert.equal(s.cwd, FIXTURE_CWD);
  assert.equal(s.toolCalls, 1);
});

test("list finds sessions by harness and cwd, as JSON", async () => {
  const r = await runCliJson(["list", "--from", "claude", "--cwd", FIXTURE_CWD, "--claude-home", home]);
  const ids = (r.json.sessions as { id: string }[]).map((s) => s.id);
  assert.ok(ids.includes(seeded.id) && ids.includes(other.id));
  const none = await runCliJson(["list", "--cwd", "/no/such/dir", "--claude-home", home]);
  assert.deepEqual(none.json.sessions, []);
});

test("an exact title resolves to its session", async () => {
  const fresh = join(root, "fresh-claude");
  const only = seedClaudeHome(fresh, "plain-text");
  seedClaudeHome(fresh, "resumed");
  const r = await runCliJson(["inspect", "Hello, this is the first plain turn.", "--claude-home", fresh]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal((r.json.session as { id: string }).id, only.id);
});

test("show prints every turn, reasoning, tool call and result", async () => {
  const r = await runCli(["show", seeded.id, "--claude-home", home]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /── user/);
  assert.match(r.stdout, /\[reasoning, anthropic-bound proof\]/);
  assert.match(r.stdout, /\[tool call Bash toolu_/);
  assert.match(r.stdout, /\[tool result toolu_[^\]]*\] fixture-tool-output/);
});

test("errors under --json still print one JSON document", () => {
  const r = cli(["inspect", "zzzzzzzz", "--json", "--claude-home", home]);
  assert.equal(r.code, 2);
  const doc = JSON.parse(r.stdout) as { ok: boolean; error: { exitCode: number } };
  assert.equal(doc.ok, false);
  assert.equal(doc.error.exitCode, 2);
});

test("the real process prints its version and exits 0 (every command's --help: help-contract.test.ts)", () => {
  const r = cli(["--version"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^session-bridge \d+\.\d+\.\d+\n$/);
});
