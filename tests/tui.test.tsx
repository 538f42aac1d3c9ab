/**
 * The TUI's screens, rendered with ink-testing-library over homes seeded from the real fixtures and driven by
 * keys: picker, detail pane, filter and narrowing, transcript (hostile text included), handoff form, plan,
 * confirm, outcome, undo (and a resumed session's forced undo), and a broken store shown as a message.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { App } from "../lib/tui/app.tsx";
import { readEnds, startListing, type TuiContext } from "../lib/tui/data.ts";
import type { Row } from "../lib/tui/row.ts";
import { endsMatch, SCAN_CONCURRENCY, scanEnds } from "../lib/tui/search.ts";
import { centeredWindow } from "../lib/tui/window.ts";
import { type HandoffReplay, type Registry, stores } from "../lib/mod.ts";
import { handoffCommandLine } from "../lib/cli/replay.ts";
import { DatabaseSync } from "node:sqlite";
import {
  holdingStore,
  HOSTILE_TEXT,
  listedRows,
  tuiEnv,
  type TuiHomes,
  tuiHomes,
} from "./helpers/tui-homes.ts";
import { tempDir } from "./helpers/tmp.ts";
import { draw, until } from "./helpers/frames.ts";
import { type Feedback, startProgress } from "../lib/io/progress.ts";
import { builtinRegistry } from "../lib/harnesses/registry.ts";
import type { ReadOptions } from "../lib/harnesses/types.ts";

const SIZE = { columns: 80, rows: 24 };
const ESC = "\u001b";
const KEYS = { enter: "\r", escape: ESC, down: `${ESC}[B`, tab: "\t" };
const BACKSPACE = "\x7f";

function contextFor(homes: TuiHomes): TuiContext {
  const env = tuiEnv(homes);
  const where = stores({ env });
  const commandLine = (replay: HandoffReplay) => handoffCommandLine(replay, where.registry);
  return { ...where, env, targetVersions: {}, cwd: homes.project, now: () => new Date(), commandLine };
}

/** The stores alone, for calling the library directly. */
function where(homes: TuiHomes) {
  const { registry, homes: h, bridgeHome } = contextFor(homes);
  return { registry, homes: h, bridgeHome };
}

/** The App over `homes`, every store listed; `size` and a fixed clock (`now`: ages that do not tick) may be given. */
async function open(homes: TuiHomes, { size = SIZE, now }: { size?: typeof SIZE; now?: Date } = {}) {
  const context = { ...contextFor(homes), ...(now ? { now: () => now } : {}) };
  const ui = draw(<App context={context} size={size} />);
  const screen = () => ui.lastFrame();
  const see = (text: string | RegExp) =>
    until(ui, (f) => (typeof text === "string" ? f.includes(text) : text.test(f)));
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      ui.stdin.write(k);
      // Ink reads a lone ESC as Escape only once no more bytes follow it.
      await new Promise((r) => setImmediate(r));
    }
  };
  await until(ui, (f) => f.includes("sessions ·") && !f.includes("listing…"));
  return { ui, screen, see, press };
}

/** Every line fits the 80×24 screen, and no terminal control character reaches it. */
function assertContained(frame: string) {
  const lines = frame.split("\n");
  assert.ok(lines.length <= SIZE.rows, `${lines.length} lines`);
  for (const line of lines) {
    assert.ok([...line].length <= SIZE.columns, `line too wide: ${line.slice(0, 100)}`);
  }
  // The control characters are the point: none may reach the screen.
  // deno-lint-ignore no-control-regex
  assert.doesNotMatch(frame, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
}

test("the picker lists every session of every store, newest first, with harness, title, directory, age and size", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { ui, screen, see } = await open(homes);
  await see("3 of 3");
  const frame = screen()!;
  assert.match(frame, /claude-code +Interactive fixture/);
  assert.match(frame, /codex +Please remember the ha/);
  assert.match(frame, /hermes +Please describe the we/);
  assert.match(frame, /\/home\/u[^ ]*…\/project /);
  assert.match(frame, /\d+(\.\d)? KB/);
  // Newest first: the Claude session was copied into its home just now, the others keep their recorded times.
  assert.ok(frame.indexOf("claude-code") < frame.indexOf("hermes"));
  assertContained(frame);
  ui.unmount();
});

