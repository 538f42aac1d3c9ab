// Captures REAL Pi (@mariozechner/pi-coding-agent) sessions offline, against the kit's fake OpenAI Chat
// Completions server (lib/certify-kit/fake-servers/chat-completions.ts), which Pi reaches as a custom provider.
//
//   npx bun acceptance/capture-pi-fixtures.ts [version] [--only a,b] [--keep]
//
// Each scenario gets a fresh private root: HOME=<root>/home, PI_CODING_AGENT_DIR=<root>/agent (so the store is
// <root>/agent/sessions: the capture shows the variable moves it), TMPDIR=<root>/tmp, cwd <root>/project, its
// own fake server, and `PI_OFFLINE=1` (no version check, package update, telemetry or tool download). The
// provider is `fake` in <root>/agent/models.json (api `openai-completions`, a loopback `baseUrl`), with two
// reasoning models, so a resumed run can change the model. One-shot runs are `pi -p "<prompt>"` (continued
// with `-c`, `--session <path|id>`, `--fork <path>`); TUI runs are typed into `pi` in a tmux pane
// (lib/certify-kit/tmux.ts, a private socket) and left with `/quit`.
// Writes into fixtures/pi/<version>/:
//   <scenario>.jsonl             the scenario's first session file, paths neutralized, otherwise byte for byte
//   <scenario>.<n>.jsonl         later session files of the scenario (a fork), in the order they were made
//   <scenario>.requests.jsonl    per model call of the scenario's LAST run: the model, reasoning effort and messages
//                                Pi sent (what a resumed session replays to the model)
//   <scenario>.resume-list.txt   the `pi -r` session picker after the scenario (Pi's own session list)
//   manifest.json, README.md     how each fixture was made and which entry kinds it holds
import { spawn } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { installHarness, pinnedVersion } from "./install-harness.ts";
import {
  type ChatRequest,
  contentText,
  defaultScript,
  fnv1a,
  type Script,
  type ScriptReply,
  startFakeChatCompletions,
} from "../lib/certify-kit/fake-servers/chat-completions.ts";
import { readRequestLog } from "../lib/certify-kit/request-log.ts";
import { startTmux, type TmuxPane, waitUntil } from "../lib/certify-kit/tmux.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const NEUTRAL_HOME = "/home/user";
const NEUTRAL_CWD = "/home/user/project";
const NEUTRAL_INSTALL = "/opt/pi";
const MODEL = "fake-model";
const OTHER_MODEL = "fake-model-b";
const BASE_ARGS = ["--provider", "fake", "--model", MODEL];

interface Dirs {
  root: string;
  home: string;
  agent: string;
  cwd: string;
  tmp: string;
}

/**
 * One run of the binary: a one-shot `-p` run (killed with its tool's process group as soon as the tool it
 * runs has written `started.pid` into the project, if `killMidTool`), or a TUI session typed through tmux.
 * `{first}` in args stands for the path of the scenario's first session file, `{id}` for its session id.
 */
type Run =
  | { kind: "exec"; args: string[]; killMidTool?: true }
  | { kind: "tui"; args: string[]; drive: (tui: PiTui) => Promise<void> };

interface Scenario {
  name: string;
  about: string;
  runs: Run[];
  /** agent/settings.json for the scenario (Pi's own settings: compaction thresholds and the like). */
  settings?: Record<string, unknown>;
}

interface RunResult {
  command: string;
  /** null: killed by a signal (see `killed`). */
  exit: number | null;
  killed?: "SIGKILL";
  seconds: number;
  modelCalls: number;
}

// ---------- what the fake model answers ----------

/** A tool call Pi's own tools take, one per step of the `SEQUENCE` prompt. */
const SEQUENCE: ScriptReply[] = [
  {
    toolCalls: [{
      name: "bash",
      arguments: { command: "printf 'alpha\\nbeta\\n' > notes.txt && echo wrote" },
    }],
  },
  { toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] },
  {
    toolCalls: [{
      name: "edit",
      arguments: { path: "notes.txt", edits: [{ oldText: "beta", newText: "gamma" }] },
    }],
  },
  { toolCalls: [{ name: "write", arguments: { path: "summary.txt", content: "alpha and gamma\n" } }] },
];

