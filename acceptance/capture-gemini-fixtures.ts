// Captures REAL Gemini CLI sessions offline, against the fake Gemini API (lib/certify-kit/fake-servers/gemini.ts).
//
//   npx bun acceptance/capture-gemini-fixtures.ts [version] [--only a,b] [--keep] [--out <dir>]
//
// Each scenario gets a fresh private root: HOME=<root>/home, GEMINI_CLI_HOME=<root>/gemini (so the store is
// <root>/gemini/.gemini: the capture shows the variable moves it), TMPDIR=<root>/tmp, cwd <root>/project, and its
// own fake server. One-shot runs are `gemini -p "<prompt>"` (resumed with `--resume latest|<id>`); TUI runs are
// typed into `gemini` in a tmux pane (lib/certify-kit/tmux.ts) and left with `/quit`.
// Writes into fixtures/gemini-cli/<version>/:
//   <scenario>.jsonl                 the main session file, paths neutralized, otherwise byte for byte
//   <scenario>.subagents/<id>.jsonl  subagent sessions (chats/<parent-session-id>/<id>.jsonl)
//   <scenario>.requests.jsonl        per model call of the scenario's LAST run: model, method and `contents`
//                                    (what a resumed session replays to the model); side calls included
//   <scenario>.list-sessions.txt     `gemini --list-sessions` after the scenario
//   projects.json                    the cwd → slug registry (the same for every scenario)
//   manifest.json, README.md         how each fixture was made and which record kinds it holds
import { spawn } from "node:child_process";
import { Buffer } from "node:buffer";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { installHarness, pinnedVersion } from "./install-harness.ts";
import { startFakeGemini } from "../lib/certify-kit/fake-servers/gemini.ts";
import { readRequestLog } from "../lib/certify-kit/request-log.ts";
import { startTmux, type TmuxPane, waitUntil } from "../lib/certify-kit/tmux.ts";
import { descendants } from "./process-tree.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const NEUTRAL_CWD = "/home/user/project";

interface Dirs {
  root: string;
  home: string;
  geminiHome: string;
  cwd: string;
  /** A second project whose base name clashes with the first (`<root>/work/project`). */
  cwd2: string;
  tmp: string;
}

/** Which cwd a run starts in: the scenario's project, or a second one with the same base name. */
type Where = "project" | "second";

/**
 * One run of the binary: a one-shot `-p` run (SIGKILLed, with the processes it started, as soon as one of them
 * has the command line `killWhenRunning`, if given; started only once the wall clock's minute has turned, if
 * `nextMinute`), or a TUI session typed through tmux.
 */
type Run =
  | {
    kind: "exec";
    args: string[];
    cwd?: Where;
    killWhenRunning?: string;
    nextMinute?: true;
    /** Another Gemini CLI version than the one captured (to write what the captured version then resumes). */
    version?: string;
  }
  | { kind: "tui"; args: string[]; drive: (tui: GeminiTui) => Promise<void> };

interface Scenario {
  name: string;
  about: string;
  runs: Run[];
  /**
   * A resumed run writes the start of a new session to `session-<its start minute>-<id8>.jsonl`: the resumed
   * file itself in the minute the session began, a stub beside it in any later one (and the next start-up's
   * session cleanup deletes both the stub and the session sharing its id8). So a scenario that resumes starts at
   * the top of a minute, to keep one file (unless a run asks for the next minute on purpose).
   */
  sameMinute?: true;
}

interface RunResult {
  command: string;
  /** null: killed by a signal (see `killed`). */
  exit: number | null;
  killed?: "SIGKILL";
  cwd?: string;
  /** The Gemini CLI version of this run, when not the captured one. */
  version?: string;
  seconds: number;
  modelCalls: number;
}

// ---------- the TUI, as a person drives it ----------

interface GeminiTui {
  pane: TmuxPane;
  /**
   * Types a prompt into the empty input box, submits it, and waits until its answer shows (`answered`, by
   * default any model line `✦`, after the prompt's own line) and the agent is idle with the box empty again.
   */
  turn(prompt: string, answered?: RegExp): Promise<void>;
  /** Waits for the answer to a prompt already sent (as `turn` does after typing it). */
  answer(prompt: string, answered?: RegExp): Promise<void>;
  /** Types text into the empty input box and presses Enter once it shows there; waits for nothing after. */
  send(text: string): Promise<void>;
  /** `/rewind`, picks the user message `prompt`, confirms "Rewind conversation", then empties the input box. */
  rewind(prompt: string): Promise<void>;
  quit(): Promise<void>;
}

const IDLE = (s: string) => !s.includes("esc to cancel");

/**
 * The input box: the screen below the last full-width rule, above the footer; "" when no footer shows (a dialog,
 * such as the rewind picker, has taken the box's place). The typed text is looked for
 * HERE, not anywhere on screen: the same words in the history above would say "typed" before the box shows
 * them, and an Enter pressed then was the dropped Enter (and a retry sent the prompt twice) of the first script.
 */