test("the picker has column headers over its cells, aligned with the rows at 80 and at 200 columns", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  for (const columns of [80, 200]) {
    const { ui, screen } = await open(homes, { size: { columns, rows: 24 } });
    const lines = screen()!.split("\n");
    const header = lines.find((l) => l.includes("HARNESS"));
    assert.ok(header, `no header at ${columns} columns`);
    const rows = lines.filter((l) => / ago +/.test(l));
    assert.equal(rows.length, 3);
    for (const row of rows) {
      const at = (pattern: RegExp) => row.search(pattern);
      assert.equal(at(/(claude-code|codex|hermes) /), header.indexOf("HARNESS"), row);
      assert.equal(at(/(Interactive|Please)/), header.indexOf("TITLE"), row);
      assert.equal(at(/\/home\//), header.indexOf("DIRECTORY"), row);
      // Ages, counts and sizes line up on their right, under the right end of their heading.
      assert.equal(at(/ ago /) + " ago".length, header.indexOf("UPDATED") + "UPDATED".length, row);
      assert.equal(row.trimEnd().length, header.trimEnd().length, row);
    }
    ui.unmount();
  }
});

test("at 80 columns a long directory loses its middle and keeps its last folder, the project's name", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { ui, screen } = await open(homes);
  const rows = screen()!.split("\n").filter((l) => / ago +/.test(l));
  assert.equal(rows.length, 3);
  // The fixtures were recorded in /home/user/project, longer than the column at 80.
  for (const row of rows) assert.match(row, / \/home\/u[^ ]*…\/project +\d/, row);
  ui.unmount();
});

test("a long step's progress and a store's notice show on the status line (the screen is the TUI's, not stderr's)", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  // The detail pane's read of the selected session is held, and hands over what the App gave it to report on.
  let given!: (feedback: Feedback | undefined) => void;
  const reading = new Promise<Feedback | undefined>((resolve) => (given = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const registry: Registry = {
    harnesses: builtinRegistry.harnesses.map((h) => ({
      ...h,
      store: {
        ...h.store,
        read: async (path: string, options?: ReadOptions) => {
          given(options?.feedback);
          await gate;
          return await h.store.read(path, options);
        },
      },
    })),
  };
  const ui = draw(<App context={{ ...contextFor(homes), registry }} size={SIZE} progressAfterMs={0} />);
  const feedback = await reading;
  // As the library reports a long read (its first update: shown at once here).
  const step = startProgress(feedback, "reading /s/\u001b[2Jlong.jsonl", "bytes", 70 * 1048576);
  await until(ui, (f) => /reading \/s\/\\u001b\[2Jlong\.jsonl: 0\.0 of 70\.0 MB \(0%\), \d+\.\d s/.test(f));
  assertContained(ui.lastFrame()!);
  step.finish();
  await until(ui, (f) => !f.includes("long.jsonl"));
  feedback?.notice?.("/s/state.db is locked by another process: waiting up to 30 s");
  await until(ui, (f) => f.includes("is locked by another process"));
  release();
  ui.unmount();
});
test("the detail pane is read lazily for the selected session: first and last message, counts, pending, drift", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { ui, see, screen } = await open(homes);
  await see("first: Interactive fixture: a prompt typed into the TUI.");
  await see("last:  Tool said: fixture-tui-tool-output");
  assert.match(screen()!, /7 messages, 1 tool calls · models: claude-opus-5-5/);
  assert.match(screen()!, /pending: none · drift: none/);
  ui.unmount();
});

test("typing after / filters fuzzily over title, messages, directory and id; Tab narrows by harness; . to this directory", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { ui, see, press, screen } = await open(homes);
  await press("/", ..."weathr", KEYS.enter);
  await see("1 of 3 sessions");
  assert.match(screen()!, /hermes +Please describe the we/);
  await press(KEYS.escape);
  await see("3 of 3 sessions");
  await press(KEYS.tab);
  await see("1 of 3 sessions · claude-code");
  await press(KEYS.tab);
  await see("1 of 3 sessions · codex");
  await press(".");
  // The fixtures were recorded in /home/user/project, not in the directory the TUI runs in.
  await see("0 of 3 sessions · codex, this directory");
  await see("no session matches");
  ui.unmount();
});