/**
 * The kit's default script (a `TOOL: <command>` prompt calls bash; a tool result is echoed back), plus:
 * Pi's summarization calls (compaction and branch summaries, told apart by their system prompt) answered with
 * a SUMMARY line; `SEQUENCE` walks bash, read, edit and write, one call per model call; `THINK` answers with
 * reasoning before its text.
 */
const piScript: Script = (req: ChatRequest, ctx) => {
  const msgs = req.messages;
  const system = contentText(msgs[0]?.content);
  if (/summarization assistant/.test(system)) {
    return { content: `SUMMARY: digest ${fnv1a(JSON.stringify(msgs))}, the earlier turns in brief.` };
  }
  const lastUser = msgs.findLastIndex((m) => m.role === "user");
  const prompt = contentText(msgs[lastUser]?.content).trim();
  const results = msgs.slice(lastUser + 1).filter((m) => m.role === "tool").length;
  if (prompt.startsWith("SEQUENCE")) {
    const step = SEQUENCE[results];
    if (step) return { reasoning: `REASONING: step ${results + 1} of the sequence.`, ...step };
    return { content: `SEQUENCE-DONE: ${results} tools ran.` };
  }
  if (prompt.startsWith("THINK")) {
    return {
      reasoning: `REASONING: weighing the request, digest ${fnv1a(prompt)}.`,
      content: `ASSISTANT-REPLY: considered answer, digest ${fnv1a(prompt)}.`,
    };
  }
  return defaultScript(req, ctx);
};

// ---------- the TUI, as a person drives it ----------

interface PiTui {
  pane: TmuxPane;
  /** Types a prompt, submits it, and waits until the session file ends with the answer to it. */
  turn(prompt: string): Promise<void>;
  /** Types a prompt and submits it; waits for nothing after. */
  send(text: string): Promise<void>;
  /** Runs a slash command (typed and submitted) and waits until `done` holds on the session file's lines. */
  command(text: string, done: (entries: Entry[]) => boolean): Promise<void>;
  /** The entries of the session file this TUI writes (the newest file of the project), parsed. */
  entries(): Entry[];
  quit(): Promise<void>;
}

type Entry = Record<string, unknown> & { type: string; id?: string; message?: Record<string, unknown> };

const EDITOR_READY = (s: string) => s.includes(MODEL) && !s.includes("Working...");

function piTui(pane: TmuxPane, d: Dirs): PiTui {
  const entries = () => {
    const files = sessionFiles(d);
    const newest = files[files.length - 1];
    return newest === undefined ? [] : parseEntries(readFileSync(newest, "utf8"));
  };
  const answered = (count: number) => (list: Entry[]) => {
    const last = list[list.length - 1];
    return list.length > count && last?.type === "message" && last.message?.role === "assistant" &&
      last.message?.stopReason !== "toolUse";
  };
  const tui: PiTui = {
    pane,
    entries,
    send: async (text) => {
      await pane.waitForScreen(EDITOR_READY, "the editor ready");
      await pane.submit(text);
    },
    turn: async (prompt) => {
      const before = entries().length;
      await tui.send(prompt);
      await waitUntil(
        () => answered(before)(entries()) || undefined,
        `the answer to ${JSON.stringify(prompt)}`,
      );
      await pane.waitForScreen(EDITOR_READY, "the editor idle again");
    },
    command: async (text, done) => {
      await tui.send(text);
      await waitUntil(() => done(entries()) || undefined, `${text} recorded`);
    },
    quit: async () => {
      await tui.send("/quit");
      await pane.waitForExit();
    },
  };
  return tui;
}