function inputBox(screen: string): string {
  const lines = screen.split("\n");
  const rule = lines.findLastIndex((l) => /^─{20,}\s*$/.test(l));
  const below = lines.slice(rule + 1);
  const footer = below.findIndex((l) => l.includes("workspace (/directory)"));
  return footer >= 0 ? below.slice(0, footer).join("\n") : "";
}

const BOX_EMPTY = "Type your message";

function geminiTui(pane: TmuxPane): GeminiTui {
  const typeIntoEmptyBox = async (text: string) => {
    const head = text.slice(0, 40);
    await pane.waitForScreen((s) => inputBox(s).includes(BOX_EMPTY), "an empty input box");
    pane.type(text);
    const typed = await pane.waitForScreen(
      (s) => inputBox(s).includes(head),
      `${JSON.stringify(text)} typed`,
    );
    const typedHeight = inputBox(typed).split("\n").length;
    for (let attempt = 1;; attempt++) {
      pane.press("Enter");
      // Submitted: the box no longer holds the text (or, while the agent is busy, the text went to "Queued").
      // Not submitted: an Enter that comes within 40 ms of a burst the TUI took for a paste inserts a newline
      // (its unsafe-paste guard: the box grows a line), or the Enter is lost (the box stays as it was).
      const after = await pane.waitForScreen(
        (s) =>
          !inputBox(s).includes(head) || s.includes("Queued") || inputBox(s).split("\n").length > typedHeight,
        `${JSON.stringify(text)} submitted or a newline added`,
        3_000,
      ).catch(() => pane.screen());
      if (!inputBox(after).includes(head) || after.includes("Queued")) return;
      if (attempt === 3) throw new Error(`${JSON.stringify(text)} not submitted after 3 Enters`);
      process.stderr.write(
        `  Enter ${attempt} did not submit ${JSON.stringify(text)}; box: ${inputBox(after)}\n`,
      );
      if (inputBox(after).split("\n").length > typedHeight) {
        pane.press("BSpace");
        await pane.waitForScreen(
          (s) => inputBox(s).split("\n").length === typedHeight,
          "the newline removed",
        );
      }
    }
  };
  const tui: GeminiTui = {
    pane,
    send: typeIntoEmptyBox,
    turn: async (prompt, answered) => {
      await typeIntoEmptyBox(prompt);
      await tui.answer(prompt, answered);
    },
    answer: async (prompt, answered = /✦/) => {
      await pane.waitForScreen((s) => {
        // Once submitted, the prompt's line is the newest in the history: if it has scrolled off, what pushed
        // it off came after it (a long answer, a tool's output), so the whole screen is after it.
        const at = s.lastIndexOf(`> ${prompt}`);
        return answered.test(s.slice(Math.max(at, 0))) && IDLE(s) && inputBox(s).includes(BOX_EMPTY);
      }, `the answer to ${JSON.stringify(prompt)}`);
    },
    rewind: async (prompt) => {
      await typeIntoEmptyBox("/rewind");
      await pane.waitForScreen(/Stay at current position/, "the rewind picker");
      // The picker opens on "Stay at current position", below the newest message: go up to the wanted one.
      // The picked line, without the dialog's right border.
      const selected = (s: string) => /● (.*?)\s*│?$/m.exec(s)?.[1];
      for (let moves = 0; selected(pane.screen()) !== prompt; moves++) {
        if (moves > 50) throw new Error(`rewind: ${JSON.stringify(prompt)} is not in the picker`);
        const before = selected(pane.screen());
        pane.press("Up");
        await pane.waitForScreen((s) => selected(s) !== before, "the picker's cursor moved");
      }
      pane.press("Enter");
      await pane.waitForScreen(/Confirm Rewind[\s\S]*● 1\. Rewind conversation/, "the rewind confirmation");
      pane.press("Enter");
      // The CLI puts the picked prompt back in the input box: empty it before the next prompt.
      await pane.waitForScreen(
        (s) => inputBox(s).includes(prompt.slice(0, 40)),
        "the picked prompt in the box",
      );
      // A C-u that comes while the box is being refilled is lost; on an empty box it does nothing: press again.
      for (let attempt = 1;; attempt++) {
        pane.press("C-u");
        const emptied = await pane.waitForScreen(
          (s) => inputBox(s).includes(BOX_EMPTY),
          "the box emptied",
          2_000,
        )
          .then(() => true, () => false);
        if (emptied) break;
        if (attempt === 5) throw new Error("rewind: the input box kept the picked prompt after 5 C-u");
      }
    },
    quit: async () => {
      await typeIntoEmptyBox("/quit");
      await pane.waitForExit(30_000);
    },
  };
  return tui;
}

// ---------- scenarios ----------

const YOLO = ["--approval-mode", "yolo"];

/** The newest release checked to write legacy whole-session `.json` files (0.51.0 already writes `.jsonl`). */
const LEGACY_VERSION = "0.36.0";

