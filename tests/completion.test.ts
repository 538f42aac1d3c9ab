/**
 * `session-bridge completion`: the bash script is loaded into a real bash and asked, as bash asks it
 * (COMP_WORDS, COMP_CWORD, then the completion function), for commands, flags, harness names, folders and the
 * sessions in the stores the command line names (read through the real CLI at completion time). The zsh and
 * fish scripts are syntax-checked by their shells when installed, and checked for every command otherwise.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { COMMANDS } from "../lib/cli/commands/index.ts";
import { scriptArgv } from "../lib/runtime.ts";
import { seedClaudeHome } from "./helpers/fixtures.ts";
import { CODEX_SCENARIOS, makeCodexHome, seedCodexThread } from "./helpers/codex.ts";
import { DatabaseSync } from "node:sqlite";
import { homeFlags, runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";

const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));
const root = tempDir("sb-completion-");

async function script(shell: string): Promise<string> {
  const r = await runCli(["completion", shell]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  return r.stdout;
}

const bashScript = join(root, "session-bridge.bash");
writeFileSync(bashScript, await script("bash"));

/** The program the completion runs for sessions (COMP_WORDS[0]): the CLI under this runtime. */
const program = join(root, "session-bridge");
writeFileSync(
  program,
  `#!/bin/sh\nexec ${scriptArgv(MAIN).map((w) => `'${w}'`).join(" ")} "$@"\n`,
);
chmodSync(program, 0o755);

/** A captured Codex thread in `home`, its row retitled `title`. */
function titledThread(home: string, title: string): string {
  const { id } = seedCodexThread(home, "0.169.0", CODEX_SCENARIOS[0]);
  const db = new DatabaseSync(join(home, "state_5.sqlite"));
  // Every column a listing may take the title from (the picker's name, else its preview, ...).
  const columns = (db.prepare("PRAGMA table_info(threads)").all() as { name: string }[])
    .map((c) => c.name)
    .filter((c) => ["name", "preview", "title", "first_user_message"].includes(c));
  db.prepare(`UPDATE threads SET ${columns.map((c) => `${c} = ?`).join(", ")} WHERE id = ?`)
    .run(...columns.map(() => title), id);
  db.close();
  return id;
}

const hasBash = spawnSync("bash", ["-c", "true"]).status === 0;

/** What bash completes for `words`, the last being the word under the cursor. */
function complete(words: string[], cwd = root): string[] {
  const r = spawnSync(
    "bash",
    [
      "-c",
      `source "$SCRIPT"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _session_bridge; printf '%s\\n' "\${COMPREPLY[@]}"`,
      "bash",
      program,
      ...words,
    ],
    {
      encoding: "utf8",
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: root,
        SCRIPT: bashScript,
        SESSION_BRIDGE_HOME: join(root, "bridge"),
      },
    },
  );
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split("\n").filter(Boolean).sort();
}

const skip = hasBash ? false : "bash is not installed";

test("bash completes every command of the command registry, and a prefix to its command", { skip }, () => {
  assert.deepEqual(complete([""]), COMMANDS.map((c) => c.name).sort());
  assert.deepEqual(complete(["han"]), ["handoff"]);
  assert.deepEqual(complete(["d"]), ["demo", "doctor", "drift"]);
});

test(
  "bash completes a command's flags, global ones before the command, and --to with harness names and aliases",
  {
    skip,
  },
  () => {
    assert.deepEqual(complete(["handoff", "--t"]), ["--title", "--to"]);
    assert.deepEqual(complete(["--codex-home", root, "handoff", "x", "--to", ""]), [
      "claude",
      "claude-code",
      "codex",
      "copilot",
      "copilot-cli",
      "gemini",
      "gemini-cli",
      "hermes",
      "oc",
      "opencode",
      "pi",
      "pi-coding-agent",
    ]);
    assert.deepEqual(complete(["--cod"]), ["--codex-home"]);
    assert.deepEqual(
      complete(["convert", "x", "-o", "--t"]),
      [],
      "-o takes a file: nothing to complete here",
    );
    assert.deepEqual(complete(["completion", ""]), ["bash", "fish", "zsh"]);
    assert.deepEqual(complete(["completion", "bash", ""]), [], "one shell only");
  },
);

test("bash completes folders where a flag takes one", { skip }, () => {
  const cwd = join(root, "cwd-test");
  mkdirSync(join(cwd, "project-a"), { recursive: true });
  mkdirSync(join(cwd, "project-b"));
  writeFileSync(join(cwd, "project-file"), "");
  assert.deepEqual(complete(["list", "--cwd", "proj"], cwd), ["project-a", "project-b"]);
});