/** The line the tree selector marks (`›`), without the marker. */
function selectedTreeLine(screen: string): string {
  return /^\s*›\s*(.*)$/m.exec(screen)?.[1] ?? "";
}

/** `/tree`, moves the selection up to the entry whose line holds `text`, selects it, then picks `choice`. */
async function navigateTree(tui: PiTui, text: string, choice: "No summary" | "Summarize"): Promise<void> {
  await tui.send("/tree");
  await tui.pane.waitForScreen(/Session Tree/, "the session tree");
  for (let moves = 0; !selectedTreeLine(tui.pane.screen()).includes(text); moves++) {
    if (moves === 20) throw new Error(`no tree entry holds ${JSON.stringify(text)}`);
    const before = tui.pane.screen();
    tui.pane.press("Up");
    await tui.pane.waitForScreen((s) => s !== before, "the selection moved");
  }
  tui.pane.press("Enter");
  await tui.pane.waitForScreen(/Summarize branch\?/, "the summary question");
  if (choice === "Summarize") {
    tui.pane.press("Down");
    await tui.pane.waitForScreen(/→ Summarize\s*$/m, "Summarize selected");
  }
  tui.pane.press("Enter");
  await tui.pane.waitForScreen(/Navigated to selected point/, "the navigation done");
}

/** The text of the assistant entry `nth` (0-based) of the file, as the tree shows its start. */
function assistantText(tui: PiTui, nth: number): string {
  const assistants = tui.entries().filter((e) => e.type === "message" && e.message?.role === "assistant");
  const content = assistants[nth]?.message?.content;
  const text = Array.isArray(content)
    ? content.map((b) => (b as { text?: unknown }).text).find((t) => typeof t === "string")
    : undefined;
  if (typeof text !== "string") throw new Error(`no assistant text ${nth}`);
  return text.slice(0, 40);
}

// ---------- the scenarios ----------

