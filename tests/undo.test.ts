import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { createHermesStore } from "../lib/harnesses/hermes/first-run.ts";
import type { Terminal } from "../lib/cli/terminal.ts";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { cli, runCli, runCliJson } from "./helpers/cli.ts";
import { scriptArgv } from "../lib/runtime.ts";
import { shellQuote } from "../lib/io/shell.ts";
import { snapshot } from "./helpers/snapshot.ts";
import { tempDir } from "./helpers/tmp.ts";

const root = tempDir();
const env = { SESSION_BRIDGE_HOME: join(root, "bridge") };
const home = join(root, "claude");
const seeded = seedClaudeHome(home, "thinking-tool-use");
const target = join(root, "target");
mkdirSync(target);

async function handoff(extra: string[] = []) {
  const r = await runCliJson([
    "handoff",
    seeded.id,
    "--to",
    "claude",
    "--cwd",
    target,
    "--claude-home",
    home,
    ...extra,
  ], env);
  assert.equal(r.code, 0, r.stderr);
  return r.json as { op: string; target: { path: string; id: string } };
}

test("undo removes exactly what the last handoff created", async () => {
  const before = snapshot(home);
  const done = await handoff();
  assert.ok(existsSync(done.target.path));
  const r = await runCli(["undo", "--last", "--claude-home", home], env);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`removed ${done.target.path}`));
  const after = snapshot(home);
  for (const path of Object.keys(after)) {
    assert.ok(path in before || path.endsWith("/"), `left behind: ${path}`);
  }
  assert.equal((await runCli(["undo", "--last"], env)).code, 1, "nothing left to undo");
});

test("undo refuses to delete a session that was resumed since, unless forced, and then saves it", async () => {
  const done = await handoff();
  appendFileSync(
    done.target.path,
    `${JSON.stringify({ type: "last-prompt", lastPrompt: "new work", sessionId: done.target.id })}\n`,
  );
  const refused = await runCli(["undo", done.op], env);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /changed since the handoff/);
  assert.ok(existsSync(done.target.path));
  const forced = await runCliJson(["undo", done.op, "--force"], env);
  assert.equal(forced.code, 0, forced.stderr);
  assert.ok(!existsSync(done.target.path));
  const saved = (forced.json.backups as string[])[0]!;
  assert.match(readFileSync(saved, "utf8"), /new work/);
});

test("undo of a --force handoff restores the session it replaced", async () => {
  const id = "0c0c0c0c-0000-4000-8000-000000000002";
  const first = await handoff(["--session-id", id]);
  const original = readFileSync(first.target.path, "utf8");
  const replacing = await handoff(["--session-id", id, "--force", "--no-handshake"]);
  assert.notEqual(readFileSync(first.target.path, "utf8"), original);
  const r = await runCli(["undo", replacing.op], env);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(first.target.path, "utf8"), original);
});

test("undo --dry-run changes nothing", async () => {
  const done = await handoff();
  const before = snapshot(root);
  const r = await runCli(["undo", done.op, "--dry-run"], env);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /would remove/);
  assert.deepEqual(snapshot(root), before);
  assert.ok(existsSync(done.target.path));
});

/** What a resumed target leaves: one more line in the handed-off transcript. */
function resume(done: { target: { path: string; id: string } }) {
  appendFileSync(
    done.target.path,
    `${JSON.stringify({ type: "last-prompt", lastPrompt: "resumed", sessionId: done.target.id })}\n`,
  );
}

test("undo --dry-run of a session resumed since says it would refuse and why, with undo's exit code", async () => {
  const done = await handoff();
  resume(done);
  const before = snapshot(root);
  const real = await runCli(["undo", done.op], env);
  assert.equal(real.code, 1, real.stderr);
  const dry = await runCli(["undo", done.op, "--dry-run"], env);
  assert.equal(dry.code, real.code, dry.stderr);
  assert.match(dry.stdout, new RegExp(`^would refuse to undo ${done.op} `));
  assert.doesNotMatch(dry.stdout, /^would undo/m);
  assert.equal(dry.stderr, real.stderr, "the dry run gives the real undo's reason");
  assert.match(dry.stderr, /changed since the handoff \(was it resumed\?\)/);
  const json = await runCliJson(["undo", done.op, "--dry-run"], env);
  assert.equal(json.code, 1);
  assert.equal(json.json.ok, false);
  assert.equal(json.json.refusal, (json.json.error as { message: string }).message);
  assert.deepEqual(snapshot(root), before, "nothing changed");
  const forced = await runCli(["undo", done.op, "--dry-run", "--force"], env);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(forced.stdout, /would remove .* \(changed since the handoff\)/);
  assert.equal((await runCli(["undo", done.op, "--force"], env)).code, 0);
});