/** Renders the App over `registry` without waiting for every store (open() waits for them all). */
function openHeld(homes: TuiHomes, registry: Registry) {
  const ui = draw(<App context={{ ...contextFor(homes), registry }} size={SIZE} />);
  const screen = () => ui.lastFrame() ?? "";
  const see = (ok: (f: string) => boolean) => until(ui, ok);
  return { ui, screen, see };
}

/** The line of the row under the cursor. */
const cursorLine = (frame: string) => frame.split("\n").find((l) => l.startsWith("›")) ?? "";

test("the picker is drawn at once and fills store by store: a store still listing says so, rows newest first as they come", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const held = holdingStore("hermes");
  const { ui, screen, see } = openHeld(homes, held.registry);
  const early = await see((f) => /codex +Please remember/.test(f));
  assert.match(early, /listing… hermes/);
  assert.match(early, /2 of 2 sessions/);
  // The detail of a row nobody chose waits for the listing: the first row may still change.
  assert.match(early, /read once every store is listed/);
  assert.doesNotMatch(early, /hermes +Please describe/);
  assert.ok(early.indexOf("claude-code ") < early.indexOf("codex "), "newest first");
  held.release();
  // The stores after it (an empty one) list once it is done: the picker settles when none is listing.
  const all = await see((f) => /hermes +Please describe the we/.test(f) && !/listing…/.test(f));
  assert.match(all, /3 of 3 sessions/);
  assert.ok(all.indexOf("codex ") < all.indexOf("hermes "), "merged newest first");
  assert.match(cursorLine(screen()), /claude-code/, "untouched, the cursor stayed on the first row");
  ui.unmount();
});

test("a session chosen while stores are still listing stays selected when newer sessions arrive above it", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"), { hostile: true });
  // The Codex session is the newest of all (its messages, all of 2026-12-01, dated two days later), and its
  // store answers after Claude Code's.
  const db = new DatabaseSync(join(homes.codex, "state_5.sqlite"));
  const { rollout_path: rollout } = db.prepare("SELECT rollout_path FROM threads").get() as {
    rollout_path: string;
  };
  db.close();
  const captured = readFileSync(rollout, "utf8");
  writeFileSync(rollout, captured.replaceAll('"timestamp":"2026-12-01T', '"timestamp":"2026-12-03T'));
  const held = holdingStore("codex");
  const { ui, see } = openHeld(homes, held.registry);
  await see((f) => /listing… codex, hermes/.test(f) && /2 of 2 sessions/.test(f));
  ui.stdin.write("j");
  // The hostile session is the newest of Claude Code's; j chooses the one below it.
  const chosen = await see((f) => /Interactive fixture/.test(cursorLine(f)));
  // Harness and title: the age at the end of the line ticks on between frames.
  const picked = cursorLine(chosen).slice(0, 40);
  const head = chosen.split("\n").find((l) => l.startsWith("claude-code "))!;
  held.release();
  const after = await see((f) => /4 of 4 sessions/.test(f) && !/listing…/.test(f));
  assert.match(after, /codex +Please remember/);
  assert.ok(after.indexOf("codex ") < after.indexOf(picked.slice(2)), "the newer session arrived above");
  assert.equal(cursorLine(after).slice(0, 40), picked, "the same row is selected");
  assert.ok(after.includes(head), "the detail pane still shows the chosen session");
  ui.unmount();
});

test("the filter finds a session by a word of its last message, never opened: the unmatched sessions are read for it", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { ui, see, press, screen } = await open(homes);
  // Neither word is in any title, directory or id; the Hermes and Codex sessions were never selected.
  await press("/", ..."interactive-tool-output", KEYS.enter);
  await see(/1 of 3 sessions[^]*hermes +Please describe the we/);
  assert.doesNotMatch(screen()!, /reading first and last messages/);
  await press(KEYS.escape);
  await see("3 of 3 sessions");
  await press("/", ..."typed-tool-ran", KEYS.enter);
  await see(/1 of 3 sessions[^]*codex +Please remember the ha/);
  ui.unmount();
});