const SCENARIOS: Scenario[] = [
  {
    name: "exec-tool",
    about:
      "One-shot run: a thought and a run_shell_command call, its result, then an answer (`--approval-mode " +
      "yolo`: headless runs offer the shell tool only then).",
    runs: [{ kind: "exec", args: [...YOLO, "-p", "TOOL: echo fixture-out"] }],
  },
  {
    name: "exec-resumed",
    sameMinute: true,
    about:
      "One-shot run, then `--resume latest -p` and `--resume <session id> -p`: three turns in one file; the " +
      "requests are those of the last resumed run (what the CLI replays).",
    runs: [
      { kind: "exec", args: ["-p", "Please greet the reviewer with one sentence about tidy kitchens."] },
      { kind: "exec", args: ["--resume", "latest", "-p", "Now add a second remark, about quiet libraries."] },
      { kind: "exec", args: ["--resume", "{session}", "-p", "And a third, about early trains."] },
    ],
  },
  {
    name: "exec-subagent",
    about: "One-shot run: invoke_agent (the generalist subagent), which answers with complete_task; the " +
      "subagent's own session is chats/<parent session id>/<subagent id>.jsonl.",
    runs: [{ kind: "exec", args: [...YOLO, "-p", "AGENT: count the files in the project"] }],
  },
  {
    name: "interactive",
    about: "Typed in the TUI: two text turns and a shell call, then /quit.",
    runs: [{
      kind: "tui",
      args: YOLO,
      drive: async (tui) => {
        await tui.turn("First typed line about river boats");
        await tui.turn("Second typed line about harbour cranes");
        await tui.turn("TOOL: echo typed-tool-out", /Tool said:/);
        await tui.quit();
      },
    }],
  },
  {
    name: "interrupted",
    sameMinute: true,
    about: "Typed in the TUI: a text turn, then `sleep 30` through the shell tool; while it runs a second " +
      "message is typed (the TUI queues it), then Esc cancels the call; the queued message is sent by itself. " +
      "/quit, then `--resume latest -p` (the requests show how the cancelled call is replayed).",
    runs: [
      {
        kind: "tui",
        args: YOLO,
        drive: async (tui) => {
          await tui.turn("First typed line about river boats");
          await tui.send("TOOL: sleep 30");
          await tui.pane.waitForScreen(/Shell sleep 30[\s\S]*esc to cancel/, "the running shell call");
          await tui.send("A queued remark about lighthouses");
          await tui.pane.waitForScreen(/Queued/, "the queued message");
          tui.pane.press("Escape");
          await tui.answer("A queued remark about lighthouses");
          await tui.quit();
        },
      },
      { kind: "exec", args: ["--resume", "latest", "-p", "Resumed: one more word on ferries"] },
    ],
  },
  {
    name: "rewound",
    sameMinute: true,
    about: "Typed in the TUI (default approval mode): three text turns, `/rewind` to the second prompt " +
      '("Rewind conversation"), the input box emptied, a new prompt; /quit, then `--resume latest -p` (the ' +
      "requests show what a resumed rewound session replays).",
    runs: [
      {
        kind: "tui",
        args: [],
        drive: async (tui) => {
          await tui.turn("First typed line about river boats");
          await tui.turn("Second typed line about harbour cranes");
          await tui.turn("Third typed line about signal flags");
          await tui.rewind("Second typed line about harbour cranes");
          await tui.turn("A new second line about canal locks");
          await tui.quit();
        },
      },
      { kind: "exec", args: ["--resume", "latest", "-p", "Resumed after the rewind: one word on tides"] },
    ],
  },
  {
    name: "killed-mid-tool",
    sameMinute: true,
    about:
      "One-shot run killed with SIGKILL (with the shell it started) while its shell call `sleep 47` runs " +
      "(the kill waits for a process whose whole command line is `sleep 47`: the CLI's own processes carry the " +
      "prompt in theirs), then `--resume latest -p` (the requests show what the CLI replays of a call that " +
      "never finished).",
    runs: [
      { kind: "exec", args: [...YOLO, "-p", "TOOL: sleep 47"], killWhenRunning: "sleep 47" },
      { kind: "exec", args: ["--resume", "latest", "-p", "After the kill: say what happened"] },
    ],
  },
  {
    name: "compressed",
    sameMinute: true,
    about: "Typed in the TUI: a text turn, a shell call with a long output (`seq 1 2000`), two text turns, " +
      "`/compress` (the fake answers the summarizer's two calls with a short <state_snapshot>), one more turn; " +
      "/quit, then `--resume latest -p` (the requests show what a resumed compressed session replays).",
    runs: [
      {
        kind: "tui",
        args: YOLO,
        drive: async (tui) => {
          await tui.turn("First typed line about river boats");
          // The answer quotes the (shortened) output: its first line scrolls off, its last stays.
          await tui.turn("TOOL: seq 1 2000", /Process Group PGID: \d+\s*\n\s*<\/untrusted_context>/);
          await tui.turn("Third typed line about signal flags");
          await tui.turn("Fourth typed line about canal locks");
          await tui.send("/compress");
          await tui.pane.waitForScreen(
            (s) => /Chat history compressed from \d+ to \d+ tokens/.test(s) && IDLE(s),
            "the compression's result",
          );
          await tui.turn("After the compression: a word on tides");
          await tui.quit();
        },
      },
      {
        kind: "exec",
        args: ["--resume", "latest", "-p", "Resumed after the compression: one word on ferries"],
      },
    ],
  },
  {
    name: "reasoning",
    sameMinute: true,
    about:
      "One-shot run: the fake sends two thought parts (one `**Subject**\\n\\ndescription`, one plain), a " +
      "preamble and a shell call carrying a thought signature, then the tool's answer; then `--resume latest -p` " +
      "(the requests show whether thoughts and the signature are replayed).",
    runs: [
      { kind: "exec", args: [...YOLO, "-p", "THINK: echo thought-out"] },
      { kind: "exec", args: ["--resume", "latest", "-p", "And what did the thinking decide?"] },
    ],
  },
  {
    name: "resumed-next-minute",
    about: "One-shot run, then `--resume latest -p` once the minute has turned: the resumed run's start-up " +
      "writes a stub (`resumed-next-minute.stub-1.jsonl`: metadata and the session context, no user message) " +
      "named after the new minute and the same id8, and appends the resumed turn to the first file. The next " +
      "start-up's session cleanup (`--list-sessions` here; retention is on by default) deletes the session and " +
      "keeps the stub: `afterListing` in manifest.json; the fixture's session file is put back as the runs left it.",
    runs: [
      { kind: "exec", args: ["-p", "A first prompt about lighthouse keepers"] },
      {
        kind: "exec",
        nextMinute: true,
        args: ["--resume", "latest", "-p", "A resumed prompt, a minute later"],
      },
    ],
  },
  {
    name: "legacy-resumed",
    sameMinute: true,
    about:
      `A one-shot run of Gemini CLI ${LEGACY_VERSION} (it writes a whole-session \`.json\` file), then ` +
      "`--resume latest -p` by the captured version, which reads the `.json`, writes `<same name>.jsonl` and " +
      "goes on there (the `.json` stays). `legacy-resumed.json` is the legacy file as the old version left it " +
      "(before the resume), `legacy-resumed.jsonl` the migrated one.",
    runs: [
      { kind: "exec", version: LEGACY_VERSION, args: ["-p", "A legacy prompt about canal boats"] },
      { kind: "exec", args: ["--resume", "latest", "-p", "Resumed by the new version: one word on locks"] },
    ],
  },
  {
    name: "several-projects",
    about: "One-shot runs in two projects whose folders share a base name (`/home/user/project` and " +
      "`/home/user/work/project`), then `--list-sessions` in each: the second project's slug, file, listing and " +
      "the shared projects.json are written as `several-projects.second.*` and `several-projects.projects.json`.",
    runs: [
      { kind: "exec", args: ["-p", "A prompt from the first project about maps"] },
      { kind: "exec", cwd: "second", args: ["-p", "A prompt from the second project about compasses"] },
    ],
  },
  {
    name: "chat-saved",
    about: "Typed in the TUI: a text turn, `/chat save fixture-tag` (the checkpoint file is " +
      "`chat-saved.checkpoint-fixture-tag.json`), a second turn, `/chat resume fixture-tag` (back to the saved " +
      "history), a third turn, /quit.",
    runs: [{
      kind: "tui",
      args: YOLO,
      drive: async (tui) => {
        await tui.turn("First typed line about river boats");
        await tui.send("/chat save fixture-tag");
        await tui.pane.waitForScreen(/checkpoint saved with tag: fixture-tag/, "the checkpoint saved");
        await tui.turn("Second typed line about harbour cranes");
        await tui.send("/chat resume fixture-tag");
        await tui.pane.waitForScreen(
          (s) => !s.includes("Second typed line about harbour cranes") && inputBox(s).includes(BOX_EMPTY),
          "the saved history loaded",
        );
        await tui.turn("Third typed line after loading the checkpoint");
        await tui.quit();
      },
    }],
  },
];

