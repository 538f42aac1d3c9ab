/**
 * What a terminal sees and what a pipe gets: colour only on a terminal (or FORCE_COLOR), never with
 * NO_COLOR or --no-color; `list` fitted to the terminal's width, a long path losing its middle and keeping its
 * project folder; help wrapped at the width; and in a pipe the same plain, whole text as ever.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import stringWidth from "string-width";
import { run } from "../lib/cli/main.ts";
import { type Display, outputTo } from "../lib/cli/output.ts";
import { scriptArgv } from "../lib/runtime.ts";
import { startTmux } from "../lib/certify-kit/tmux.ts";
import { cli } from "./helpers/cli.ts";
import { tuiEnv, tuiHomes } from "./helpers/tui-homes.ts";
import { tempDir } from "./helpers/tmp.ts";

const ESC = "\u001b";
const root = tempDir();
const homes = tuiHomes(root);
const env = tuiEnv(homes);
const PROJECT = "webapp-frontend";
const DEEP = join(root, "home/dev/work/clients/acme-corporation/platform/services", PROJECT);
mkdirSync(DEEP, { recursive: true });

/** Runs the CLI in this process on a display of `columns` that shows colour. */
async function onTerminal(
  args: string[],
  columns: number,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const printed = { 1: "", 2: "" };
  const display: Display = { color: () => true, columns };
  const code = await run(args, { ...process.env, ...env, SESSION_BRIDGE_DEBUG: "" }, {
    output: outputTo((fd, text) => (printed[fd] += text), display),
  });
  return { code, stdout: printed[1], stderr: printed[2] };
}

/** Visible text: the colour sequences this tool writes removed. */
const plain = (text: string) => text.replace(new RegExp(`${ESC}\\[[0-9;]*m`, "g"), "");

test("a handed-off copy in a deep folder is listed on an 80-column terminal in one row per session, its project folder whole", async () => {
  const done = cli(["handoff", "codex~1", "--to", "claude-code", "--cwd", DEEP], env);
  assert.equal(done.code, 0, done.stderr);
  const r = await onTerminal(["list"], 80);
  assert.equal(r.code, 0, r.stderr);
  const lines = plain(r.stdout).trimEnd().split("\n");
  // Header and one row per session: nothing wrapped onto a line of its own.
  const listed = cli(["list", "--json"], env);
  assert.equal(lines.length, 1 + (JSON.parse(listed.stdout) as { sessions: unknown[] }).sessions.length);
  for (const line of lines) assert.ok(stringWidth(line) <= 80, `wider than 80: ${line}`);
  const deep = lines.find((l) => l.includes(PROJECT));
  assert.ok(deep, `no row keeps ${PROJECT}:\n${lines.join("\n")}`);
  assert.match(deep, new RegExp(`…/${PROJECT}\\b`));
  // The header is bold and ids are dim on a terminal.
  assert.ok(r.stdout.startsWith(`${ESC}[1mHARNESS`), JSON.stringify(r.stdout.slice(0, 40)));
  assert.ok(r.stdout.includes(`${ESC}[2m`));
});

test("list in a pipe prints every path and title whole and no escape byte", () => {
  const r = cli(["list"], env);
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stdout.includes(ESC));
  assert.ok(r.stdout.includes(DEEP), r.stdout);
  assert.match(r.stdout, /Please remember the harbour word LANTERN for later\./);
});

test("an error is red with FORCE_COLOR even in a pipe, and plain with NO_COLOR or --no-color, which win over it", () => {
  const red = cli(["lst"], { FORCE_COLOR: "1" });
  assert.equal(red.code, 2);
  assert.ok(
    red.stderr.startsWith(`${ESC}[31msession-bridge: unknown command "lst"`),
    JSON.stringify(red.stderr),
  );
  for (
    const r of [
      cli(["lst"], { FORCE_COLOR: "1", NO_COLOR: "1" }),
      cli(["--no-color", "lst"], { FORCE_COLOR: "1" }),
    ]
  ) {
    assert.equal(r.code, 2);
    assert.ok(r.stderr.startsWith('session-bridge: unknown command "lst"'), JSON.stringify(r.stderr));
  }
  const piped = cli(["lst"], { FORCE_COLOR: "", NO_COLOR: "" });
  assert.ok(!piped.stderr.includes(ESC));
});