test("the message scan reads the unmatched sessions a few at a time and stops once enough match or the filter changed", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"), { hostile: true });
  const context = contextFor(homes);
  const rows = (await listedRows(context)).rows;
  const reads: string[] = [];
  let open = 0;
  let most = 0;
  const read = async (row: Row) => {
    reads.push(row.summary.harness);
    most = Math.max(most, ++open);
    try {
      return await readEnds(context, row);
    } finally {
      open--;
    }
  };
  const scan = (query: string, wanted: number, cancelled = () => false) => {
    const found: string[] = [];
    reads.length = 0;
    return scanEnds({
      candidates: rows,
      wanted,
      read,
      matches: (ends) => endsMatch(query, ends),
      onRead: (row, ends) => endsMatch(query, ends) && found.push(row.summary.harness),
      cancelled,
    }).then(() => found);
  };
  // A word only the last of the four (Hermes, the oldest) says: every session is read, two at a time at most.
  assert.deepEqual(await scan("interactive-tool-output", 1), ["hermes"]);
  assert.equal(reads.length, 4);
  assert.equal(most, SCAN_CONCURRENCY);
  // Enough matched: the scan stops short of the older sessions.
  assert.equal((await scan("tool said", 1))[0], "claude-code");
  assert.ok(reads.length < 4, `read ${reads.length} sessions`);
  // A filter changed after the first read: nothing more is read.
  let changed = false;
  const stopped = scan("no session says this", 4, () => changed);
  changed = true;
  assert.deepEqual(await stopped, []);
  assert.ok(reads.length <= SCAN_CONCURRENCY, `read ${reads.length} sessions after the change`);
});

test("a session last active months ago says so in its column and still shows its whole size", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const later = new Date(Date.now() + 90 * 86_400_000);
  const ui = draw(<App context={{ ...contextFor(homes), now: () => later }} size={SIZE} />);
  const frame = await until(ui, (f) => /3 of 3 sessions/.test(f));
  const rows = frame.split("\n").filter((l) => / 3mo ago /.test(l));
  assert.equal(rows.length, 3, frame);
  for (const line of rows) assert.match(line, /\d+(\.\d)? KB\*?$/, `the size is cut off: ${line}`);
  ui.unmount();
});

test("sessions sharing one database are rows of their own: keyed by store, path and id, none collides", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"), { hermesScenario: "foreign" });
  const { rows } = await listedRows(contextFor(homes));
  const hermes = rows.filter((r) => r.summary.harness === "hermes");
  assert.ok(hermes.length > 1, "the foreign scenario keeps several sessions in one state.db");
  assert.equal(new Set(rows.map((r) => r.key)).size, rows.length);
  assert.ok(hermes.every((r) => r.sharedFile));
});

test("a session changed in the last minute is marked live; one last written hours ago is not", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { rows } = await listedRows(contextFor(homes));
  const by = (h: string) => rows.find((r) => r.summary.harness === h)!;
  // The Claude file was copied into its home just now; the Hermes rows keep the times the fixture recorded.
  assert.equal(by("claude-code").live, true);
  assert.equal(by("hermes").live, false);
});

test("the transcript shows every turn with reasoning, tool calls and results; tool output opens and closes; / searches", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { ui, see, press, screen } = await open(homes);
  await press(KEYS.enter);
  await see("── user");
  const frame = screen()!;
  assert.match(frame, /Interactive fixture: a prompt typed into the TUI\./);
  assert.match(frame, /\[reasoning\]/);
  assert.match(frame, /\[tool call Bash toolu_/);
  assert.match(frame, /\[tool result toolu_/);
  assert.match(frame, /\(4 lines, Enter opens\)/);
  await press(KEYS.tab);
  await see("(Enter closes)");
  await press(KEYS.tab);
  await see("Enter opens");
  await press("/", ..."fixture-tui-tool", KEYS.enter);
  await see(/search: fixture-tui-tool/);
  await press(KEYS.escape);
  await see("sessions ·");
  ui.unmount();
});

test("a hostile transcript (escapes, bidi overrides, markup, a 1 MB line) is shown as text and never breaks the screen", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"), { hostile: true });
  const { ui, see, press, screen } = await open(homes);
  // The hostile session is the newest: selected first.
  await see("first: \\u001b[2J");
  assertContained(screen()!);
  await press(KEYS.enter);
  await see("\\u202eevil.exe\\u202c");
  const frame = screen()!;
  assert.match(frame, /\\u001b\]0;pwned-title\\u0007/);
  assert.match(
    frame,
    /\[bold\]<b>markup<\/b>\[\/bold\] \{\{template\}\} <system-reminder>obey<\/system-reminder>/,
  );
  assert.match(frame, /x{80}/);
  assertContained(frame);
  await press("G");
  await see(/line \d{5}\/\d{5}/);
  assertContained(screen()!);
  assert.ok(HOSTILE_TEXT.length > 1024 * 1024);
  ui.unmount();
});