test(
  "bash completes <session> with the ids and titles in the stores the command line names",
  { skip },
  () => {
    const claudeHome = join(root, "claude");
    const claude = seedClaudeHome(claudeHome, "plain-text");
    const codexHome = join(root, "codex");
    makeCodexHome(codexHome);
    const codexId = titledThread(codexHome, "fix the flaky test");
    const homes = [
      "--claude-home",
      claudeHome,
      "--codex-home",
      codexHome,
      "--hermes-home",
      join(root, "none"),
    ];
    const all = complete([...homes, "inspect", ""]);
    assert.ok(all.includes(claude.id), all.join("\n"));
    assert.ok(all.includes(codexId), all.join("\n"));
    assert.ok(all.includes("latest"));
    assert.deepEqual(complete([...homes, "handoff", claude.id.slice(0, 4)]), [claude.id]);
    // A title is completed as one shell word.
    assert.deepEqual(complete([...homes, "show", "fix"]), ["fix\\ the\\ flaky\\ test"]);
    // The second positional is not a session.
    assert.deepEqual(complete([...homes, "inspect", claude.id, ""]), []);
  },
);

test("completion --sessions skips a title no one could type (control characters) and keeps its id", async () => {
  const codexHome = join(root, "codex-hostile");
  makeCodexHome(codexHome);
  const id = titledThread(codexHome, "evil\u001b]52;c;aGk=\u0007title");
  const r = await runCli([
    "completion",
    "--sessions",
    "--codex-home",
    codexHome,
    "--claude-home",
    join(root, "no"),
  ]);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.stdout.split("\n").filter(Boolean), ["latest", id]);
});

test("completion refuses an unknown shell, exit 2", async () => {
  const r = await runCli(["completion", "powershell"]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /unknown shell "powershell" \(expected bash, zsh or fish\)/);
});

for (const shell of ["zsh", "fish"]) {
  test(`the ${shell} script is valid ${shell} and completes every command`, async () => {
    const text = await script(shell);
    for (const c of COMMANDS) assert.match(text, new RegExp(`\\b${c.name}\\b`));
    assert.match(text, /completion (?:--sessions|"--\$\{what\}s")/);
    const path = join(root, `completion.${shell}`);
    writeFileSync(path, text);
    const check = spawnSync(shell, ["-n", path], { encoding: "utf8" });
    if (check.error) return; // not installed here: the structure above is what can be checked
    assert.equal(check.status, 0, check.stderr);
  });
}

test("fish, when installed, completes commands with their summaries and --to with harness names", async (t) => {
  const path = join(root, "completion-run.fish");
  writeFileSync(path, await script("fish"));
  const ask = (line: string) =>
    spawnSync("fish", ["--no-config", "-c", `source ${path}; complete -C '${line}'`], { encoding: "utf8" });
  const probe = ask("session-bridge han");
  if (probe.error) return t.skip("fish is not installed");
  assert.equal(probe.stdout, `handoff\t${COMMANDS.find((c) => c.name === "handoff")!.summary}\n`);
  assert.deepEqual(ask("session-bridge handoff x --to c").stdout.split("\n").filter(Boolean).sort(), [
    "claude",
    "claude-code",
    "codex",
  ]);
});

test("bash completes a command's actions from its usage", { skip }, () => {
  assert.deepEqual(complete(["alias", ""]), ["bind", "forget", "list", "rename", "resolve"]);
});

test("bash completes undo's operation with the handoffs undo can take back, and nothing once undone", {
  skip,
}, async () => {
  const bridge = { SESSION_BRIDGE_HOME: join(root, "bridge") };
  assert.deepEqual(complete(["undo", ""]), []);
  const claudeHome = join(root, "claude-undo");
  const claude = seedClaudeHome(claudeHome, "plain-text");
  const homes = homeFlags({ "claude-code": claudeHome, codex: join(root, "codex-undo") }, root);
  makeCodexHome(join(root, "codex-undo"));
  const done = await runCli(
    ["handoff", claude.id, "--to", "codex", "--cwd", root, "--json", ...homes],
    bridge,
  );
  assert.equal(done.code, 0, done.stderr);
  const op = (JSON.parse(done.stdout) as { op: string }).op;
  assert.deepEqual(complete(["undo", ""]), [op]);
  assert.deepEqual(complete(["undo", op.slice(0, 3)]), [op]);
  assert.equal((await runCli(["undo", op, ...homes], bridge)).code, 0);
  assert.deepEqual(complete(["undo", ""]), []);
});