const SCENARIOS: Scenario[] = [
  {
    name: "exec",
    about: "One-shot run (`pi -p`): a typed prompt and a plain answer.",
    runs: [{ kind: "exec", args: [...BASE_ARGS, "-p", "Please greet the reviewer with one sentence."] }],
  },
  {
    name: "exec-tools",
    about:
      "One-shot run: reasoning and one call each of bash, read, edit and write (one per model call), their " +
      "results, then an answer.",
    runs: [{
      kind: "exec",
      args: [...BASE_ARGS, "-p", "SEQUENCE: write notes, read them, edit, summarize."],
    }],
  },
  {
    name: "reasoning",
    about: "One-shot run at `--thinking high`: reasoning (`thinking` block, signature `reasoning_content`) " +
      "before the answer; continued with `-c --thinking low`: the run asks for `low` but records no " +
      "thinking_level_change (a flag given on resume is no entry).",
    runs: [
      { kind: "exec", args: [...BASE_ARGS, "--thinking", "high", "-p", "THINK about a tidy kitchen."] },
      { kind: "exec", args: [...BASE_ARGS, "--thinking", "low", "-c", "-p", "THINK again, more briefly."] },
    ],
  },
  {
    name: "resumed",
    about:
      "One-shot run, then `-c -p`, `--session <path> -p` and `--session <id> -p` with the other model (no " +
      "model_change entry: only the assistant messages' `model` says it): four turns in one file; the requests " +
      "are those of the last run.",
    runs: [
      { kind: "exec", args: [...BASE_ARGS, "-p", "Please greet the reviewer."] },
      { kind: "exec", args: [...BASE_ARGS, "-c", "-p", "Now add a remark about quiet libraries."] },
      { kind: "exec", args: [...BASE_ARGS, "--session", "{first}", "-p", "And one about early trains."] },
      {
        kind: "exec",
        args: ["--provider", "fake", "--model", OTHER_MODEL, "--session", "{id}", "-p", "TOOL: echo resumed"],
      },
    ],
  },
  {
    name: "forked",
    about: "One-shot run, then `--fork <path> -p`: a second file whose header names the first as " +
      "parentSession and which copies its entries.",
    runs: [
      { kind: "exec", args: [...BASE_ARGS, "-p", "Please greet the reviewer."] },
      { kind: "exec", args: [...BASE_ARGS, "--fork", "{first}", "-p", "Continue in the fork."] },
    ],
  },
  {
    name: "killed-mid-tool",
    about: "One-shot run SIGKILLed while its bash call runs (the call has no result in the file), then " +
      "`-c -p`: the requests show what Pi sends for the open call on resume.",
    runs: [
      {
        kind: "exec",
        args: [...BASE_ARGS, "-p", "TOOL: echo $$ > started.pid; exec sleep 60"],
        killMidTool: true,
      },
      { kind: "exec", args: [...BASE_ARGS, "-c", "-p", "Carry on after the crash."] },
    ],
  },
  {
    name: "interactive",
    about: "Typed in the TUI: two turns (one a bash call), `/name`, `/quit`.",
    runs: [{
      kind: "tui",
      args: BASE_ARGS,
      drive: async (tui) => {
        await tui.turn("Please say hello to the reviewer.");
        await tui.turn("TOOL: echo typed-in-the-tui");
        await tui.command("/name Kitchen review", (l) => l.some((e) => e.type === "session_info"));
        await tui.quit();
      },
    }],
  },
  {
    name: "interrupted",
    about: "Typed in the TUI: a bash call interrupted with Escape while it runs (an error result `Command " +
      "aborted`, then an empty assistant message, stopReason aborted), one more turn, `/quit`.",
    runs: [{
      kind: "tui",
      args: BASE_ARGS,
      drive: async (tui) => {
        await tui.turn("Please say hello to the reviewer.");
        await tui.send("TOOL: sleep 30; echo never");
        await tui.pane.waitForScreen(/\$ sleep 30/, "the command running");
        tui.pane.press("Escape");
        await waitUntil(
          () => tui.entries().some((e) => e.message?.stopReason === "aborted") || undefined,
          "the aborted turn recorded",
        );
        await tui.turn("Never mind, just say goodbye.");
        await tui.quit();
      },
    }],
  },
  {
    name: "compacted",
    about:
      "Typed in the TUI: three turns, `/compact` (keepRecentTokens 10 in settings, so the first turns are " +
      "summarized), one more turn, `/quit`.",
    settings: { compaction: { keepRecentTokens: 10 } },
    runs: [{
      kind: "tui",
      args: BASE_ARGS,
      drive: async (tui) => {
        await tui.turn("Please say hello to the reviewer.");
        await tui.turn("TOOL: echo before-compaction");
        await tui.turn("Now a remark about quiet libraries.");
        await tui.command("/compact", (l) => l.some((e) => e.type === "compaction"));
        await tui.pane.waitForScreen(EDITOR_READY, "the editor idle after compaction");
        await tui.turn("And one about early trains.");
        await tui.quit();
      },
    }],
  },
  {
    name: "branched",
    about:
      "Typed in the TUI: two turns, `/tree` back to the first answer with a branch summary, a turn on the " +
      "new branch; `/tree` back to the first answer again without a summary, a turn on a third branch; `/quit`. " +
      "The live branch is the one ending at the file's last entry.",
    runs: [{
      kind: "tui",
      args: BASE_ARGS,
      drive: async (tui) => {
        await tui.turn("Please say hello to the reviewer.");
        await tui.turn("Now a remark about quiet libraries.");
        await navigateTree(tui, assistantText(tui, 0), "Summarize");
        await waitUntil(
          () => tui.entries().some((e) => e.type === "branch_summary") || undefined,
          "the branch summary recorded",
        );
        await tui.turn("Instead, a remark about early trains.");
        await navigateTree(tui, assistantText(tui, 0), "No summary");
        await tui.turn("Or rather, about tidy kitchens.");
        await tui.quit();
      },
    }],
  },
];

// ---------- running ----------