test("handoff: only valid targets, options for the target, a plan in plain words, a separate confirm, then the resume command", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { ui, see, press, screen } = await open(homes);
  await press("h");
  await see("Hermes Agent (hermes)");
  await until(ui, (f) => !f.includes("checking the targets"));
  assert.match(screen()!, /› Claude Code \(claude-code\), a copy in the same harness/);
  await press(KEYS.down, KEYS.enter);
  await see("Target: Codex CLI");
  // Focus lands on the screen's action; the fields are the target's (directory, title, model, id, handshake).
  assert.match(screen()!, /› \[ Show plan \]/);
  for (const label of ["Directory", "Title", "Model", "Session id", "Resume handshake"]) {
    assert.match(screen()!, new RegExp(label));
  }
  assert.match(screen()!, new RegExp(`Directory +${homes.project}`));
  await press(KEYS.enter);
  await see("Plan (nothing has been written yet):");
  // Enter pages through the plan before it can reach the confirm step: nothing unseen is confirmed.
  for (let i = 0; i < 10 && !/go to the confirm step/.test(screen()!); i++) {
    const before = screen();
    await press(KEYS.enter);
    await until(ui, (f) => f !== before);
  }
  const codexDb = join(homes.codex, "state_5.sqlite");
  const plan = await see("The same handoff on the command line:");
  assert.match(plan, /session-bridge handoff /);
  await press(KEYS.enter);
  await see("› [ Hand off ]");
  const threads =
    (await listedRows(contextFor(homes))).rows.filter((r) => r.summary.harness === "codex").length;
  assert.equal(threads, 1, "nothing is written before the confirm step");
  await press(KEYS.enter);
  await see("Handed off. Resume with:");
  // Wrapped at the screen's width; the TUI also prints it on the normal screen when it closes.
  assert.match(screen()!.replace(/\n/g, ""), /CODEX_HOME=\S+ codex resume [0-9a-f-]{36}/);
  await see(/session-bridge undo [0-9a-f-]{8}/);
  assert.ok(existsSync(codexDb));
  const after = (await listedRows(contextFor(homes))).rows.filter((r) => r.summary.harness === "codex");
  assert.equal(after.length, 2, "the session exists in the target");
  ui.unmount();
});

/**
 * The lines after `heading` that hold one token: the first indented two, each but the last as wide as the screen
 * (a break only at its edge), joined: the token, or undefined when its lines are not laid out so.
 */
function tokenAfter(frame: string, heading: string, width: number): string | undefined {
  const lines = frame.split("\n");
  const at = lines.indexOf(heading);
  if (at < 0 || !lines[at + 1]?.startsWith("  ")) return undefined;
  let text = "";
  for (const line of lines.slice(at + 1)) {
    text += line;
    if ([...line].length < width) return text.slice(2);
  }
  return undefined;
}

test("ids, paths and the resume command on the plan and done screens are each whole on a line of their own, broken only at the screen's edge", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  // Tall enough for the whole plan on one page; 80 columns, narrower than the resume command.
  const { ui, see, press } = await open(homes, { size: { columns: 80, rows: 70 } });
  await press("h");
  await until(ui, (f) => f.includes("Hermes Agent (hermes)") && !f.includes("checking the targets"));
  await press(KEYS.down, KEYS.enter);
  await see("› [ Show plan ]");
  await press(KEYS.enter);
  const plan = await see("go to the confirm step");
  const source = (await listedRows(contextFor(homes))).rows[0]!.summary.id;
  assert.equal(tokenAfter(plan, "From claude-code, session:", 80), source);
  assert.match(tokenAfter(plan, "to codex, as session:", 80) ?? "", /^[0-9a-f-]{36}$/);
  assert.equal(tokenAfter(plan, "Will write rows in:", 80), join(homes.codex, "state_5.sqlite"));
  assert.match(tokenAfter(plan, "Will write the files:", 80) ?? "", /^\/\S+\/rollout-\S+\.jsonl$/);
  const resume = tokenAfter(plan, "Resume with:", 80) ?? "";
  assert.ok(resume.length > 80, "the command is longer than the screen is wide");
  assert.match(resume, /^cd \S+ && CODEX_HOME=\S+ codex resume [0-9a-f-]{36}$/);
  assert.match(
    tokenAfter(plan, "The same handoff on the command line:", 80) ?? "",
    /^session-bridge handoff \S+ --to codex /,
  );
  await press(KEYS.enter);
  await see("› [ Hand off ]");
  await press(KEYS.enter);
  const done = await see("Handed off. Resume with:");
  assert.equal(tokenAfter(done, "Handed off. Resume with:", 80), resume);
  assert.match(
    tokenAfter(done, "Undo with (or press u here):", 80) ?? "",
    /^session-bridge undo [0-9a-f-]{36}$/,
  );
  assert.match(tokenAfter(done, "Wrote rows in:", 80) ?? "", /state_5\.sqlite$/);
  ui.unmount();
});

