/**
 * Printed resume commands are run here the way a user runs them: pasted into a fresh shell (bash -c), started
 * from another directory, with none of the harness variables set, against stub harnesses on PATH that print
 * their working directory, their home variable and their arguments.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { makeCodexHome, threadRow } from "./helpers/codex.ts";
import { seedHermesHome } from "./helpers/hermes.ts";
import { runCli, runCliJson } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { builtinCoverage, preparedHomes } from "./helpers/harness-material.ts";

/** Every registered harness, with its test material. */
const COVERED = await builtinCoverage();

const root = tempDir();
const userHome = join(root, "user");
mkdirSync(userHome);
const source = seedClaudeHome(join(root, "homes", "claude"), "plain-text");
makeCodexHome(join(root, "homes", "codex"));
seedHermesHome(join(root, "homes", "hermes"), "0.19.0", "text-turns");
// A directory whose name a shell would split and misread unless quoted.
const target = join(root, "work dir", "it's $HOME");
mkdirSync(target, { recursive: true });

const stubs = join(root, "bin");
mkdirSync(stubs);
// Each harness's executable, printing every harness's home variable (in the registry's order).
for (const { harness } of COVERED) {
  const command = harness.integrations.certify?.command;
  assert.ok(command, `harness ${harness.name} names no executable (integrations.certify.command) to stub`);
  const stub = join(stubs, command);
  writeFileSync(
    stub,
    [
      "#!/bin/sh",
      'echo "pwd=$(pwd)"',
      ...COVERED.map(({ harness: { home } }) => `echo "${home.env}=$${home.env}"`),
      'for a in "$@"; do echo "arg=$a"; done',
      "",
    ].join("\n"),
  );
  chmodSync(stub, 0o755);
}

/** The environment of a new terminal: none of the harness variables, the stubs first on PATH. */
const freshShell = {
  PATH: `${stubs}:/usr/bin:/bin`,
  HOME: userHome,
};