test("undo --dry-run of a Hermes session resumed since (more rows) says it would refuse, like undo", async () => {
  const hermes = join(root, "hermes-resumed");
  mkdirSync(hermes);
  createHermesStore(hermes, "fake-model-1");
  const handed = await runCliJson(
    ["handoff", seeded.id, "--to", "hermes", "--cwd", target, "--claude-home", home, "--hermes-home", hermes],
    env,
  );
  assert.equal(handed.code, 0, handed.stderr);
  const op = handed.json.op as string;
  const id = (handed.json.target as { id: string }).id;
  const db = new DatabaseSync(join(hermes, "state.db"));
  const columns = db.prepare("PRAGMA table_info(messages)").all() as { name: string; notnull: number }[];
  const row = db.prepare("SELECT * FROM messages WHERE session_id = ? LIMIT 1").get(id) as Record<
    string,
    unknown
  >;
  const copy = columns.filter((c) => c.name !== "id").map((c) => c.name);
  db.prepare(`INSERT INTO messages (${copy.join(", ")}) VALUES (${copy.map(() => "?").join(", ")})`).run(
    ...copy.map((c) => row[c] as string | number | null),
  );
  db.close();
  const real = await runCli(["undo", op], env);
  const dry = await runCli(["undo", op, "--dry-run"], env);
  assert.equal(real.code, 1, real.stderr);
  assert.equal(dry.code, 1, dry.stderr);
  assert.equal(dry.stderr, real.stderr);
  assert.match(dry.stderr, /messages rows of .* changed since the handoff/);
  assert.match(dry.stdout, /^would refuse to undo /);
});

test("undo without an operation outside a terminal is bad usage (exit 2) naming the newest handoff, and changes nothing", async () => {
  const done = await handoff();
  const before = snapshot(root);
  for (const extra of [[], ["--dry-run"], ["--json"]]) {
    const r = await runCli(["undo", ...extra], env);
    assert.equal(r.code, 2, r.stderr);
    const lines = r.stderr.trim().split("\n");
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0]!,
      new RegExp(`^session-bridge: the newest handoff is ${done.op} \\(.*\\): pass its id or --last`),
    );
  }
  assert.deepEqual(snapshot(root), before);
  assert.ok(existsSync(done.target.path));
  assert.equal((await runCli(["undo", done.op, "--last"], env)).code, 2, "an id and --last together");
  assert.equal((await runCli(["undo", "--last"], env)).code, 0);
  assert.ok(!existsSync(done.target.path));
});

/** A terminal that answers `answer` and remembers what it was asked. */
function terminalAnswering(answer: string | null): Terminal & { asked: string[] } {
  const asked: string[] = [];
  return {
    interactive: true,
    asked,
    ask: (question) => {
      asked.push(question);
      return Promise.resolve(answer);
    },
  };
}

test("undo without an operation on a terminal names the newest handoff and asks; only a yes undoes it", async () => {
  const done = await handoff();
  const before = snapshot(root);
  for (const answer of ["", "n", null]) {
    const terminal = terminalAnswering(answer);
    const r = await runCli(["undo"], env, undefined, undefined, terminal);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(terminal.asked.length, 1);
    assert.match(r.stdout, new RegExp(`the newest handoff is ${done.op} `));
    assert.match(r.stderr, /not undone: nothing was changed/);
  }
  assert.deepEqual(snapshot(root), before);
  const dry = terminalAnswering(null);
  const planned = await runCli(["undo", "--dry-run"], env, undefined, undefined, dry);
  assert.equal(planned.code, 0, planned.stderr);
  assert.deepEqual(dry.asked, [], "a dry run changes nothing, so nothing is asked");
  const yes = terminalAnswering("y");
  const r = await runCli(["undo"], env, undefined, undefined, yes);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`undid ${done.op} `));
  assert.ok(!existsSync(done.target.path));
});

/** The CLI's own process on a pseudo-terminal (util-linux `script`), typing `typed`. */
function onTerminal(args: string[], typed: string): { code: number; output: string } {
  const command = [...scriptArgv(fileURLToPath(new URL("../main.ts", import.meta.url))), ...args];
  const r = spawnSync("script", ["-qec", command.map(shellQuote).join(" "), "/dev/null"], {
    input: typed,
    encoding: "utf8",
    env: { ...process.env, ...env, SESSION_BRIDGE_DEBUG: "" },
  });
  return { code: r.status ?? -1, output: r.stdout };
}

test("undo without an operation asks on a real terminal, and a pipe is no terminal", async () => {
  const done = await handoff();
  const piped = cli(["undo"], env);
  assert.equal(piped.code, 2, piped.stderr);
  assert.match(piped.stderr, /pass its id or --last/);
  const declined = onTerminal(["undo"], "n\n");
  assert.equal(declined.code, 1, declined.output);
  assert.match(declined.output, new RegExp(`the newest handoff is ${done.op} [^]*undo it\\? \\[y/N\\]`));
  assert.ok(existsSync(done.target.path));
  const confirmed = onTerminal(["undo"], "y\n");
  assert.equal(confirmed.code, 0, confirmed.output);
  assert.match(confirmed.output, new RegExp(`undid ${done.op} `));
  assert.ok(!existsSync(done.target.path));
});