test("a target not available shows its whole reason, wrapped, and how to fix it: the flag or variable naming another home, and doctor", async () => {
  // OpenCode's data folder is empty: a handoff into it is refused for want of its state database.
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { ui, press } = await open(homes);
  await press("h");
  const frame = await until(
    ui,
    (f) => f.includes("OpenCode: not available") && !f.includes("checking the targets"),
  );
  // The lines read on as one text: the reason is all there (wrapped between words, never cut with an ellipsis).
  const text = frame.split("\n").map((l) => l.trim()).join(" ");
  const reason =
    `no OpenCode state database in ${homes.opencode} (run opencode there once so it creates one)`;
  assert.ok(text.includes(`OpenCode: not available: ${reason}`), text);
  assert.ok(text.includes("fix: start with --opencode-home DIR naming another OpenCode data folder"), text);
  assert.ok(text.includes("or set $XDG_DATA_HOME (the folder holding opencode/)"), text);
  assert.ok(text.includes("session-bridge doctor says what each harness needs."), text);
  assertContained(frame);
  ui.unmount();
});

type Opened = Awaited<ReturnType<typeof open>>;

/** The handoff form of the Hermes Agent session, Codex chosen as the target. */
async function codexForm(): Promise<Opened> {
  const opened = await open(tuiHomes(tempDir("sb-tui-")));
  const { ui, see, press } = opened;
  await press("h");
  await see("Hermes Agent (hermes)");
  await until(ui, (f) => !f.includes("checking the targets"));
  await press(KEYS.down, KEYS.enter);
  await see("Target: Codex CLI");
  return opened;
}

/** Moves the form's cursor with `key` (j down, k up) until the line of `field` is the selected one. */
async function moveTo({ ui, press, screen }: Opened, field: RegExp, key: "j" | "k") {
  for (let i = 0; i < 12 && !field.test(screen()!); i++) {
    const before = screen();
    await press(key);
    await until(ui, (f) => f !== before);
  }
}

/** The form's plan paged through to the command line that makes the same handoff, as one text. */
async function planCommandLine(opened: Opened): Promise<string> {
  const { ui, see, press, screen } = opened;
  await moveTo(opened, /› \[ Show plan \]/, "j");
  await press(KEYS.enter);
  await see("Plan (nothing has been written yet):");
  for (let i = 0; i < 10 && !/The same handoff on the command line:/.test(screen()!); i++) {
    const before = screen();
    await press(KEYS.enter);
    await until(ui, (f) => f !== before);
  }
  // The command line, wrapped at the screen's width, may go on over the next page: its pages' text, joined.
  const pages = [await see("The same handoff on the command line:")];
  for (let i = 0; i < 10 && !/go to the confirm step/.test(pages.at(-1)!); i++) {
    await press(KEYS.enter);
    pages.push(await until(ui, (f) => f !== pages.at(-1)));
  }
  return pages.map((p) => p.split("\n").filter((l) => !/^Enter/.test(l)).join("")).join("");
}

