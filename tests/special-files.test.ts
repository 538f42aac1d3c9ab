/**
 * A FIFO (or any file that is not a regular one, or a directory) where a session, a state database or a config
 * file is expected is refused with one line naming it, and is never opened: opening a FIFO for reading waits
 * for a writer forever. Each case runs the CLI as a child process with a hang guard, so a regression fails
 * instead of stalling the suite.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, renameSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../lib/runtime.ts";
import { tempDir } from "./helpers/tmp.ts";
import { makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { seedHermesHome } from "./helpers/hermes.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const root = tempDir();
const claude = join(root, "claude");
const codex = join(root, "codex");
const hermes = join(root, "hermes");
const { id: claudeId } = seedClaudeHome(claude, "interrupted-tool-call");
makeCodexHome(codex);
const codexThread = seedCodexThread(codex, "0.169.0", "tool-call");
seedHermesHome(hermes, "0.19.0", "compressed");
const work = join(root, "work");
mkdirSync(work);

/** Runs the CLI over these homes; a run that outlives the guard was blocked on a special file. */
function run(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const [bin, ...pre] = scriptArgv(MAIN);
  const r = spawnSync(bin!, [
    ...pre,
    ...args,
    "--claude-home",
    claude,
    "--codex-home",
    codex,
    "--hermes-home",
    hermes,
  ], {
    encoding: "utf8",
    env: { ...process.env, SESSION_BRIDGE_DEBUG: "", SESSION_BRIDGE_HOME: join(root, "bridge") },
    timeout: 60_000,
  });
  assert.notEqual(r.signal, "SIGTERM", `session-bridge ${args.join(" ")} hung on a special file`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Puts a FIFO (or a directory) where `path` was for the duration of `check`, then restores the file. */
function replacedBy(kind: "fifo" | "directory", path: string, check: () => void): void {
  renameSync(path, `${path}.real`);
  try {
    if (kind === "fifo") execFileSync("mkfifo", [path]);
    else mkdirSync(path);
    check();
  } finally {
    execFileSync("rm", ["-rf", path]);
    renameSync(`${path}.real`, path);
  }
}

const fifoLine = (path: string) =>
  `${path}: is a FIFO (named pipe), not a regular file (refused without reading it)`;
/** A dry run reports the plan on stderr first; the refusal is its last line. */
const lastLine = (text: string) => text.trimEnd().split("\n").at(-1);
const handoff = (to: string) => ["handoff", claudeId, "--to", to, "--cwd", work, "--dry-run"];

test("a FIFO as Codex state_5.sqlite is refused by name: list serves the other stores, handoff refuses", () => {
  const database = join(codex, "state_5.sqlite");
  replacedBy("fifo", database, () => {
    const list = run(["list", "--full-ids"]);
    assert.ok(list.stderr.includes(fifoLine(database)), list.stderr);
    assert.ok(list.stdout.includes(claudeId), "the other stores are still listed");
    const refused = run(handoff("codex"));
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(lastLine(refused.stderr), `session-bridge: cannot write to ${fifoLine(database)}`);
  });
});

test("a FIFO as Hermes state.db is refused by name: list, inspect by locator and handoff", () => {
  const database = join(hermes, "state.db");
  replacedBy("fifo", database, () => {
    const list = run(["list", "--full-ids"]);
    assert.ok(list.stderr.includes(fifoLine(database)), list.stderr);
    assert.ok(list.stdout.includes(claudeId));
    const inspect = run(["inspect", `${database}#20261129_210454_093577`]);
    assert.equal(inspect.code, 2);
    assert.equal(inspect.stderr, `session-bridge: ${fifoLine(database)}\n`);
    const refused = run(handoff("hermes"));
    assert.equal(refused.code, 1, refused.stderr);
    assert.equal(lastLine(refused.stderr), `session-bridge: cannot write to ${fifoLine(database)}`);
  });
});

test("a FIFO or a directory as config.toml or config.yaml is bad input naming the file", () => {
  const toml = join(codex, "config.toml");
  replacedBy("fifo", toml, () => {
    const r = run(handoff("codex"));
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `session-bridge: ${fifoLine(toml)}\n`);
  });
  replacedBy("directory", toml, () => {
    const r = run(handoff("codex"));
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      `session-bridge: ${toml}: is a directory, not a regular file (refused without reading it)\n`,
    );
  });
  const yaml = join(hermes, "config.yaml");
  replacedBy("fifo", yaml, () => {
    const r = run(handoff("hermes"));
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `session-bridge: ${fifoLine(yaml)}\n`);
  });
});

test("a FIFO as a session file is refused, by path and when an id lookup leads to it", () => {
  replacedBy("fifo", codexThread.path, () => {
    const byId = run(["inspect", codexThread.id]);
    assert.equal(byId.code, 2);
    assert.equal(byId.stderr, `session-bridge: ${fifoLine(codexThread.path)}\n`);
    const byPath = run(["handoff", codexThread.path, "--to", "claude", "--cwd", work, "--dry-run"]);
    assert.equal(byPath.code, 2);
    assert.equal(byPath.stderr, `session-bridge: ${fifoLine(codexThread.path)}\n`);
  });
});

test("a FIFO in place of a Codex rollout or a legacy Hermes transcript is listed, never opened for its last message", () => {
  const legacy = join(hermes, "sessions", "20261129_210600_fifo0000.jsonl");
  mkdirSync(join(hermes, "sessions"), { recursive: true });
  execFileSync("mkfifo", [legacy]);
  try {
    replacedBy("fifo", codexThread.path, () => {
      const list = run(["list", "--full-ids", "--json"]);
      assert.equal(list.code, 0, list.stderr);
      const ids = (JSON.parse(list.stdout) as { sessions: { id: string }[] }).sessions.map((s) => s.id);
      assert.ok(ids.includes(codexThread.id), "the thread its index names is listed");
      assert.ok(ids.includes("20261129_210600_fifo0000"), "the legacy name is listed");
    });
  } finally {
    execFileSync("rm", ["-f", legacy]);
  }
});