// ---------- running ----------

const NEUTRAL_CWD2 = "/home/user/work/project";

function makeDirs(): Dirs {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "gemini-capture-")));
  const d: Dirs = {
    root,
    home: join(root, "home"),
    geminiHome: join(root, "gemini"),
    cwd: join(root, "project"),
    cwd2: join(root, "work", "project"),
    tmp: join(root, "tmp"),
  };
  for (const p of [d.home, join(d.geminiHome, ".gemini"), d.cwd, d.cwd2, d.tmp]) {
    mkdirSync(p, { recursive: true });
  }
  // The API key alone would do, but GOOGLE_GEMINI_BASE_URL selects the "gateway" auth type, which 0.61 refuses
  // ("Invalid auth method selected"): the settings name the key's auth type. No update checks, no usage pings.
  const settings = {
    security: { auth: { selectedType: "gemini-api-key" } },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
  };
  writeFileSync(join(d.geminiHome, ".gemini", "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
  return d;
}

function cwdOf(d: Dirs, where: Where | undefined): string {
  return where === "second" ? d.cwd2 : d.cwd;
}

function captureEnv(d: Dirs, baseUrl: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: d.home,
    GEMINI_CLI_HOME: d.geminiHome,
    TMPDIR: d.tmp,
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    GOOGLE_GEMINI_BASE_URL: baseUrl,
    GEMINI_API_KEY: "fake-key",
    // Trust the cwd without the TUI's trust dialog (headless runs refuse an untrusted folder).
    GEMINI_CLI_TRUST_WORKSPACE: "true",
  };
}

