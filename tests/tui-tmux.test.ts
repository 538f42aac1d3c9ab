/**
 * The TUI end to end in a real terminal: tmux runs the COMPILED binary (dist/session-bridge, `npm run build`)
 * with no arguments in an 80×24 pane, against homes seeded from the real fixtures, and the test walks it by
 * keys and `capture-pane`: filter → transcript → handoff → plan → confirm → resume command → the session is in
 * the target → undo; and a hostile transcript that must not break the screen. CI runs it after the build step
 * with SESSION_BRIDGE_TUI_E2E=1 (without the binary it then fails; elsewhere it skips, saying why).
 * SESSION_BRIDGE_TUI_CAPTURES=DIR saves each screen as text (the README's captures come from there).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startTmux, type TmuxPane } from "../lib/certify/tmux.ts";
import { stores } from "../lib/mod.ts";
import { listedRows, tuiEnv, type TuiHomes, tuiHomes } from "./helpers/tui-homes.ts";
import { tempDir } from "./helpers/tmp.ts";

const BINARY = fileURLToPath(new URL("../dist/session-bridge", import.meta.url));
const REQUIRED = process.env.SESSION_BRIDGE_TUI_E2E === "1";
const CAPTURES = process.env.SESSION_BRIDGE_TUI_CAPTURES;
const hasTmux = spawnSync("tmux", ["-V"]).status === 0;
const skip = REQUIRED
  ? false
  : !existsSync(BINARY)
  ? "no dist/session-bridge (run npm run build first)"
  : !hasTmux
  ? "tmux is not installed"
  : false;
if (skip) console.log(`tui-tmux: skipped: ${skip}`);

function open(homes: TuiHomes, extraEnv: Record<string, string> = {}): TmuxPane {
  return startTmux({
    command: BINARY,
    args: [],
    cwd: homes.project,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      HOME: homes.root,
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      ...tuiEnv(homes),
      ...extraEnv,
    },
    columns: 80,
    rows: 24,
  });
}

function capture(name: string, screen: string) {
  if (!CAPTURES) return;
  mkdirSync(CAPTURES, { recursive: true });
  writeFileSync(
    join(CAPTURES, `${name}.txt`),
    screen.split("\n").map((l) => l.trimEnd()).join("\n").trimEnd() + "\n",
  );
}

/** The screen fits 80×24 and no control character from a session reached the terminal. */
function assertContained(screen: string) {
  const lines = screen.replace(/\n$/, "").split("\n");
  assert.ok(lines.length <= 24, `${lines.length} lines`);
  for (const line of lines) assert.ok([...line].length <= 80, `too wide: ${line}`);
}

const targets = async (homes: TuiHomes, harness: string) => {
  const env = tuiEnv(homes);
  const rows = (await listedRows({
    ...stores({ env }),
    env,
    targetVersions: {},
    cwd: homes.project,
    now: () => new Date(),
  }))
    .rows;
  return rows.filter((r) => r.summary.harness === harness);
};