function makeDirs(sc: Scenario, port: number): Dirs {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-capture-")));
  const d = {
    root,
    home: join(root, "home"),
    agent: join(root, "agent"),
    cwd: join(root, "project"),
    tmp: join(root, "tmp"),
  };
  for (const dir of [d.home, d.agent, d.cwd, d.tmp]) mkdirSync(dir, { recursive: true });
  const model = (id: string) => ({ id, reasoning: true, contextWindow: 128000, maxTokens: 16384 });
  const provider = {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    api: "openai-completions",
    apiKey: "fake-key",
    models: [model(MODEL), model(OTHER_MODEL)],
  };
  writeFileSync(
    join(d.agent, "models.json"),
    JSON.stringify({ providers: { fake: provider } }, null, 2) + "\n",
  );
  if (sc.settings) writeFileSync(join(d.agent, "settings.json"), JSON.stringify(sc.settings, null, 2) + "\n");
  return d;
}

function captureEnv(d: Dirs): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: d.home,
    TMPDIR: d.tmp,
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    PI_CODING_AGENT_DIR: d.agent,
    PI_OFFLINE: "1",
  };
}

/** Pi's folder name for a cwd (session-manager.js getDefaultSessionDir): `--` + path with `/` as `-` + `--`. */
function sessionFolderName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** Session files of the project, oldest first (their names start with the ISO time of their creation). */
function sessionFiles(d: Dirs): string[] {
  const dir = join(d.agent, "sessions", sessionFolderName(d.cwd));
  return existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort().map((f) => join(dir, f))
    : [];
}

function parseEntries(text: string): Entry[] {
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as Entry);
}

/** Replaces the private root's and the install's paths, and the session folder named after the cwd, by neutral ones. */
function neutralizer(d: Dirs, bin: string): (s: string) => string {
  const pairs: [string, string][] = [
    // The system prompt names Pi's own docs under its install folder (`<install>/bin/pi`).
    [dirname(dirname(bin)), NEUTRAL_INSTALL],
    [sessionFolderName(d.cwd), sessionFolderName(NEUTRAL_CWD)],
    [d.agent, `${NEUTRAL_HOME}/.pi/agent`],
    [d.cwd, NEUTRAL_CWD],
    [d.tmp, "/tmp"],
    [d.home, NEUTRAL_HOME],
    [d.root, NEUTRAL_HOME],
  ];
  return (s) => pairs.reduce((text, [from, to]) => text.replaceAll(from, to), s);
}