/** Replaces private paths by neutral ones (longest first), and the cwds' sha256 project hashes with neutral ones. */
function neutralizer(d: Dirs): (s: string) => string {
  const pairs: Array<[string, string]> = [
    [join(d.geminiHome, ".gemini"), "/home/user/.gemini"],
    [d.geminiHome, "/home/user"],
    [d.cwd, NEUTRAL_CWD],
    [d.cwd2, NEUTRAL_CWD2],
    [d.home, "/home/user"],
    [d.tmp, "/tmp"],
    [d.root, "/tmp/capture"],
    [sha256(d.cwd), sha256(NEUTRAL_CWD)],
    [sha256(d.cwd2), sha256(NEUTRAL_CWD2)],
  ];
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (s) => pairs.reduce((out, [from, to]) => out.split(from).join(to), s);
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

/** The slug projects.json gives a cwd (the first project's is `project`). */
function slugOf(d: Dirs, cwd: string): string | undefined {
  const path = join(d.geminiHome, ".gemini", "projects.json");
  if (!existsSync(path)) return undefined;
  const projects = (JSON.parse(readFileSync(path, "utf8")) as { projects?: Record<string, string> }).projects;
  return projects?.[cwd];
}

function projectTmpDir(d: Dirs, slug: string): string {
  return join(d.geminiHome, ".gemini", "tmp", slug);
}

/** The main session files of a project (newest last by name: the name starts with the start time). */
function sessionFiles(d: Dirs, slug = "project"): string[] {
  const dir = join(projectTmpDir(d, slug), "chats");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.startsWith("session-") && /\.jsonl?$/.test(f)).sort().map((f) =>
    join(dir, f)
  );
}

function sessionIdOf(file: string): string {
  const text = readFileSync(file, "utf8");
  // A legacy `.json` session is one object; a `.jsonl` one starts with its metadata line.
  const first = file.endsWith(".json") ? text : text.split("\n")[0] ?? "{}";
  return (JSON.parse(first) as { sessionId: string }).sessionId;
}