test(
  "tmux walk of the compiled binary: filter, transcript, handoff, plan, confirm, resume command, session in the target, undo",
  {
    skip,
  },
  async () => {
    assert.ok(existsSync(BINARY), `no ${BINARY}: run npm run build first`);
    const homes = tuiHomes(tempDir("sb-tui-e2e-"));
    const pane = open(homes);
    try {
      capture("picker", await pane.waitForScreen(/first: /, "the picker with its detail pane", 30_000));
      pane.type("/harbour");
      await pane.waitForScreen(/\/ harbour/, "the filter typed");
      pane.press("Enter");
      const filtered = await pane.waitForScreen(
        (s) => s.includes("1 of 3 sessions") && s.includes("filter: harbour"),
        "one session left by the filter, typing ended",
      );
      capture("picker-filtered", filtered);
      assert.match(filtered, /codex +Please remember the ha/);
      pane.press("Enter");
      const transcript = await pane.waitForScreen(
        /^codex · Please remember the harbour word LANTERN/m,
        "the transcript",
        30_000,
      );
      capture("transcript", transcript);
      assert.match(transcript, /^codex · Please remember the harbour word LANTERN/m);
      pane.type("h");
      await pane.waitForScreen(
        (s) => /Hermes Agent \(hermes\)/.test(s) && !s.includes("checking the targets"),
        "targets",
      );
      capture("handoff-targets", pane.screen());
      pane.press("Down", "Down");
      await pane.waitForScreen(/› Hermes Agent/, "Hermes selected");
      pane.press("Enter");
      const form = await pane.waitForScreen(/› \[ Show plan \]/, "the options with focus on Show plan");
      capture("handoff-options", form);
      pane.press("Enter");
      const plan = await pane.waitForScreen(/Plan \(nothing has been written yet\)/, "the plan", 30_000);
      capture("plan", plan);
      assert.equal((await targets(homes, "hermes")).length, 1, "nothing is written by planning");
      for (let i = 0; i < 10 && !/go to the confirm step/.test(pane.screen()); i++) {
        const before = pane.screen();
        pane.press("Enter");
        await pane.waitForScreen((s) => s !== before, "the next page of the plan");
      }
      capture("plan-end", pane.screen());
      pane.press("Enter");
      capture("confirm", await pane.waitForScreen(/› \[ Hand off \]/, "the confirm step, focus on Hand off"));
      assert.equal((await targets(homes, "hermes")).length, 1, "nothing is written before the confirm");
      pane.press("Enter");
      const done = await pane.waitForScreen(/Handed off\. Resume with:/, "the outcome", 30_000);
      capture("done", done);
      assert.match(done.replace(/\n/g, ""), /HERMES_HOME=\S+ hermes/);
      assert.equal((await targets(homes, "hermes")).length, 2, "the session exists in the target");
      pane.type("u");
      const undo = await pane.waitForScreen(/› .*codex -> hermes/, "the undo list");
      capture("undo", undo);
      pane.press("Enter");
      capture("undo-confirm", await pane.waitForScreen(/Undo this\?/, "the undo confirm step"));
      pane.type("y");
      await pane.waitForScreen(/Undone\./, "the undo done", 30_000);
      assert.equal((await targets(homes, "hermes")).length, 1, "the undo removed the handed-off session");
      pane.type("q");
      await pane.waitForExit(10_000);
      // After the TUI closes, the resume command stays on the normal screen to copy.
      assert.match(pane.screen().replace(/\n/g, ""), /resume with:/);
    } finally {
      pane.close();
    }
  },
);

test(
  "tmux: a hostile transcript (escapes, bidi, markup, a 1 MB line) renders as text in 80×24 (under NO_COLOR)",
  {
    skip,
  },
  async () => {
    const homes = tuiHomes(tempDir("sb-tui-e2e-"), { hostile: true });
    const pane = open(homes, { NO_COLOR: "1" });
    try {
      const picker = await pane.waitForScreen(/first: \\u001b\[2J/, "the hostile session's detail", 30_000);
      assertContained(picker);
      pane.press("Enter");
      const screen = await pane.waitForScreen(
        /\\u202eevil\.exe\\u202c/,
        "the hostile transcript as text",
        30_000,
      );
      capture("hostile", screen);
      assertContained(screen);
      assert.match(
        screen,
        /^claude-code · /m,
        "the title line is still the first line: nothing cleared or moved it",
      );
      assert.match(screen, /\[bold\]<b>markup<\/b>\[\/bold\]/);
      pane.type("G");
      const end = await pane.waitForScreen(/line (\d+)\/\1/, "the last line of the transcript", 30_000);
      assertContained(end);
      pane.type("q");
      await pane.waitForExit(10_000);
    } finally {
      pane.close();
    }
  },
);