function runExec(bin: string, d: Dirs, env: Record<string, string>, run: Run & { kind: "exec" }) {
  return new Promise<{ exit: number | null; killed?: "SIGKILL" }>((resolve, reject) => {
    const child = spawn(bin, run.args, {
      cwd: d.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
      timeout: 180_000,
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => void (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => void (output += c.toString()));
    child.on("error", reject);
    let killed = false;
    if (run.killMidTool) {
      // The tool's shell writes its pid, then becomes `sleep`: Pi runs it in its own process group (detached).
      const marker = join(d.cwd, "started.pid");
      void waitUntil(
        () => (existsSync(marker) && readFileSync(marker, "utf8").trim()) || undefined,
        "the tool",
      )
        .then((pid) => {
          killed = true;
          child.kill("SIGKILL");
          process.kill(-Number(pid), "SIGKILL");
        }, reject);
    }
    child.on("close", (code) => {
      if (code !== 0 && !killed) process.stderr.write(`  exit ${code}: ${output.slice(-2000)}\n`);
      resolve(killed ? { exit: null, killed: "SIGKILL" } : { exit: code });
    });
  });
}

async function runTui(bin: string, d: Dirs, env: Record<string, string>, run: Run & { kind: "tui" }) {
  const pane = startTmux({ command: bin, args: run.args, cwd: d.cwd, env, columns: 160, rows: 50 });
  try {
    await run.drive(piTui(pane, d));
  } catch (err) {
    process.stderr.write(`  last screen:\n${pane.screen()}\n`);
    throw err;
  } finally {
    pane.close();
  }
}

/** Pi's own session list: the `pi -r` picker's screen, left with Escape. */
async function resumeList(bin: string, d: Dirs, env: Record<string, string>): Promise<string> {
  const pane = startTmux({
    command: bin,
    args: [...BASE_ARGS, "-r"],
    cwd: d.cwd,
    env,
    columns: 160,
    rows: 40,
  });
  try {
    const screen = await pane.waitForScreen(
      (s) => /Resume Session/.test(s) && !/Loading/.test(s),
      "the session picker, loaded",
    );
    return screen.split("\n").map((l) => l.trimEnd()).join("\n").trim() + "\n";
  } finally {
    pane.close();
  }
}

interface LoggedRequest {
  path: string;
  body: { model?: string; reasoning_effort?: string; messages?: unknown[] } | null;
}

async function capture(bin: string, sc: Scenario, outDir: string, keep: boolean) {
  const logDir = mkdtempSync(join(tmpdir(), "pi-capture-log-"));
  const logPath = join(logDir, "requests.jsonl");
  const srv = await startFakeChatCompletions({ logPath, script: piScript });
  const d = makeDirs(sc, srv.port);
  const env = captureEnv(d);
  const results: RunResult[] = [];
  try {
    for (const run of sc.runs) {
      const before = readRequestLog<unknown>(logPath).length;
      const started = Date.now();
      const first = sessionFiles(d)[0] ?? "";
      const id = first === "" ? "" : String(parseEntries(readFileSync(first, "utf8"))[0]?.id ?? "");
      const args = run.args.map((a) => (a === "{first}" ? first : a === "{id}" ? id : a));
      const resolved = { ...run, args } as Run;
      let outcome: { exit: number | null; killed?: "SIGKILL" } = { exit: 0 };
      if (resolved.kind === "exec") outcome = await runExec(bin, d, env, resolved);
      else await runTui(bin, d, env, resolved);
      const neutral = neutralizer(d, bin);
      results.push({
        command: neutral(
          ["pi", ...args.map((a) => (/^[\w./:{}-]+$/.test(a) ? a : JSON.stringify(a)))].join(" "),
        ),
        ...outcome,
        seconds: Math.round(Date.now() - started) / 1000,
        modelCalls: readRequestLog<unknown>(logPath).length - before,
      });
    }
    const listing = await resumeList(bin, d, env);
    return writeScenario(d, sc, outDir, logPath, results, listing, neutralizer(d, bin));
  } finally {
    await srv.close();
    if (keep) process.stderr.write(`  kept ${d.root}\n`);
    else rmSync(d.root, { recursive: true, force: true });
    rmSync(logDir, { recursive: true, force: true });
  }
}

function writeScenario(
  d: Dirs,
  sc: Scenario,
  outDir: string,
  logPath: string,
  results: RunResult[],
  listing: string,
  neutral: (s: string) => string,
): ManifestEntry {
  const files = sessionFiles(d);
  const written = files.map((f, i) => {
    const name = i === 0 ? `${sc.name}.jsonl` : `${sc.name}.${i + 1}.jsonl`;
    writeFileSync(join(outDir, name), neutral(readFileSync(f, "utf8")));
    return { file: neutral(relative(d.root, f)), written: name, kinds: entryKinds(readFileSync(f, "utf8")) };
  });
  const lastRunCalls = results[results.length - 1]?.modelCalls ?? 0;
  const requests = readRequestLog<LoggedRequest>(logPath).slice(readRequestLog(logPath).length - lastRunCalls)
    .map((r) =>
      JSON.stringify({
        path: r.path,
        model: r.body?.model,
        reasoning_effort: r.body?.reasoning_effort,
        messages: r.body?.messages ?? [],
      })
    );
  writeFileSync(join(outDir, `${sc.name}.requests.jsonl`), neutral(requests.map((l) => `${l}\n`).join("")));
  writeFileSync(join(outDir, `${sc.name}.resume-list.txt`), neutral(listing));
  return { about: sc.about, captured: new Date().toISOString().slice(0, 10), runs: results, files: written };
}

/** Entry kinds: `type`, and for a message its role and its content blocks' types (`message/assistant+toolCall`). */
function entryKinds(text: string): Record<string, number> {
  const kinds: Record<string, number> = {};
  for (const entry of parseEntries(text)) {
    let kind = entry.type;
    if (entry.type === "message" && entry.message) {
      const content = entry.message.content;
      const blocks = Array.isArray(content)
        ? [...new Set(content.map((b) => String((b as { type?: unknown }).type)))].filter((t) => t !== "text")
        : [];
      kind = `message/${String(entry.message.role)}${blocks.map((b) => `+${b}`).join("")}`;
      if (entry.message.stopReason === "aborted") kind += " (aborted)";
    }
    kinds[kind] = (kinds[kind] ?? 0) + 1;
  }
  return kinds;
}

interface ManifestEntry {
  about: string;
  captured: string;
  runs: RunResult[];
  files: { file: string; written: string; kinds: Record<string, number> }[];
}

function readmeOf(version: string, manifest: Record<string, ManifestEntry>): string {
  const lines = [
    `# Pi ${version} fixtures`,
    "",
    "Captured from the real binary by `acceptance/capture-pi-fixtures.ts`, offline against the kit's fake Chat " +
    "Completions server (a custom provider `fake` in models.json, api `openai-completions`, loopback baseUrl; " +
    "`PI_OFFLINE=1`). Paths are neutralized (PI_CODING_AGENT_DIR -> `/home/user/.pi/agent`, HOME -> " +
    "`/home/user`, cwd -> `/home/user/project`, its session folder -> `--home-user-project--`, Pi's install folder (named in its system prompt) -> `/opt/pi`); everything else " +
    "is as Pi wrote it. `<scenario>.requests.jsonl` holds the messages of the scenario's last run's model calls; " +
    "`<scenario>.resume-list.txt` the `pi -r` picker afterwards. See docs/harnesses/pi.md for the format.",
    "",
  ];
  const order = SCENARIOS.map((sc) => sc.name);
  for (const name of Object.keys(manifest).sort((a, b) => order.indexOf(a) - order.indexOf(b))) {
    const m = manifest[name] as ManifestEntry;
    lines.push(`## ${name}`, "", m.about, "");
    for (const r of m.runs) {
      const end = r.killed ? `killed (${r.killed})` : `exit ${r.exit}`;
      lines.push(`- \`${r.command}\`: ${end}, ${r.modelCalls} model calls`);
    }
    for (const f of m.files) {
      const kinds = Object.entries(f.kinds).map(([k, n]) => `${k} ${n}`).join(", ");
      lines.push(`- \`${f.written}\` (\`${f.file}\`): ${kinds}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

async function main(argv: string[]) {
  const onlyAt = argv.indexOf("--only");
  const only = onlyAt >= 0 ? (argv[onlyAt + 1] ?? "").split(",") : undefined;
  const keep = argv.includes("--keep");
  const positional = argv.filter((a, i) => !a.startsWith("--") && (onlyAt < 0 || i !== onlyAt + 1));
  const version = positional[0] ?? pinnedVersion("pi");
  const bin = await installHarness("pi", version);
  const outDir = join(REPO, "fixtures", "pi", version);
  mkdirSync(outDir, { recursive: true });
  const manifestPath = join(outDir, "manifest.json");
  const manifest: Record<string, ManifestEntry> = existsSync(manifestPath)
    ? JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, ManifestEntry>
    : {};
  for (const sc of SCENARIOS.filter((s) => only === undefined || only.includes(s.name))) {
    process.stderr.write(`${sc.name}...\n`);
    manifest[sc.name] = await capture(bin, sc, outDir, keep);
  }
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + "\n");
  writeFileSync(join(outDir, "README.md"), readmeOf(version, manifest));
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