/** Runs the binary to its end without blocking: the fake server answers from this same event loop. */
export function runBin(
  bin: string,
  cwd: string,
  env: Record<string, string>,
  args: string[],
  killWhenRunning?: string,
) {
  return new Promise<{ exit: number | null; killed?: "SIGKILL"; output: string }>((resolve, reject) => {
    const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], timeout: 180_000 });
    let output = "";
    let killed: "SIGKILL" | undefined;
    child.stdout.on("data", (c: Buffer) => void (output += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => void (output += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", (exit) => resolve({ exit, killed, output }));
    if (killWhenRunning === undefined || child.pid === undefined) return;
    const pid = child.pid;
    const ended = () => child.exitCode !== null || child.signalCode !== null;
    waitUntil(() => {
      if (ended()) return [];
      const below = descendants(pid);
      return below.some((p) => p.cmdline.trim() === killWhenRunning) ? below : undefined;
    }, `a process running ${JSON.stringify(killWhenRunning)}`).then((below) => {
      if (ended()) return;
      // The CLI first, so it cannot see its tool end; then what it started (they outlive it otherwise).
      killed = "SIGKILL";
      child.kill("SIGKILL");
      for (const p of below) {
        try {
          process.kill(p.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
    }, reject);
  });
}

async function runTui(bin: string, d: Dirs, env: Record<string, string>, run: Run & { kind: "tui" }) {
  const pane = startTmux({ command: bin, args: run.args, cwd: d.cwd, env, columns: 160, rows: 50 });
  try {
    await pane.waitForScreen(/Type your message/, "the input box", 60_000);
    await run.drive(geminiTui(pane));
  } finally {
    pane.close();
  }
}

/** Resolves when the wall clock's minute next changes (the CLI names session files to the minute). */
function minuteTurned(): Promise<void> {
  const minute = Math.floor(Date.now() / 60_000);
  return waitUntil(() => Math.floor(Date.now() / 60_000) > minute || undefined, "the next minute", 61_000)
    .then(
      () => undefined,
    );
}

async function capture(bin: string, sc: Scenario, outDir: string, keep: boolean) {
  const d = makeDirs();
  const logPath = join(d.root, "requests.jsonl");
  const srv = await startFakeGemini({ logPath });
  const env = captureEnv(d, srv.url);
  const results: RunResult[] = [];
  try {
    if (sc.sameMinute) await minuteTurned();
    for (const run of sc.runs) {
      if (run.kind === "exec" && run.nextMinute) await minuteTurned();
      const before = readRequestLog<unknown>(logPath).length;
      const started = Date.now();
      const files = sessionFiles(d);
      const session = files.length ? sessionIdOf(files[files.length - 1] as string) : "";
      const args = run.args.map((a) => (a === "{session}" ? session : a));
      let outcome: { exit: number | null; killed?: "SIGKILL" } = { exit: 0 };
      if (run.kind === "exec") {
        const runBinary = run.version ? await installHarness("gemini-cli", run.version) : bin;
        const r = await runBin(runBinary, cwdOf(d, run.cwd), env, args, run.killWhenRunning);
        if (r.exit !== 0 && !r.killed) process.stderr.write(`  exit ${r.exit}: ${r.output.slice(-600)}\n`);
        outcome = { exit: r.exit, ...(r.killed ? { killed: r.killed } : {}) };
      } else await runTui(bin, d, env, run);
      results.push({
        command: ["gemini", ...args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a))].join(" ") +
          (run.kind === "tui" ? " (typed in tmux)" : ""),
        ...outcome,
        ...(run.kind === "exec" && run.cwd === "second" ? { cwd: NEUTRAL_CWD2 } : {}),
        ...(run.kind === "exec" && run.version ? { version: run.version } : {}),
        seconds: (Date.now() - started) / 1000,
        modelCalls: readRequestLog<unknown>(logPath).length - before,
      });
    }
    // The listing's start-up writes the newest session's title into it, and its session cleanup may delete
    // files: the fixtures are the files after it, with any it deleted put back as the runs left them.
    const storeTmp = join(d.geminiHome, ".gemini", "tmp");
    const beforeListing = join(d.root, "before-listing");
    cpSync(storeTmp, beforeListing, { recursive: true });
    const listed = await runBin(bin, d.cwd, env, ["--list-sessions"]);
    const usesSecond = sc.runs.some((r) => r.kind === "exec" && r.cwd === "second");
    const listedSecond = usesSecond
      ? (await runBin(bin, d.cwd2, env, ["--list-sessions"])).output
      : undefined;
    const neutral = neutralizer(d);
    const afterListing = sessionFiles(d).map((f) => neutral(relative(d.geminiHome, f)));
    cpSync(beforeListing, storeTmp, { recursive: true, force: false });
    const written = writeScenario(d, sc, outDir, logPath, results);
    writeFileSync(join(outDir, `${sc.name}.list-sessions.txt`), neutral(listed.output));
    if (listedSecond !== undefined) {
      writeFileSync(join(outDir, `${sc.name}.second.list-sessions.txt`), neutral(listedSecond));
    }
    return { ...written, results, afterListing };
  } finally {
    await srv.close();
    if (!keep) rmSync(d.root, { recursive: true, force: true });
    else process.stderr.write(`  kept ${d.root}\n`);
  }
}

interface LoggedRequest {
  path: string;
  body: { contents?: unknown } | null;
}

/**
 * The main session file of a project, as `<name>.jsonl` (or `.json`), and its subagents. A scenario makes one
 * session: the biggest `.jsonl` file (else `.json`) is it. Beside it may be a legacy `.json` it was migrated
 * from (written as `<name>.json`) and the stubs a resume in a later minute leaves (see Scenario.sameMinute),
 * written as `<name>.stub-<n>.jsonl`.
 */
function writeSession(d: Dirs, slug: string, name: string, outDir: string, neutral: (s: string) => string) {
  const extOf = (f: string) => (f.endsWith(".json") ? "json" : "jsonl");
  const bySize = sessionFiles(d, slug).map((f) => ({ f, size: statSync(f).size }))
    .sort((a, b) => Number(extOf(b.f) === "jsonl") - Number(extOf(a.f) === "jsonl") || b.size - a.size);
  if (bySize.length === 0) throw new Error(`${name}: no session file in ${slug}`);
  const [main, ...others] = bySize.map((x) => x.f) as [string, ...string[]];
  const ext = extOf(main);
  writeFileSync(join(outDir, `${name}.${ext}`), neutral(readFileSync(main, "utf8")));
  const legacyFile = ext === "jsonl" ? others.find((f) => extOf(f) === "json") : undefined;
  if (legacyFile) writeFileSync(join(outDir, `${name}.json`), neutral(readFileSync(legacyFile, "utf8")));
  const legacy = legacyFile
    ? { file: neutral(relative(d.geminiHome, legacyFile)), written: `${name}.json` }
    : undefined;
  const stubs = others.filter((f) => f !== legacyFile).map((f, i) => {
    const written = `${name}.stub-${i + 1}.${extOf(f)}`;
    writeFileSync(join(outDir, written), neutral(readFileSync(f, "utf8")));
    return { file: neutral(relative(d.geminiHome, f)), written };
  });
  const subDir = join(dirname(main), sessionIdOf(main));
  const subagents = existsSync(subDir) ? readdirSync(subDir).filter((f) => /\.jsonl?$/.test(f)) : [];
  if (subagents.length) mkdirSync(join(outDir, `${name}.subagents`), { recursive: true });
  for (const f of subagents) {
    writeFileSync(join(outDir, `${name}.subagents`, f), neutral(readFileSync(join(subDir, f), "utf8")));
  }
  return {
    file: neutral(relative(d.geminiHome, main)),
    written: `${name}.${ext}`,
    subagents: subagents.map((f) => neutral(relative(d.geminiHome, join(subDir, f)))),
    stubs,
    legacy,
  };
}

/**
 * Other files the CLI keeps in a project's temp folder: `logs.json` (the TUI's prompt history) and `/chat save`
 * checkpoints (`checkpoint-<tag>.json`), written as `<name>.logs.json` and `<name>.checkpoint-<tag>.json`.
 */
function writeProjectExtras(
  d: Dirs,
  slug: string,
  name: string,
  outDir: string,
  neutral: (s: string) => string,
) {
  const dir = projectTmpDir(d, slug);
  const extras = existsSync(dir)
    ? readdirSync(dir).filter((f) => f === "logs.json" || /^checkpoint-.*\.json$/.test(f)).sort()
    : [];
  for (const f of extras) {
    writeFileSync(join(outDir, `${name}.${f}`), neutral(readFileSync(join(dir, f), "utf8")));
  }
  return extras.map((f) => `${name}.${f}`);
}

function writeScenario(d: Dirs, sc: Scenario, outDir: string, logPath: string, results: RunResult[]) {
  const neutral = neutralizer(d);
  const main = writeSession(d, "project", sc.name, outDir, neutral);
  const extras = writeProjectExtras(d, "project", sc.name, outDir, neutral);
  const slug2 = slugOf(d, d.cwd2);
  const second = slug2 === undefined ? undefined : {
    slug: slug2,
    ...writeSession(d, slug2, `${sc.name}.second`, outDir, neutral),
    extras: writeProjectExtras(d, slug2, `${sc.name}.second`, outDir, neutral),
  };
  const lastRunCalls = results[results.length - 1]?.modelCalls ?? 0;
  const requests = readRequestLog<LoggedRequest>(logPath).slice(-lastRunCalls).map((r) =>
    JSON.stringify({ path: r.path, contents: r.body?.contents ?? null })
  );
  writeFileSync(join(outDir, `${sc.name}.requests.jsonl`), neutral(requests.map((l) => `${l}\n`).join("")));
  const projects = neutral(readFileSync(join(d.geminiHome, ".gemini", "projects.json"), "utf8"));
  // Every one-project scenario has the same registry; a scenario with more projects keeps its own.
  writeFileSync(join(outDir, second ? `${sc.name}.projects.json` : "projects.json"), projects);
  return { main, extras, second, neutral };
}

/** Record kinds of a session file: message types, `$set` keys, `$rewindTo`, the metadata line. */
function recordKinds(text: string, legacy: boolean): Record<string, number> {
  const kinds: Record<string, number> = {};
  const add = (k: string) => void (kinds[k] = (kinds[k] ?? 0) + 1);
  const addMessage = (r: Record<string, unknown>) =>
    add(`message/${String(r.type)}${"toolCalls" in r ? "+toolCalls" : ""}`);
  if (legacy) {
    // One object: its keys, then its messages.
    const session = JSON.parse(text) as Record<string, unknown>;
    add(`session{${Object.keys(session).sort().join(",")}}`);
    for (const m of (session.messages ?? []) as Record<string, unknown>[]) addMessage(m);
    return Object.fromEntries(Object.entries(kinds).sort());
  }
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as Record<string, unknown>;
    if ("$rewindTo" in r) add("$rewindTo");
    else if ("$set" in r) add(`$set{${Object.keys(r.$set as object).sort().join(",")}}`);
    else if (typeof r.id === "string") addMessage(r);
    else add("metadata");
  }
  return Object.fromEntries(Object.entries(kinds).sort());
}

