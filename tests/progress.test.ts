/**
 * Progress on long steps and Ctrl-C in the middle of them. Progress shows on a terminal's stderr only (the
 * terminal is injected: a display that shows every step at once stands for a person watching a long one), never
 * under --json or off a terminal. A real SIGINT sent to a real child process mid-read or mid-write of a handoff
 * leaves the target as it was, exit 130 with one line saying so. Nothing here is timed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { claudeFixture, seedClaudeHome } from "./helpers/fixtures.ts";
import { seedHermesHome, sha256 } from "./helpers/hermes.ts";
import { makeCodexHome } from "./helpers/codex.ts";
import { emptyHomes, runCli } from "./helpers/cli.ts";
import { tempDir } from "./helpers/tmp.ts";
import { filesUnder } from "./helpers/files.ts";
import { scriptArgv } from "../lib/runtime.ts";
import { NO_TERMINAL, type Terminal } from "../lib/cli/terminal.ts";
import { progressRenderer } from "../lib/cli/progress.ts";
import { stderrProgress } from "../lib/cli/dispatch.ts";
import { outputTo } from "../lib/cli/output.ts";
import { tui } from "../lib/cli/commands/tui.ts";
import { handoff } from "../lib/cli/commands/handoff.ts";

const WATCHED: Terminal = { ...NO_TERMINAL, progress: { afterMs: 0 } };
const CLEAR = "\r\u001b[K";

test("a step shows what it does, how far and how long only once it has run a second, and is cleared at its end", () => {
  let clock = 0;
  const shown: string[] = [];
  const screen = () => shown.join("");
  const { listener } = progressRenderer({ afterMs: 1000 }, (t) => shown.push(t), () => clock);
  const what = "reading /s/\u001b]52;c;x\u0007.jsonl";
  listener({ what, unit: "bytes", done: 0, total: 70 * 1048576 });
  clock = 600;
  listener({ what, unit: "bytes", done: 30 * 1048576, total: 70 * 1048576 });
  assert.equal(screen(), "", "a step under a second prints nothing");
  clock = 1400;
  listener({ what, unit: "bytes", done: 35 * 1048576, total: 70 * 1048576 });
  assert.equal(screen(), `${CLEAR}reading /s/\\u001b]52;c;x\\u0007.jsonl: 35.0 of 70.0 MB (50%), 1.4 s`);
  clock = 1450;
  listener({ what, unit: "bytes", done: 36 * 1048576, total: 70 * 1048576 });
  assert.equal(screen().split(CLEAR).length, 2, "at most ten redraws a second");
  clock = 2100;
  listener({ what: "registering in /h/state.db", unit: "rows", done: 0, total: 3000 });
  listener({ what, unit: "bytes", done: 70 * 1048576, total: 70 * 1048576, finished: true });
  assert.ok(screen().endsWith(CLEAR), "the line is cleared when the step ends");
});

test("a step that works long between its updates (a Hermes move, an undo) still shows what it does and for how long", () => {
  let clock = 0;
  const shown: string[] = [];
  let tick = () => {};
  let ticking = false;
  const { listener } = progressRenderer({ afterMs: 1000 }, (t) => shown.push(t), () => clock, (each) => {
    tick = each;
    ticking = true;
    return () => (ticking = false);
  });
  listener({ what: "reading /s/big.jsonl", unit: "bytes", done: 93, total: 100 });
  listener({ what: "reading /s/big.jsonl", unit: "bytes", done: 100, total: 100, finished: true });
  assert.equal(ticking, false, "no step runs: nothing ticks");
  const move = "moving rows into /h/state.db";
  listener({ what: move, unit: "rows", done: 0, total: 120000 });
  assert.equal(ticking, true);
  clock = 1500;
  tick();
  assert.equal(shown.join(""), `${CLEAR}${move}: 0 of 120000 rows (0%), 1.5 s`);
  clock = 8000;
  tick();
  assert.equal(shown.at(-1), `${CLEAR}${move}: 0 of 120000 rows (0%), 8.0 s`);
  listener({ what: move, unit: "rows", done: 120000, total: 120000, finished: true });
  assert.equal(shown.at(-1), CLEAR);
  assert.equal(ticking, false, "the ticking stops with the last step");
});

test("a quick step that overlaps the one shown ends without taking its line away", () => {
  let clock = 0;
  const shown: string[] = [];
  const { listener } = progressRenderer({ afterMs: 1000 }, (t) => shown.push(t), () => clock);
  const long = "reading /s/long.jsonl";
  listener({ what: long, unit: "bytes", done: 0, total: 70 * 1048576 });
  clock = 1200;
  listener({ what: long, unit: "bytes", done: 35 * 1048576, total: 70 * 1048576 });
  // The TUI's detail pane reads a session meanwhile: too quick to be shown, and over at once.
  listener({ what: "reading /s/other.jsonl", unit: "bytes", done: 0, total: 1024 });
  listener({ what: "reading /s/other.jsonl", unit: "bytes", done: 1024, total: 1024, finished: true });
  assert.ok(shown.join("").endsWith("reading /s/long.jsonl: 35.0 of 70.0 MB (50%), 1.2 s"), shown.join(""));
  listener({ what: long, unit: "bytes", done: 70 * 1048576, total: 70 * 1048576, finished: true });
  assert.ok(shown.join("").endsWith(CLEAR), "the shown step's end clears its line");
});

/** A Claude Code session of about `megabytes`, chained turns of a captured one (a tool call in each). */
function bigSession(dir: string, megabytes: number): string {
  const turn = readFileSync(claudeFixture("thinking-tool-use"), "utf8").split("\n").filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((r) => r.type === "user" || r.type === "assistant");
  const filler = " The parser module is refactored and the suite runs again.".repeat(30);
  const path = join(dir, `${randomUUID()}.jsonl`);
  const lines: string[] = [];
  let size = 0;
  let parent: string | null = null;
  while (size < megabytes * 1048576) {
    for (const template of turn) {
      const record = structuredClone(template);
      const uuid = randomUUID();
      Object.assign(record, { uuid, parentUuid: parent });
      const message = record.message as { content: unknown };
      if (typeof message.content === "string") message.content += filler;
      else if (Array.isArray(message.content)) {
        for (const block of message.content as Record<string, unknown>[]) {
          if (typeof block.text === "string") block.text += filler;
        }
      }
      const line = JSON.stringify(record);
      lines.push(line);
      size += line.length + 1;
      parent = uuid;
    }
  }
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

test("a handoff on a watched terminal shows reading, backing up and registering on stderr; not under --json, not off a terminal", async () => {
  const root = tempDir();
  const source = seedClaudeHome(join(root, "claude"), "plain-text");
  const hermes = join(root, "hermes");
  seedHermesHome(hermes, "0.19.0", "text-turns");
  // One title named for each handoff: under --force each takes it from the one before (a title of the
  // source's own would be numbered instead, as Hermes numbers a lineage).
  const args = [
    "handoff",
    source.path,
    "--to",
    "hermes",
    "--hermes-home",
    hermes,
    "--cwd",
    root,
    "--title",
    "notes",
  ];
  const env = { SESSION_BRIDGE_HOME: join(root, "bridge") };
  const shown = await runCli(args, env, undefined, undefined, WATCHED);
  assert.equal(shown.code, 0, shown.stderr);
  for (
    // The backup holds the rows the handoff replaces (lib/store/row-backup.ts), table by table.
    const step of [
      `reading ${source.path}`,
      `backing up messages rows of ${join(hermes, "state.db")}`,
      "registering in ",
    ]
  ) {
    assert.ok(shown.stderr.includes(`${CLEAR}${step}`), `${step} in ${JSON.stringify(shown.stderr)}`);
  }
  assert.match(shown.stderr, /: \d+\.\d of \d+\.\d MB \(\d+%\), \d+\.\d s/);
  const json = await runCli([...args, "--json", "--force"], env, undefined, undefined, WATCHED);
  assert.equal(json.code, 0, json.stderr);
  assert.ok(!json.stderr.includes("\r") && !json.stdout.includes("\r"), "nothing drawn under --json");
  const piped = await runCli([...args, "--force"], env);
  assert.equal(piped.code, 0, piped.stderr);
  assert.ok(!piped.stderr.includes("\r"), "nothing drawn when stderr is not a terminal");
  // Undoing the last (it took the title of the one before) removes its rows and restores the title's holder,
  // each step saying how far it is: a long session's rows take seconds with Hermes's triggers.
  const undone = await runCli(
    ["undo", "--last", "--hermes-home", hermes],
    env,
    undefined,
    undefined,
    WATCHED,
  );
  assert.equal(undone.code, 0, undone.stderr);
  const db = join(hermes, "state.db");
  for (const step of [`removing messages rows from ${db}`, `restoring sessions rows into ${db}`]) {
    assert.ok(
      undone.stderr.includes(`${CLEAR}${step}: 0 of `),
      `${step} in ${JSON.stringify(undone.stderr)}`,
    );
  }
});

/** The CLI in a child process that Ctrl-Cs itself when its progress first shows a step named `marker`. */
function interruptedAt(marker: string, args: string[], bridge: string) {
  const [bin, ...pre] = scriptArgv(join(import.meta.dirname!, "helpers/interrupt-on-progress.ts"));
  const r = spawnSync(bin!, [...pre, marker, ...args], {
    encoding: "utf8",
    env: { ...process.env, SESSION_BRIDGE_HOME: bridge, SESSION_BRIDGE_DEBUG: "" },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * A handoff into a Hermes store Ctrl-C'd when its progress first shows the step named `marker`: the store and
 * session-bridge's folder are as they were, exit 130, one line saying so after the progress line is cleared.
 */
async function assertHandoffInterruptedAt(marker: string, source: (root: string) => string): Promise<void> {
  const root = tempDir();
  const session = source(root);
  const hermes = join(root, "hermes");
  seedHermesHome(hermes, "0.19.0", "text-turns");
  const bridge = join(root, "bridge");
  mkdirSync(bridge);
  const before = await sha256(join(hermes, "state.db"));
  const storeBefore = filesUnder(hermes);
  const args = ["handoff", session, "--to", "hermes", "--hermes-home", hermes, "--cwd", root];
  const r = interruptedAt(marker, args, bridge);
  assert.equal(r.code, 130, r.stderr);
  assert.equal(r.stdout, "");
  assert.ok(
    r.stderr.endsWith(`${CLEAR}session-bridge: interrupted by SIGINT: nothing was changed\n`),
    r.stderr,
  );
  assert.equal(
    (r.stderr.match(/session-bridge:/g) ?? []).length,
    1,
    "one line says so, after the progress line is cleared",
  );
  assert.equal(await sha256(join(hermes, "state.db")), before);
  assert.deepEqual(filesUnder(hermes), storeBefore);
  assert.deepEqual(filesUnder(bridge), []);
}

test("Ctrl-C while a handoff reads a long session stops it: the Hermes store as it was, no backup, exit 130", () =>
  assertHandoffInterruptedAt("reading", (root) => bigSession(root, 12)));

// The move is the step named "registering": its rows are staged by then. A session of more than one batch: a
// signal is seen between batches, and Deno delivers one some event-loop turns after it is sent (a machine under
// load: more), so the one statement of a short session could commit first (then the handoff completes and is
// recorded, as it should once the move is over).
test("Ctrl-C while a handoff moves its rows into Hermes rolls the move back: the store as it was, no backup, exit 130", () =>
  assertHandoffInterruptedAt("registering", (root) => bigSession(root, 12)));

test("Ctrl-C while undo removes a session's rows rolls it back: the session still there and still undoable", async () => {
  const root = tempDir();
  const session = seedClaudeHome(join(root, "claude"), "plain-text");
  const hermes = join(root, "hermes");
  seedHermesHome(hermes, "0.19.0", "text-turns");
  const bridge = join(root, "bridge");
  const env = { SESSION_BRIDGE_HOME: bridge };
  const handoff = await runCli(
    ["handoff", session.path, "--to", "hermes", "--hermes-home", hermes, "--cwd", root],
    env,
  );
  assert.equal(handoff.code, 0, handoff.stderr);
  const handedOff = await sha256(join(hermes, "state.db"));
  const bridgeBefore = filesUnder(bridge);
  const r = interruptedAt("removing messages rows", ["undo", "--last", "--hermes-home", hermes], bridge);
  assert.equal(r.code, 130, r.stderr);
  assert.match(r.stderr, /session-bridge: interrupted by SIGINT: nothing was changed\n$/);
  assert.equal(await sha256(join(hermes, "state.db")), handedOff);
  assert.deepEqual(filesUnder(bridge), bridgeBefore, "no undo backup, no intent left");
  const undo = await runCli(["undo", "--last", "--hermes-home", hermes], env);
  assert.equal(undo.code, 0, undo.stderr);
});

test("Ctrl-C while a handoff writes the Codex rollout leaves no rollout, temp file, backup or ledger entry, exit 130", () => {
  const root = tempDir();
  const session = bigSession(root, 12);
  const codex = join(root, "codex");
  makeCodexHome(codex);
  const bridge = join(root, "bridge");
  mkdirSync(bridge);
  const storeBefore = filesUnder(codex);
  const sourceBefore = readFileSync(session, "utf8");
  const r = interruptedAt("writing", [
    "handoff",
    session,
    "--to",
    "codex",
    "--codex-home",
    codex,
    "--cwd",
    root,
  ], bridge);
  assert.equal(r.code, 130, r.stderr);
  assert.ok(
    r.stderr.endsWith(`${CLEAR}session-bridge: interrupted by SIGINT: nothing was changed\n`),
    r.stderr,
  );
  assert.deepEqual(filesUnder(codex), storeBefore);
  assert.deepEqual(filesUnder(bridge), []);
  assert.equal(readFileSync(session, "utf8"), sourceBefore, "the source is untouched");
});

test("a command that draws the screen (the TUI) gets no progress drawn on stderr; another on a terminal does", () => {
  const output = outputTo(() => {});
  assert.equal(stderrProgress(tui, false, WATCHED, output), undefined);
  assert.notEqual(stderrProgress(handoff, false, WATCHED, output), undefined);
  assert.equal(stderrProgress(handoff, true, WATCHED, output), undefined);
});

test("a --json run never asks whether stderr is a terminal; a run for a person does", async () => {
  let asked = 0;
  const watched: Terminal = {
    ...NO_TERMINAL,
    get progress() {
      asked++;
      return { afterMs: 0 };
    },
  };
  const homes = emptyHomes(tempDir());
  const json = await runCli(["list", "--json", ...homes], {}, undefined, undefined, watched);
  assert.equal(json.code, 0, json.stderr);
  assert.equal(asked, 0);
  const human = await runCli(["list", ...homes], {}, undefined, undefined, watched);
  assert.equal(human.code, 0, human.stderr);
  assert.ok(asked > 0);
});