test("handoff: the Permissions field narrows to the target's default unless toggled to keep, which the command line carries", async () => {
  const opened = await codexForm();
  const { ui, see, press, screen } = opened;
  assert.match(screen()!, /Permissions +no wider than the target's default/);
  await moveTo(opened, /› Permissions/, "k");
  await press(" ");
  await see(/› Permissions +the source's, even where the target would ask/);
  assert.match(await planCommandLine(opened), /--to codex .*--permissions keep/);
  ui.unmount();
});

test("handoff: the Fit to window field refuses what --fit refuses, in its words, and the command line carries what it takes", async () => {
  const opened = await codexForm();
  const { ui, see, press, screen } = opened;
  assert.match(screen()!, /Fit to window +auto \(summarize only if over the window\)/);
  await moveTo(opened, /› Fit to window/, "k");
  await press(KEYS.enter, "h", "a", "l", "f", KEYS.enter);
  await see('--fit takes auto, off or a number of tokens, not "half"');
  await press(BACKSPACE, BACKSPACE, BACKSPACE, BACKSPACE, "o", "f", "f", KEYS.enter);
  await see(/› Fit to window +off/);
  assert.match(await planCommandLine(opened), /--to codex .*--fit off/);
  ui.unmount();
});

test("handoff: the Summarize with field takes a harness's name, refuses another word in --summarize-with's words, and the command line carries it", async () => {
  const opened = await codexForm();
  const { ui, see, press, screen } = opened;
  assert.match(screen()!, /Summarize with +\(no model: session-bridge's summary\)/);
  await moveTo(opened, /› Summarize with/, "k");
  await press(KEYS.enter, "g", "p", "t", KEYS.enter);
  await see(/unknown harness "gpt"/);
  await press(BACKSPACE, BACKSPACE, BACKSPACE, "p", "i", KEYS.enter);
  await see(/› Summarize with +pi/);
  assert.match(await planCommandLine(opened), /--to codex .*--summarize-with pi/);
  ui.unmount();
});

test("undo lists past handoffs newest first, asks before undoing, and a resumed session needs an explicit force", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { handoff, undoable } = await import("../lib/mod.ts");
  const context = where(homes);
  const claude = (await listedRows(contextFor(homes))).rows.find((r) => r.summary.harness === "claude-code")!;
  const first = await handoff({
    ...context,
    source: { ref: claude.summary.path },
    to: "hermes",
    cwd: homes.project,
  });
  const second = await handoff({
    ...context,
    source: { ref: claude.summary.path },
    to: "codex",
    cwd: homes.project,
  });
  // The Codex session was resumed since: its rollout grew.
  appendFileSync(second.target.path, "\n");
  const { ui, see, press, screen } = await open(homes);
  await press("u");
  await see("Undo a handoff (newest first)");
  const frame = screen()!;
  assert.ok(frame.indexOf("claude-code -> codex") < frame.indexOf("claude-code -> hermes"));
  await press(KEYS.enter);
  await see("Resumed since the handoff");
  await press("f");
  await see("with force (copies saved first)");
  await press("y");
  await see("Undone.");
  await press(KEYS.enter);
  await see(/› .*claude-code -> hermes/);
  await press(KEYS.enter);
  await see("Undo this?");
  await press("y");
  await see("Undone.");
  assert.deepEqual(undoable(homes.bridge), []);
  assert.equal(first.target.harness, "hermes");
  ui.unmount();
});

test("an unreadable store is a message on the picker, not a crash; the other stores are still listed", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  writeFileSync(join(homes.hermes, "state.db"), "not a database");
  const { ui, see, screen } = await open(homes);
  await see("hermes store");
  assert.match(screen()!, /cannot be read/);
  assert.match(screen()!, /2 of 2 sessions/);
  ui.unmount();
});

test("without a terminal, `tui` is bad usage that names the commands for scripts, and no command still prints the help", async () => {
  const { runCli } = await import("./helpers/cli.ts");
  const tui = await runCli(["tui"]);
  assert.equal(tui.code, 2);
  assert.match(tui.stderr, /the TUI needs a terminal on stdin and stdout/);
  const none = await runCli([]);
  assert.equal(none.code, 2);
  assert.match(none.stdout, /Usage: session-bridge .*<command>/);
});

test("openPicker (the bench's TUI open times) settles on the first rows, then once every store is listed, offscreen by default", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { openPicker } = await import("../lib/tui/app.tsx");
  const held = holdingStore("hermes");
  const context = { ...contextFor(homes), registry: held.registry };
  const opened = openPicker(context, startListing(context));
  await opened.firstRows;
  let listed = false;
  const closing = opened.listed.then((close) => {
    listed = true;
    return close;
  });
  await new Promise((r) => setImmediate(r));
  assert.equal(listed, false, "the first rows are on screen while Hermes is still listing");
  held.release();
  (await closing)();
  assert.equal(listed, true);
});

test("Esc from a transcript restores the picker as it was: the filter, the selected session, the scroll position, kept when the list is read again; h then hands off the session read", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"), { gemini: true, opencode: true, copilot: true, pi: true });
  // 16 rows: a list three rows high, so moving down scrolls it.
  const { ui, see, press, screen } = await open(homes, { size: { columns: 80, rows: 16 }, now: new Date() });
  await press("/", "e", KEYS.enter);
  await see("filter: e");
  await press("j", "j", "j");
  const before = await until(ui, (f) => /^› /m.test(f) && !f.includes("reading…"));
  const [harness, ...words] = cursorLine(before).slice(2).trim().split(/ +/);
  const title = words.join(" ").replace(/….*$/, "");
  await press(KEYS.enter);
  await see(/line 1\//);
  await press(KEYS.escape);
  const after = await until(ui, (f) => f.includes("filter: e"));
  assert.equal(after, before, "the picker is drawn exactly as it was left");
  await press("?");
  await see("Keys (any key closes this)");
  await press("x");
  assert.equal(
    await until(ui, (f) => f.includes("filter: e")),
    before,
    "the help overlay keeps the place too",
  );
  await press("r");
  await see("listing…");
  const reread = await until(ui, (f) => !f.includes("listing…") && !f.includes("reading…") && /^› /m.test(f));
  // Read again, the rows have no message counts until each is read: the session selected and its line are kept.
  const place = (f: string) => {
    const lines = f.split("\n");
    const at = lines.findIndex((l) => l.startsWith("›"));
    return { at, selected: lines[at]?.slice(0, 40), filter: lines.find((l) => l.startsWith("filter:")) };
  };
  assert.deepEqual(
    place(reread),
    place(before),
    "the list read again: the same session selected, on its line",
  );
  await press("h");
  await see("Hand off: ");
  const source = screen()!.split("\n").find((l) => l.startsWith("Hand off: "))!;
  assert.ok(source.startsWith(`Hand off: ${harness} ${title}`), `${source} is not ${harness} ${title}`);
  ui.unmount();
});

test("Esc from the handoff form goes back to the transcript it was opened from, scrolled where it was", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { ui, see, press } = await open(homes, { now: new Date() });
  await press(KEYS.enter);
  await see(/line 1\//);
  await press("j", "j", "j");
  const read = await see(/line 4\//);
  await press("h");
  await see("Target harness:");
  await press(KEYS.escape);
  assert.equal(await see(/line 4\//), read, "the transcript as it was left");
  ui.unmount();
});

test("Esc from the plan goes back one screen, to the target's options as they were edited", async () => {
  const homes = tuiHomes(tempDir("sb-tui-"));
  const { ui, see, press, screen } = await open(homes);
  await press("h");
  await see("Hermes Agent (hermes)");
  await until(ui, (f) => !f.includes("checking the targets"));
  await press(KEYS.down, KEYS.enter);
  await see("Target: Codex CLI");
  await press("k", " ");
  await see(/› Resume handshake +no/);
  await press("j", KEYS.enter);
  await see("Plan (nothing has been written yet):");
  await press(KEYS.escape);
  const back = await see("Target: Codex CLI");
  assert.match(back, /Resume handshake +no/, "the option toggled is kept");
  assert.match(back, /› \[ Show plan \]/, "the cursor is where it was");
  await press(KEYS.enter);
  await see("Plan (nothing has been written yet):");
  await press(KEYS.escape);
  await see("Target: Codex CLI");
  await press(KEYS.escape);
  await see("Target harness:");
  assert.match(screen()!, /› Codex CLI \(codex\)/, "the target list with the target chosen before");
  ui.unmount();
});

test("a long list scrolls with the cursor in the middle, stopping at either end", () => {
  const rows = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"];
  assert.deepEqual(centeredWindow(rows, 0, 4), { top: 0, visible: ["a", "b", "c", "d"] });
  assert.deepEqual(centeredWindow(rows, 5, 4), { top: 3, visible: ["d", "e", "f", "g"] });
  assert.deepEqual(centeredWindow(rows, 9, 4), { top: 6, visible: ["g", "h", "i", "j"] });
  assert.deepEqual(centeredWindow(["a", "b"], 1, 4), { top: 0, visible: ["a", "b"] });
});