/** What manifest.json keeps per scenario (README.md is made from it, so `--only` runs keep the others'). */
interface ManifestEntry {
  about: string;
  captured: string;
  runs: RunResult[];
  file: string;
  subagents: string[];
  kinds: Record<string, number>;
  extras?: string[];
  /** Stub session files beside the session (same id8), as written: `file` in the store, `written` here. */
  stubs?: { file: string; written: string }[];
  /** The legacy `.json` file the session was migrated from, with its record kinds. */
  legacy?: { file: string; written: string; kinds: Record<string, number> };
  /** The project's main session files left after `--list-sessions` (its start-up cleans sessions up). */
  afterListing?: string[];
  second?: { slug: string; file: string; kinds: Record<string, number>; extras: string[] };
}

function readmeOf(version: string, manifest: Record<string, ManifestEntry>): string {
  const lines: string[] = [
    `# Gemini CLI ${version} fixtures`,
    "",
    `Captured by \`acceptance/capture-gemini-fixtures.ts ${version}\` (the date is given per scenario) from the ` +
    `real \`@google/gemini-cli@${version}\` (node bundle), driven offline against ` +
    "`lib/certify-kit/fake-servers/gemini.ts` (`GOOGLE_GEMINI_BASE_URL`, `GEMINI_API_KEY`, settings " +
    '`security.auth.selectedType: "gemini-api-key"`). Each scenario ran in a fresh private HOME, ' +
    "GEMINI_CLI_HOME, TMPDIR and cwd.",
    "",
    "Paths are neutralized (GEMINI_CLI_HOME and HOME -> `/home/user`, cwd -> `/home/user/project` (a second " +
    "project -> `/home/user/work/project`), TMPDIR -> `/tmp`, capture root -> `/tmp/capture`), and so are the " +
    "project hashes (sha256 of the cwd's path, replaced by the sha256 of the neutral path); everything else is " +
    "byte for byte what Gemini CLI wrote (ids, timestamps, process group ids). Model ids are those the CLI's " +
    "router picked; the fake answers any model.",
    "",
    "Files: `<scenario>.jsonl` (the session file under `~/.gemini/tmp/project/chats/`), `<scenario>.subagents/` " +
    "(subagent sessions), `<scenario>.requests.jsonl` (path and `contents` of every model call of the " +
    "scenario's last run), `<scenario>.list-sessions.txt` (`gemini --list-sessions` afterwards), " +
    "`<scenario>.logs.json` (the project's prompt history, when listed), `projects.json`. Session files are " +
    "taken after `--list-sessions` (its start-up may write the newest session's `summary`), any file its " +
    "session cleanup deleted put back as the runs left it (`afterListing` names what the listing left).",
  ];
  const order = SCENARIOS.map((sc) => sc.name);
  const names = Object.keys(manifest).sort((a, b) => order.indexOf(a) - order.indexOf(b));
  for (const name of names) {
    const m = manifest[name] as ManifestEntry;
    lines.push(
      "",
      `## ${name}`,
      "",
      m.about,
      "",
      ...m.runs.map((r, i) =>
        `- run ${i + 1}${r.cwd ? ` (in \`${r.cwd}\`)` : ""}${
          r.version ? ` (Gemini CLI ${r.version})` : ""
        }: ` +
        `\`${r.command}\` -> ` +
        `${
          r.killed ? `killed (${r.killed})` : `exit ${r.exit}`
        }, ${r.modelCalls} model call(s), ${r.seconds} s`
      ),
      `- captured ${m.captured}; session file: \`${m.file}\`${
        m.subagents.map((s) => `; subagent \`${s}\``).join("")
      }`,
      `- records: ${Object.entries(m.kinds).map(([k, n]) => `\`${k}\` (${n})`).join(", ")}`,
      ...(m.extras?.length ? [`- also: ${m.extras.map((f) => `\`${f}\``).join(", ")}`] : []),
      ...(m.legacy
        ? [
          `- legacy file: \`${m.legacy.file}\` (as \`${m.legacy.written}\`); records: ${
            Object.entries(m.legacy.kinds).map(([k, n]) => `\`${k}\` (${n})`).join(", ")
          }`,
        ]
        : []),
      ...(m.stubs?.length
        ? [`- stubs: ${m.stubs.map((st) => `\`${st.file}\` (as \`${st.written}\`)`).join(", ")}`]
        : []),
      ...(m.afterListing
        ? [
          `- after \`--list-sessions\`: ${
            m.afterListing.map((f) => `\`${f}\``).join(", ") || "no session file left"
          }`,
        ]
        : []),
      ...(m.second
        ? [
          `- second project (slug \`${m.second.slug}\`): \`${m.second.file}\`; records: ${
            Object.entries(m.second.kinds).map(([k, n]) => `\`${k}\` (${n})`).join(", ")
          }`,
        ]
        : []),
    );
  }
  return `${lines.join("\n")}\n`;
}

async function main(argv: string[]) {
  const onlyAt = argv.indexOf("--only");
  const outAt = argv.indexOf("--out");
  const only = onlyAt >= 0 ? (argv[onlyAt + 1] ?? "").split(",") : undefined;
  const keep = argv.includes("--keep");
  // The words that are flag values (an absent flag's index is -1: no word is its value).
  const flagValues = new Set([onlyAt, outAt].filter((at) => at >= 0).map((at) => at + 1));
  const version = argv.find((a, i) => !a.startsWith("--") && !flagValues.has(i)) ??
    pinnedVersion("gemini-cli");
  const bin = await installHarness("gemini-cli", version);
  const outDir = outAt >= 0 ? (argv[outAt + 1] as string) : join(REPO, "fixtures", "gemini-cli", version);
  mkdirSync(outDir, { recursive: true });
  const manifestPath = join(outDir, "manifest.json");
  const manifest = existsSync(manifestPath)
    ? JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, ManifestEntry>
    : {};
  for (const sc of SCENARIOS) {
    if (only && !only.includes(sc.name)) continue;
    process.stderr.write(`${sc.name} ...\n`);
    const out = await capture(bin, sc, outDir, keep);
    const kindsOf = (file: string) =>
      recordKinds(readFileSync(join(outDir, file), "utf8"), file.endsWith(".json"));
    manifest[sc.name] = {
      about: sc.about,
      captured: new Date().toISOString().slice(0, 10),
      runs: out.results.map((r) => ({ ...r, command: out.neutral(r.command) })),
      file: out.main.file,
      subagents: out.main.subagents,
      kinds: kindsOf(out.main.written),
      ...(out.extras.length ? { extras: out.extras } : {}),
      ...(out.main.stubs.length ? { stubs: out.main.stubs } : {}),
      ...(out.main.legacy ? { legacy: { ...out.main.legacy, kinds: kindsOf(out.main.legacy.written) } } : {}),
      afterListing: out.afterListing,
      ...(out.second
        ? {
          second: {
            slug: out.second.slug,
            file: out.second.file,
            kinds: kindsOf(out.second.written),
            extras: out.second.extras,
          },
        }
        : {}),
    };
    // Written after every scenario: a later one failing keeps what was captured.
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    writeFileSync(join(outDir, "README.md"), readmeOf(version, manifest));
  }
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
