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
import { startTmux, type TmuxPane } from "../lib/certify-kit/tmux.ts";
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

function open(
  homes: TuiHomes,
  extraEnv: Record<string, string> = {},
  size = { columns: 80, rows: 24 },
): TmuxPane {
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
    ...size,
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

/** The harnesses' names as the handoff screen lists them. */
const LABELS: Record<string, string> = {
  "claude-code": "Claude Code",
  codex: "Codex CLI",
  hermes: "Hermes Agent",
};

/**
 * From the picker or the transcript of the session to hand off: `h`, the target, its options, the plan paged
 * through with Enter, the separate confirm, the outcome. Nothing is in the target before the confirm; the
 * session is there after it. Each screen is saved as `<shot>` when captures are asked for.
 */
async function handOff(pane: TmuxPane, homes: TuiHomes, to: string, shot = (_name: string) => {}) {
  const label = LABELS[to]!;
  const before = (await targets(homes, to)).length;
  pane.type("h");
  await pane.waitForScreen(
    (s) => s.includes(`${label} (${to})`) && !s.includes("checking the targets"),
    "the targets checked",
  );
  shot("handoff-targets");
  for (let i = 0; i < 3 && !pane.screen().includes(`› ${label}`); i++) {
    const screen = pane.screen();
    pane.press("Down");
    await pane.waitForScreen((s) => s !== screen, "the next target");
  }
  await pane.waitForScreen((s) => s.includes(`› ${label}`), `${label} selected`);
  pane.press("Enter");
  await pane.waitForScreen(/› \[ Show plan \]/, "the options with focus on Show plan");
  shot("handoff-options");
  pane.press("Enter");
  await pane.waitForScreen(/Plan \(nothing has been written yet\)/, "the plan", 30_000);
  shot("plan");
  assert.equal((await targets(homes, to)).length, before, "nothing is written by planning");
  for (let i = 0; i < 10 && !/go to the confirm step/.test(pane.screen()); i++) {
    const screen = pane.screen();
    pane.press("Enter");
    await pane.waitForScreen((s) => s !== screen, "the next page of the plan");
  }
  shot("plan-end");
  pane.press("Enter");
  await pane.waitForScreen(/› \[ Hand off \]/, "the confirm step, focus on Hand off");
  shot("confirm");
  assert.equal((await targets(homes, to)).length, before, "nothing is written before the confirm");
  pane.press("Enter");
  const done = await pane.waitForScreen(/Handed off\. Resume with:/, "the outcome", 30_000);
  shot("done");
  assert.equal((await targets(homes, to)).length, before + 1, `the session exists in ${to}'s store`);
  return done;
}

/** From the outcome screen: `u`, the handoff just made (newest first), its confirm step, then undone. */
async function undoLatest(
  pane: TmuxPane,
  homes: TuiHomes,
  from: string,
  to: string,
  shot = (_name: string) => {},
) {
  const before = (await targets(homes, to)).length;
  pane.type("u");
  await pane.waitForScreen(new RegExp(`› .*${from} -> ${to}`), "the undo list, the newest first");
  shot("undo");
  pane.press("Enter");
  await pane.waitForScreen(/Undo this\?/, "the undo confirm step");
  shot("undo-confirm");
  pane.type("y");
  await pane.waitForScreen(/Undone\./, "the undo done", 30_000);
  assert.equal(
    (await targets(homes, to)).length,
    before - 1,
    `the undo removed the session from ${to}'s store`,
  );
}

/**
 * Back from the undo screen to the picker, every store listed again and the picker as it was left (its filter
 * `word` kept), then the filter cleared with Esc.
 */
async function backToPicker(pane: TmuxPane, word: string) {
  pane.press("Escape");
  await pane.waitForScreen((s) => /Undo a handoff/.test(s) && !/Undone\./.test(s), "the undo list");
  pane.press("Escape");
  await pane.waitForScreen(
    (s) => /sessions ·/.test(s) && !s.includes("listing…") && s.includes(`filter: ${word}`),
    "the picker, listed, its filter kept",
  );
  pane.press("Escape");
  await pane.waitForScreen((s) => s.includes("3 of 3 sessions"), "the filter cleared");
}

/** `/word` typed into the picker's filter and ended with Enter: one session left, `row` matching it. */
async function find(pane: TmuxPane, word: string, row: RegExp) {
  pane.type(`/${word}`);
  await pane.waitForScreen((s) => s.includes(`/ ${word}`), "the filter typed");
  pane.press("Enter");
  const filtered = await pane.waitForScreen(
    (s) => s.includes("1 of 3 sessions") && s.includes(`filter: ${word}`) && row.test(s),
    `one session left by the filter ${word}`,
    30_000,
  );
  return filtered;
}

test(
  "tmux walk of the compiled binary: filter, transcript, handoff, plan, confirm, resume command, session in the target, undo",
  {
    skip,
  },
  async () => {
    assert.ok(existsSync(BINARY), `no ${BINARY}: run npm run build first`);
    const homes = tuiHomes(tempDir("sb-tui-e2e-"));
    const pane = open(homes);
    const shot = (name: string) => capture(name, pane.screen());
    try {
      capture("picker", await pane.waitForScreen(/first: /, "the picker with its detail pane", 30_000));
      capture("picker-filtered", await find(pane, "harbour", /codex +Please remember the ha/));
      pane.press("Enter");
      const transcript = await pane.waitForScreen(
        /^codex · Please remember the harbour word LANTERN/m,
        "the transcript",
        30_000,
      );
      capture("transcript", transcript);
      const done = await handOff(pane, homes, "hermes", shot);
      assert.match(done.replace(/\n/g, ""), /HERMES_HOME=\S+ hermes/);
      await undoLatest(pane, homes, "codex", "hermes", shot);
      pane.type("q");
      await pane.waitForExit(10_000);
      // The one handoff was undone: no resume command is left on the normal screen for it.
      assert.doesNotMatch(pane.screen(), /resume with:/);
    } finally {
      pane.close();
    }
  },
);

test(
  "tmux walk: a Claude Code session found by a word of its last message goes to Codex and to Hermes, a Codex one to Claude Code, each found in its target and undone; only handoffs still standing are printed on quitting",
  {
    skip,
  },
  async () => {
    assert.ok(existsSync(BINARY), `no ${BINARY}: run npm run build first`);
    const homes = tuiHomes(tempDir("sb-tui-e2e-"));
    let pane = open(homes);
    try {
      await pane.waitForScreen(
        (s) => /3 of 3 sessions/.test(s) && !s.includes("listing…"),
        "every store",
        30_000,
      );
      for (const to of ["codex", "hermes"]) {
        await find(pane, "fixture-tui-tool-output", /claude-code +Interactive fixture/);
        const done = await handOff(pane, homes, to);
        assert.match(done.replace(/\n/g, ""), to === "codex" ? /codex resume / : /hermes chat --resume /);
        await undoLatest(pane, homes, "claude-code", to);
        await backToPicker(pane, "fixture-tui-tool-output");
      }
      await find(pane, "harbour", /codex +Please remember the ha/);
      const done = await handOff(pane, homes, "claude-code");
      assert.match(done.replace(/\n/g, ""), /claude --resume /);
      pane.type("q");
      await pane.waitForExit(10_000);
      // After the TUI closes, the resume command of the handoff still standing is left to copy; not the undone.
      const printed = pane.screen().replace(/\n/g, "");
      assert.match(printed, /resume with:.*claude --resume \S+undo with:/);
      assert.doesNotMatch(printed, /codex resume |hermes chat --resume /);
      pane.close();
      // Started again, the TUI's undo list still has it.
      pane = open(homes);
      await pane.waitForScreen(
        (s) => /4 of 4 sessions/.test(s) && !s.includes("listing…"),
        "every store",
        30_000,
      );
      await undoLatest(pane, homes, "codex", "claude-code");
      pane.type("q");
      await pane.waitForExit(10_000);
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

test(
  "tmux at 200×50: the picker's headings stand over their columns, directories whole; the plan's ids, paths and resume command each whole on a line",
  {
    skip,
  },
  async () => {
    assert.ok(existsSync(BINARY), `no ${BINARY}: run npm run build first`);
    const homes = tuiHomes(tempDir("sb-tui-e2e-"));
    const pane = open(homes, {}, { columns: 200, rows: 50 });
    try {
      const picker = await pane.waitForScreen(/first: /, "the picker with its detail pane", 30_000);
      capture("picker-200x50", picker);
      const lines = picker.split("\n");
      const header = lines.find((l) => l.includes("HARNESS"));
      assert.ok(header, "the column headings");
      const rows = lines.filter((l) => / ago +/.test(l));
      assert.equal(rows.length, 3);
      for (const row of rows) {
        assert.equal(row.indexOf("/home/user/project "), header.indexOf("DIRECTORY"), row);
        assert.equal(row.trimEnd().length, header.trimEnd().length, row);
      }
      pane.type("h");
      await pane.waitForScreen(
        (s) => s.includes("Codex CLI (codex)") && !s.includes("checking the targets"),
        "the targets checked",
      );
      capture("handoff-targets-200x50", pane.screen());
      pane.press("Down");
      await pane.waitForScreen(/› Codex CLI/, "Codex CLI selected");
      pane.press("Enter");
      await pane.waitForScreen(/› \[ Show plan \]/, "the options with focus on Show plan");
      pane.press("Enter");
      const plan = await pane.waitForScreen(/go to the confirm step/, "the whole plan on one page", 30_000);
      capture("plan-200x50", plan);
      assert.match(
        plan,
        /^From claude-code, session:\n {2}[0-9a-f-]{36}\s*\nto codex, as session:\n {2}[0-9a-f-]{36}\s*$/m,
      );
      assert.match(plan, /^Resume with:\n {2}cd \S+ && CODEX_HOME=\S+ codex resume [0-9a-f-]{36}\s*$/m);
      pane.type("q");
      await pane.waitForExit(10_000);
    } finally {
      pane.close();
    }
  },
);