test("a plain line is printed without asking whether the descriptor shows colour; a toned one asks", () => {
  const asked: number[] = [];
  const printed: string[] = [];
  const output = outputTo((_, text) => printed.push(text), {
    color: (fd) => (asked.push(fd), true),
    columns: undefined,
  });
  output.out("session-bridge 0.1.0");
  assert.deepEqual(asked, []);
  output.fail("no such session");
  assert.deepEqual(asked, [2]);
  assert.equal(printed[0], "session-bridge 0.1.0\n");
  assert.match(printed[1]!, new RegExp(`^${ESC}\\[31msession-bridge: no such session`));
});

test("--no-color is taken after the command too", () => {
  const r = cli(["list", "--no-color"], { ...env, FORCE_COLOR: "1" });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stdout.includes(ESC));
});

test("help is wrapped at a terminal's width, an option's description under its own column", async () => {
  const r = await onTerminal(["handoff", "--help"], 60);
  assert.equal(r.code, 0);
  const lines = plain(r.stdout).split("\n");
  for (const line of lines) assert.ok(stringWidth(line) <= 60, `wider than 60: ${line}`);
  const model = lines.findIndex((l) => l.startsWith("  --model M"));
  const column = lines[model]!.indexOf("model the target");
  assert.ok(column > 0);
  assert.equal(lines[model + 1]!.length - lines[model + 1]!.trimStart().length, column);
});

test("help in a pipe keeps its lines as written, whatever the terminal's width", () => {
  const r = cli(["handoff", "--help"], { COLUMNS: "40" });
  assert.equal(r.code, 0);
  assert.ok(r.stdout.split("\n").some((l) => l.length > 100), "the usage line is one line in a pipe");
});

test("show leaves out the context Codex injects as messages, saying how many, and --all shows it", () => {
  const shown = cli(["show", "codex~1"], env);
  assert.equal(shown.code, 0, shown.stderr);
  assert.doesNotMatch(shown.stdout, /<environment_context>|<permissions instructions>/);
  assert.match(shown.stdout, /^\(2 harness context messages left out: --all shows them\)\n/);
  assert.match(shown.stdout, /Please remember the harbour word LANTERN/);
  const all = cli(["show", "codex~1", "--all"], env);
  assert.match(all.stdout, /<environment_context>/);
  assert.match(all.stdout, /<permissions instructions>/);
  assert.doesNotMatch(all.stdout, /left out/);
});

test("show in a pipe prints the transcript itself, never through $PAGER", () => {
  const r = cli(["show", "codex~1"], { ...env, PAGER: "echo PAGED" });
  assert.equal(r.code, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /PAGED/);
  assert.match(r.stdout, /LANTERN/);
});

const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const MAIN = fileURLToPath(new URL("../main.ts", import.meta.url));

/** The CLI running `args` in a private tmux pane of the given size, as a user's terminal in the project. */
function cliInTerminal(
  args: string[],
  size: { columns: number; rows: number },
  extra: Record<string, string> = {},
) {
  const [bin, ...pre] = scriptArgv(MAIN);
  return startTmux({
    command: bin!,
    args: [...pre, ...args],
    cwd: homes.project,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: root,
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      ...extra,
      ...env,
    },
    ...size,
  });
}

for (const [columns, rows] of [[80, 24], [200, 50]] as const) {
  test(`on a real ${columns}x${rows} terminal list shows one row per session within the width`, {
    skip: hasTmux ? false : "tmux is not installed",
  }, async () => {
    const pane = cliInTerminal(["list"], { columns, rows });
    try {
      await pane.waitForExit();
      const screen = pane.history().split("\n").filter((l) => l.trim() && !l.startsWith("Pane is dead"));
      const sessions = JSON.parse(cli(["list", "--json"], env).stdout) as { sessions: unknown[] };
      assert.equal(screen.length, 1 + sessions.sessions.length, screen.join("\n"));
      assert.ok(screen.some((l) => l.includes(PROJECT)), screen.join("\n"));
      for (const line of screen) assert.ok(stringWidth(line) <= columns);
    } finally {
      pane.close();
    }
  });
}

test("show on a real terminal goes through $PAGER, in colour: headings bold, the left-out note dim", {
  skip: hasTmux ? false : "tmux is not installed",
}, async () => {
  // A pager that marks each line it passes and shows whether colour reached it (cat -v writes ESC as ^[).
  const pane = cliInTerminal(["show", "codex~1"], { columns: 80, rows: 24 }, {
    PAGER: "cat -v | sed 's/^/paged:/'",
  });
  try {
    await pane.waitForExit();
    const seen = pane.history();
    assert.match(seen, /^paged:\^\[\[2m\(2 harness context messages left out/m);
    assert.match(seen, /^paged:\^\[\[1m\S+ user /m);
  } finally {
    pane.close();
  }
});