function runPasted(command: string): string {
  const r = spawnSync("bash", ["-c", command], { cwd: "/", env: freshShell, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

/** Hands the Claude fixture off from `root`, homes given relative to it (flags and variables alike). */
async function handoff(to: string, extra: string[], env: Record<string, string> = {}) {
  const r = await runCliJson(
    ["handoff", source.id, "--from", "claude", "--to", to, "--cwd", target, ...extra],
    { HOME: userHome, CLAUDE_CONFIG_DIR: "", CODEX_HOME: "", HERMES_HOME: "", ...env },
    root,
  );
  assert.equal(r.code, 0, r.stderr);
  return r.json.target as { id: string; path: string; resumeCommand: string };
}

test("a relative --codex-home is stored and printed absolute, and the pasted command resumes there", async () => {
  const plan = await handoff("codex", ["--claude-home", "homes/claude", "--codex-home", "homes/codex"]);
  assert.equal(
    plan.resumeCommand,
    `cd '${target.replace("'", `'\\''`)}' && CODEX_HOME=${root}/homes/codex codex resume ${plan.id}`,
  );
  assert.equal(threadRow(join(root, "homes", "codex"), plan.id)?.rollout_path, plan.path);
  assert.ok(plan.path.startsWith(`${root}/homes/codex/sessions/`), plan.path);
  assert.equal(
    runPasted(plan.resumeCommand),
    `pwd=${target}\nCLAUDE_CONFIG_DIR=\nCODEX_HOME=${root}/homes/codex\nHERMES_HOME=\nGEMINI_CLI_HOME=\nXDG_DATA_HOME=\nCOPILOT_HOME=\nPI_CODING_AGENT_DIR=\narg=resume\narg=${plan.id}\n`,
  );
});

test("a relative HERMES_HOME variable is made absolute and named in the pasted command", async () => {
  const plan = await handoff("hermes", ["--claude-home", "homes/claude"], { HERMES_HOME: "homes/hermes" });
  assert.ok(plan.path.startsWith(`${root}/homes/hermes/state.db#`), plan.path);
  const printed = runPasted(plan.resumeCommand);
  assert.match(
    printed,
    new RegExp(
      `^pwd=${escape(target)}\nCLAUDE_CONFIG_DIR=\nCODEX_HOME=\nHERMES_HOME=${escape(root)}/homes/hermes\n`,
    ),
  );
  assert.match(printed, new RegExp(`\narg=chat\narg=--resume\narg=${plan.id}\n`));
});

test("a Claude Code resume command names CLAUDE_CONFIG_DIR for a non-default home", async () => {
  const plan = await handoff("claude", [], { CLAUDE_CONFIG_DIR: "homes/claude" });
  assert.equal(
    runPasted(plan.resumeCommand),
    `pwd=${target}\nCLAUDE_CONFIG_DIR=${root}/homes/claude\nCODEX_HOME=\nHERMES_HOME=\nGEMINI_CLI_HOME=\nXDG_DATA_HOME=\nCOPILOT_HOME=\nPI_CODING_AGENT_DIR=\narg=--resume\narg=${plan.id}\n`,
  );
});

test("a resume command leaves the home variable out when the home is the default one", async () => {
  const home = join(userHome, ".claude");
  seedClaudeHome(home, "plain-text");
  const plan = await handoff("claude", ["--claude-home", "~/.claude"]);
  assert.equal(plan.resumeCommand, `cd '${target.replace("'", `'\\''`)}' && claude --resume ${plan.id}`);
  assert.ok(plan.path.startsWith(`${home}/projects/`), plan.path);
});

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("a dry run's command to carry out the plan names a home given only by a variable", async () => {
  const r = await runCliJson(
    ["handoff", source.id, "--from", "claude", "--to", "codex", "--cwd", target, "--dry-run"],
    { HOME: userHome, CLAUDE_CONFIG_DIR: "homes/claude", CODEX_HOME: "homes/codex", HERMES_HOME: "" },
    root,
  );
  assert.equal(r.code, 0, r.stderr);
  const id = (r.json.target as { id: string }).id;
  assert.equal(
    r.json.reproduce,
    // `--from claude` was resolved once, where the command began: the plan names the harness by its name.
    `session-bridge handoff ${source.id} --to codex --from claude-code --cwd '${
      target.replace("'", `'\\''`)
    }' ` +
      `--session-id ${id} --claude-home ${root}/homes/claude --codex-home ${root}/homes/codex`,
  );
});

// A newline, ESC (colour), a right-to-left override, a quote and a backslash: each must be neither raw on the
// screen nor lost when the line is pasted.
const hostile = join(root, "hostile", "line\none \u001b[31mred\u202eexe it's \\ $HOME");
mkdirSync(hostile, { recursive: true });
// deno-lint-ignore no-control-regex
const RAW_CONTROL = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** Every harness's home, ready to take a handoff, and no harness variable set: the flags name them all. */
const { flags: homeFlags } = preparedHomes(COVERED, join(root, "hostile-homes"));
const noHomeVariables = Object.fromEntries(COVERED.map(({ harness }) => [harness.home.env, ""]));

for (const { harness: { name: to } } of COVERED) {
  test(`a ${to} resume command for a directory with control characters is inert on screen and reaches it when pasted`, async () => {
    const r = await runCli(
      [
        "handoff",
        source.path,
        "--to",
        to,
        "--cwd",
        hostile,
        "--title",
        `hostile ${to}`,
        ...homeFlags,
      ],
      { HOME: userHome, ...noHomeVariables },
      root,
    );
    assert.equal(r.code, 0, r.stderr);
    const printed = r.stdout.split("\n");
    const line = printed[printed.indexOf("resume with:") + 1]!.trim();
    assert.doesNotMatch(line, RAW_CONTROL, `the printed line carries a raw control character: ${line}`);
    assert.match(runPasted(line), new RegExp(`^pwd=${escape(hostile)}\n`));
  });
}
