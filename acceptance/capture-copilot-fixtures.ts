// Captures REAL GitHub Copilot CLI sessions offline, against the fake Chat Completions server
// (lib/certify-kit/fake-servers/chat-completions.ts) with a script of this file's own (Copilot's tools).
//
//   npx bun acceptance/capture-copilot-fixtures.ts [version] [--only a,b] [--keep] [--out <dir>]
//
// Each scenario gets a fresh private root: HOME=<root>/home, COPILOT_HOME=<root>/copilot (the capture shows the
// variable moves the store), TMPDIR=<root>/tmp, cwd <root>/project (trusted in config.json, so the TUI asks
// nothing), and its own fake server. The binary unpacks its JS package into $XDG_CACHE_HOME/copilot/pkg on every
// start; one cache beside the installs keeps that out of the user's own cache. Offline means: the provider
// variables (COPILOT_PROVIDER_*), COPILOT_OFFLINE=true, `--no-auto-update --no-remote`; no login is asked.
// One-shot runs are `copilot -p "<prompt>"`; TUI runs are typed into `copilot` in a tmux pane on a private
// socket (lib/certify-kit/tmux.ts) and left with `/exit`.
// Writes into fixtures/copilot-cli/<version>/<scenario>/:
//   session-state/<uuid>/...   every text file of each session folder, paths neutralized, otherwise byte for
//                              byte (events.jsonl, workspace.yaml, checkpoints/, ...); a SQLite file (the
//                              per-session session.db) as <name>.json: its schema and rows
//   session-store.json         the global index (session-store.db): its schema and the rows of its tables
//   requests.jsonl             per model call of the LAST run: messages (system prompts by length) and tools
//   session-list.txt           the TUI's Sessions tab afterwards (the session list a user picks from)
// and manifest.json, README.md: how each fixture was made and which event types it holds.
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
import { DatabaseSync } from "node:sqlite";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import { harnessCacheRoot, installHarness, pinnedVersion } from "./install-harness.ts";
import { runBin } from "./capture-gemini-fixtures.ts";
import {
  type ChatRequest,
  contentText,
  neutralReply,
  type Script,
  type ScriptReply,
  startFakeChatCompletions,
  toolResultText,
} from "../lib/certify-kit/fake-servers/chat-completions.ts";
import { readRequestLog } from "../lib/certify-kit/request-log.ts";
import { startTmux, type TmuxPane, waitUntil } from "../lib/certify-kit/tmux.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const NEUTRAL_CWD = "/home/user/project";
const OFFLINE_FLAGS = ["--no-auto-update", "--no-remote"];
/** The command the slow scenarios' shell call runs: a duration no other process of the machine has. */
const SLOW_COMMAND = "sleep 47";

// ---------- the fake model: Copilot's own tools, by a marker word in the prompt ----------

/**
 * The calls a marker asks for, one per model call, in order; the answer after the last result quotes it.
 * `cwd` is the run's working directory (Copilot's file tools take absolute paths).
 */
function stepsFor(marker: string, cwd: string): ScriptReply[] {
  const think = (what: string) => `REASONING: the user asked for a tour; next, ${what}.`;
  const call = (what: string, name: string, args: Record<string, string | string[]>): ScriptReply => ({
    reasoning: think(what),
    toolCalls: [{ name, arguments: args }],
  });
  switch (marker) {
    case "TOOLS":
      return [
        call("a shell command", "bash", { command: "echo fixture-out", description: "Print a marker" }),
        call("reading a file", "view", { path: join(cwd, "notes.txt") }),
        call("writing a file", "create", { path: join(cwd, "made.txt"), file_text: "first line\n" }),
        call("editing it", "edit", { path: join(cwd, "made.txt"), old_str: "first", new_str: "edited" }),
        call("searching", "grep", { pattern: "edited", output_mode: "content" }),
        call("listing files", "glob", { pattern: "*.txt" }),
        call("a todo", "sql", {
          description: "Insert a todo",
          query: "INSERT INTO todos (id, title, status) VALUES ('t1', 'Tidy the notes', 'pending')",
        }),
      ];
    case "SUBAGENT":
      return [call("a subagent", "task", {
        description: "Scout the project",
        prompt: "SCOUT: list the text files of the project and say how many there are.",
        agent_type: "explore",
        name: "scout",
      })];
    case "SCOUT":
      return [call("listing files", "glob", { pattern: "*.txt" })];
    case "SLOW":
      return [call("a slow command", "bash", { command: SLOW_COMMAND, description: "Wait a while" })];
    default:
      return [];
  }
}

/** The last user message's text without the `<current_datetime>` block Copilot puts before every prompt. */
function lastPrompt(req: ChatRequest): { text: string; at: number } {
  const at = req.messages.findLastIndex((m) => m.role === "user");
  const text = contentText(req.messages[at]?.content).replace(
    /^<current_datetime>[^<]*<\/current_datetime>\s*/,
    "",
  );
  return { text, at };
}

function copilotScript(cwd: string): Script {
  return (req) => {
    const { text, at } = lastPrompt(req);
    const marker = /^([A-Z]+):/.exec(text.trim())?.[1] ?? "";
    const steps = stepsFor(marker, cwd);
    const results = req.messages.slice(at + 1).filter((m) => m.role === "tool");
    const next = steps[results.length];
    if (next) return next;
    const last = results.at(-1);
    return { content: last ? `Tool said: ${toolResultText(last.content)}` : neutralReply(text, at) };
  };
}

// ---------- scenarios ----------

interface Dirs {
  root: string;
  home: string;
  copilotHome: string;
  cwd: string;
  tmp: string;
}

/** What a TUI run does once the input box shows; `{session}` in later runs' args is the newest session. */
type Drive = (tui: CopilotTui) => Promise<void>;

type Run =
  | { kind: "exec"; args: string[]; killWhenRunning?: string }
  | { kind: "tui"; args: string[]; drive: Drive };

interface Scenario {
  name: string;
  about: string;
  runs: Run[];
}

const YOLO = "--allow-all-tools";

const SCENARIOS: Scenario[] = [
  {
    name: "exec",
    about: "One-shot run: a prompt and its answer.",
    runs: [{
      kind: "exec",
      args: ["-p", "Please greet the reviewer with one sentence about tidy kitchens."],
    }],
  },
  {
    name: "exec-tools",
    about:
      "One-shot run: one call of each of Copilot's own tools (bash, view, create, edit, grep, glob, sql " +
      "on the todos table), each after a reasoning text (`reasoning_content`), then an answer.",
    runs: [{ kind: "exec", args: [YOLO, "-p", "TOOLS: take a tour of the project."] }],
  },
  {
    name: "exec-subagent",
    about: "One-shot run: a `task` call starts an `explore` subagent, which calls glob and answers.",
    runs: [{ kind: "exec", args: [YOLO, "-p", "SUBAGENT: have a scout look at the project."] }],
  },
  {
    name: "exec-resumed",
    about: "One-shot run, then `--resume=<id> -p` and `--continue -p`: three turns in one session; the " +
      "requests are those of the last run (what the CLI replays).",
    runs: [
      { kind: "exec", args: ["-p", "Please greet the reviewer with one sentence about tidy kitchens."] },
      { kind: "exec", args: ["--resume={session}", "-p", "Now add a second remark, about quiet libraries."] },
      { kind: "exec", args: ["--continue", "-p", "And a third, about early trains."] },
    ],
  },
  {
    name: "killed-mid-tool",
    about:
      `One-shot run SIGKILLed (with the processes it started) while its bash call runs \`${SLOW_COMMAND}\`.`,
    runs: [{ kind: "exec", args: [YOLO, "-p", "SLOW: wait a while."], killWhenRunning: SLOW_COMMAND }],
  },
  {
    name: "killed-resumed",
    about: "The killed run, then `--resume=<id> -p`: how Copilot treats the call left open when it resumes.",
    runs: [
      { kind: "exec", args: [YOLO, "-p", "SLOW: wait a while."], killWhenRunning: SLOW_COMMAND },
      { kind: "exec", args: [YOLO, "--resume={session}", "-p", "Please carry on."] },
    ],
  },
  {
    name: "interactive",
    about: "Typed in the TUI (tmux): a prompt, then one asking for a shell call, then `/exit`.",
    runs: [{
      kind: "tui",
      args: [YOLO],
      drive: async (tui) => {
        await tui.turn("Please greet the reviewer with one sentence about tidy kitchens.");
        await tui.turn("TOOLS: take a tour of the project.");
      },
    }],
  },
  {
    name: "interrupted",
    about:
      `Typed in the TUI: a prompt whose bash call runs \`${SLOW_COMMAND}\`, interrupted with Escape while ` +
      "it runs, then another prompt answered, then `/exit`.",
    runs: [{
      kind: "tui",
      args: [YOLO],
      drive: async (tui) => {
        await tui.send("SLOW: wait a while.");
        await waitUntil(() => tui.running(SLOW_COMMAND) || undefined, `${SLOW_COMMAND} running`);
        tui.pane.press("Escape");
        await tui.event((e) => e.type === "abort", "the abort event");
        await tui.turn("Please greet the reviewer with one sentence about tidy kitchens.");
      },
    }],
  },
  {
    name: "compacted",
    about: "Typed in the TUI: two prompts, `/compact`, one more prompt, then `/exit`.",
    runs: [{
      kind: "tui",
      args: [YOLO],
      drive: async (tui) => {
        await tui.turn("Please greet the reviewer with one sentence about tidy kitchens.");
        await tui.turn("TOOLS: take a tour of the project.");
        await tui.send("/compact");
        await tui.event((e) => e.type === "session.compaction_complete", "the compaction", 120_000);
        await tui.turn("And a third remark, about early trains.");
      },
    }],
  },
  {
    name: "tui-resumed",
    about: "One-shot run, then `copilot --resume=<id>` typed in the TUI: one more prompt, then `/exit`.",
    runs: [
      { kind: "exec", args: ["-p", "Please greet the reviewer with one sentence about tidy kitchens."] },
      {
        kind: "tui",
        args: [YOLO, "--resume={session}"],
        drive: (tui) => tui.turn("Now add a second remark, about quiet libraries."),
      },
    ],
  },
];

// ---------- the store ----------

interface Event {
  type: string;
  data: Record<string, unknown>;
}

function sessionStateDir(d: Dirs): string {
  return join(d.copilotHome, "session-state");
}

/** The session folders, oldest first by their session.start time. */
function sessionIds(d: Dirs): string[] {
  const dir = sessionStateDir(d);
  if (!existsSync(dir)) return [];
  const started = (id: string) => {
    const first = readFileSync(join(dir, id, "events.jsonl"), "utf8").split("\n")[0] ?? "";
    return first ? String((JSON.parse(first) as { timestamp: string }).timestamp) : "";
  };
  return readdirSync(dir).filter((id) => existsSync(join(dir, id, "events.jsonl")))
    .sort((a, b) => started(a).localeCompare(started(b)));
}

function eventsOf(d: Dirs, id: string): Event[] {
  const path = join(sessionStateDir(d), id, "events.jsonl");
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Event);
}

// ---------- the TUI, as a person drives it ----------

interface CopilotTui {
  pane: TmuxPane;
  /** Types a prompt, submits it, and waits for its final answer (an assistant message with no tool call). */
  turn(prompt: string): Promise<void>;
  /** Types text into the input box and submits it; waits for nothing after. */
  send(text: string): Promise<void>;
  /** Waits until the session records an event after those there when the TUI started driving. */
  event(test: (e: Event) => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Whether a process running `command` is below the TUI. */
  running(command: string): boolean;
}

/** The footer of the input box: shown once the TUI takes input. */
const READY = /\/ commands · \? help/;

function copilotTui(pane: TmuxPane, d: Dirs, known: number, pid: () => number): CopilotTui {
  const current = () => sessionIds(d).at(-1) ?? "";
  const seen = new Map<string, number>();
  const tui: CopilotTui = {
    pane,
    send: async (text) => {
      await pane.waitForScreen(READY, "the input box");
      await pane.submit(text);
    },
    event: async (test, what, timeoutMs) => {
      await waitUntil(
        () => {
          const events = eventsOf(d, current());
          const from = seen.get(what) ?? (sessionIds(d).length > known ? 0 : events.length);
          seen.set(what, from);
          return events.slice(from).some(test) || undefined;
        },
        what,
        timeoutMs,
        () => pane.screen().split("\n").filter((l) => l.trim()).slice(-4).join(" | "),
      );
    },
    turn: async (prompt) => {
      const before = eventsOf(d, current()).length;
      await tui.send(prompt);
      await waitUntil(
        () => {
          const events = eventsOf(d, current()).slice(sessionIds(d).length > known ? 0 : before);
          const asked = events.findIndex((e) => e.type === "user.message" && e.data.content === prompt);
          return asked >= 0 && events.slice(asked).some((e) => e.type === "assistant.turn_end") &&
              events.slice(asked).some((e) =>
                e.type === "assistant.message" && (e.data.toolRequests as unknown[] | undefined)?.length === 0
              ) || undefined;
        },
        `the answer to ${JSON.stringify(prompt.slice(0, 30))}`,
        120_000,
      );
      await pane.waitForScreen(READY, "the input box again");
    },
    running: (command) => readDescendants(pid()).some((c) => c === command),
  };
  return tui;
}

/**
 * Command lines of every process below `pid` (children of children included). Each thread lists the children
 * it started, and Copilot starts its shells from worker threads: every task's list is read.
 */
function readDescendants(pid: number): string[] {
  const out: string[] = [];
  const queue = [pid];
  for (let i = 0; i < queue.length; i++) {
    const tasks = `/proc/${queue[i]}/task`;
    if (!existsSync(tasks)) continue;
    const children = readdirSync(tasks).flatMap((task) => {
      try {
        return readFileSync(join(tasks, task, "children"), "utf8").trim().split(/\s+/).filter(Boolean);
      } catch {
        return []; // the thread ended while we looked
      }
    });
    for (const child of children.map(Number)) {
      queue.push(child);
      try {
        out.push(readFileSync(`/proc/${child}/cmdline`, "utf8").split("\0").join(" ").trim());
      } catch {
        // ended while we looked
      }
    }
  }
  return out;
}

// ---------- running ----------

function makeDirs(): Dirs {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "copilot-capture-")));
  const d: Dirs = {
    root,
    home: join(root, "home"),
    copilotHome: join(root, "copilot"),
    cwd: join(root, "project"),
    tmp: join(root, "tmp"),
  };
  for (const p of [d.home, d.copilotHome, d.cwd, d.tmp]) mkdirSync(p, { recursive: true });
  // What the trust dialog's "remember this folder" writes: the TUI then starts at its input box.
  writeFileSync(
    join(d.copilotHome, "config.json"),
    `${JSON.stringify({ trustedFolders: [d.cwd] }, null, 2)}\n`,
  );
  writeFileSync(join(d.cwd, "notes.txt"), "a note to read\n");
  return d;
}

/** One package cache for every capture (the binary unpacks ~235 MB into it on first start). */
const PACKAGE_CACHE = join(harnessCacheRoot(), "copilot-cli-xdg-cache");

function captureEnv(d: Dirs, baseUrl: string): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: d.home,
    COPILOT_HOME: d.copilotHome,
    XDG_CACHE_HOME: PACKAGE_CACHE,
    TMPDIR: d.tmp,
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
    COPILOT_PROVIDER_BASE_URL: `${baseUrl}/v1`,
    COPILOT_PROVIDER_TYPE: "openai",
    COPILOT_PROVIDER_WIRE_API: "completions",
    COPILOT_PROVIDER_MODEL_ID: "gpt-4.1",
    COPILOT_PROVIDER_WIRE_MODEL: "fake-model",
    COPILOT_OFFLINE: "true",
  };
}

/** Replaces private paths by neutral ones, longest first. */
function neutralizer(d: Dirs): (s: string) => string {
  const pairs: Array<[string, string]> = [
    [d.copilotHome, "/home/user/.copilot"],
    [d.cwd, NEUTRAL_CWD],
    [d.home, "/home/user"],
    [d.tmp, "/tmp"],
    [d.root, "/tmp/capture"],
    [PACKAGE_CACHE, "/home/user/.cache"],
  ];
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (s) => pairs.reduce((out, [from, to]) => out.split(from).join(to), s);
}

interface RunResult {
  command: string;
  exit: number | null;
  killed?: "SIGKILL";
  seconds: number;
  modelCalls: number;
}

async function runTui(bin: string, d: Dirs, env: Record<string, string>, args: string[], drive: Drive) {
  const pane = startTmux({ command: bin, args, cwd: d.cwd, env, columns: 160, rows: 50 });
  try {
    await pane.waitForScreen(READY, "the input box", 90_000);
    const known = sessionIds(d).length;
    await drive(copilotTui(pane, d, known, () => tuiPid(d)));
    await pane.submit("/exit");
    await pane.waitForExit(60_000);
  } finally {
    pane.close();
  }
}

/** The copilot process of the pane: the one whose cwd is the project and whose COPILOT_HOME is this root's. */
function tuiPid(d: Dirs): number {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      const exe = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0")[0] ?? "";
      if (exe.endsWith("/copilot") && environ.includes(`COPILOT_HOME=${d.copilotHome}`)) return Number(entry);
    } catch {
      // not ours to read, or ended
    }
  }
  return -1;
}

/**
 * The TUI's session list: the Sessions tab (Tab from the start screen). `copilot --resume` with no id shows no
 * list here: with the sessions of one folder it resumes the newest.
 */
async function sessionList(bin: string, d: Dirs, env: Record<string, string>): Promise<string> {
  const pane = startTmux({ command: bin, args: OFFLINE_FLAGS, cwd: d.cwd, env, columns: 160 });
  try {
    await pane.waitForScreen(READY, "the input box", 90_000);
    pane.press("Tab");
    return await pane.waitForScreen(/Session\s+Status\s+Modified/, "the Sessions tab", 30_000);
  } finally {
    pane.close();
  }
}

async function capture(bin: string, sc: Scenario, outDir: string, keep: boolean) {
  const d = makeDirs();
  const logPath = join(d.root, "requests.jsonl");
  const srv = await startFakeChatCompletions({ logPath, script: copilotScript(d.cwd) });
  const env = captureEnv(d, srv.url);
  const results: RunResult[] = [];
  try {
    let lastRunFrom = 0;
    for (const run of sc.runs) {
      lastRunFrom = readRequestLog<unknown>(logPath).length;
      const started = Date.now();
      const args = [
        ...OFFLINE_FLAGS,
        ...run.args.map((a) => a.replace("{session}", sessionIds(d).at(-1) ?? "")),
      ];
      let outcome: { exit: number | null; killed?: "SIGKILL" } = { exit: 0 };
      if (run.kind === "exec") {
        const r = await runBin(bin, d.cwd, env, args, run.killWhenRunning);
        if (r.exit !== 0 && !r.killed) process.stderr.write(`  exit ${r.exit}: ${r.output.slice(-600)}\n`);
        outcome = { exit: r.exit, ...(r.killed ? { killed: r.killed } : {}) };
      } else await runTui(bin, d, env, args, run.drive);
      results.push({
        command: ["copilot", ...args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a))].join(" ") +
          (run.kind === "tui" ? " (typed in tmux)" : ""),
        ...outcome,
        seconds: (Date.now() - started) / 1000,
        modelCalls: readRequestLog<unknown>(logPath).length - lastRunFrom,
      });
    }
    const neutral = neutralizer(d);
    const dir = join(outDir, sc.name);
    rmSync(dir, { recursive: true, force: true });
    // The store as the runs left it: the TUI that shows the list starts a session of its own.
    const files = writeStore(d, dir, neutral);
    const kinds = eventKinds(d);
    writeFileSync(join(dir, "requests.jsonl"), neutral(requestLines(logPath, lastRunFrom)));
    const list = await sessionList(bin, d, env);
    writeFileSync(
      join(dir, "session-list.txt"),
      neutral(list.split("\n").map((l) => l.trimEnd()).join("\n")),
    );
    return { results, files, neutral, kinds };
  } finally {
    await srv.close();
    // A TUI ended by closing its tmux server still writes its state on the way out: wait until it is gone.
    await waitUntil(() => tuiPid(d) === -1 || undefined, "the last copilot process of the capture to end");
    if (!keep) rmSync(d.root, { recursive: true, force: true });
    else process.stderr.write(`  kept ${d.root}\n`);
  }
}

/** Every file of the session folders (text as is, SQLite as a dump, dotfiles and empty files left out). */
function writeStore(d: Dirs, dir: string, neutral: (s: string) => string): string[] {
  const written: string[] = [];
  const walk = (from: string) => {
    for (const entry of readdirSync(from, { withFileTypes: true })) {
      const path = join(from, entry.name);
      if (entry.name.startsWith(".")) continue;
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const bytes = readFileSync(path);
        if (bytes.length === 0) continue;
        const rel = relative(d.copilotHome, path);
        const isSqlite = bytes.subarray(0, 15).toString("latin1") === "SQLite format 3";
        const out = join(dir, isSqlite ? `${rel}.json` : rel);
        mkdirSync(dirname(out), { recursive: true });
        writeFileSync(out, neutral(isSqlite ? sqliteDump(path) : bytes.toString("utf8")));
        written.push(relative(dir, out));
      }
    }
  };
  walk(sessionStateDir(d));
  const store = join(d.copilotHome, "session-store.db");
  if (existsSync(store)) {
    writeFileSync(join(dir, "session-store.json"), neutral(sqliteDump(store)));
    written.push("session-store.json");
  }
  return written.sort();
}

/** A database's schema and every row of its tables (FTS shadow tables left out: the FTS table has the text). */
function sqliteDump(path: string): string {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const master = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY name")
      .all();
    const shadow = /_(data|idx|content|docsize|config)$/;
    const tables: Record<string, unknown[]> = {};
    for (const row of master) {
      const name = String(row.name);
      if (row.type !== "table" || shadow.test(name) || name === "sqlite_sequence") continue;
      tables[name] = db.prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`).all();
    }
    const schema = master.map((r) => String(r.sql).replace(/\s+/g, " "));
    return `${JSON.stringify({ schema, tables }, (_, v) => (typeof v === "bigint" ? Number(v) : v), 1)}\n`;
  } finally {
    db.close();
  }
}

interface LoggedRequest {
  path: string;
  body:
    | { messages?: { role: string; content?: unknown }[]; tools?: { function?: { name?: string } }[] }
    | null;
}

/** The last run's model calls: messages (a system prompt only by its length) and the names of the tools. */
function requestLines(logPath: string, from: number): string {
  return readRequestLog<LoggedRequest>(logPath).slice(from).map((r) => {
    const messages = (r.body?.messages ?? []).map((m) =>
      m.role === "system"
        ? { role: "system", content: `<${contentText(m.content as never).length} chars>` }
        : m
    );
    const tools = (r.body?.tools ?? []).map((t) => t.function?.name ?? "");
    return `${JSON.stringify({ path: r.path, messages, tools })}\n`;
  }).join("");
}

/** Event types per session folder, counted; `+tools` marks an assistant.message with tool requests. */
function eventKinds(d: Dirs): Record<string, Record<string, number>> {
  return Object.fromEntries(
    sessionIds(d).map((id) => {
      const kinds: Record<string, number> = {};
      for (const e of eventsOf(d, id)) {
        const toolRequests = (e.data.toolRequests as unknown[] | undefined)?.length ?? 0;
        const sub = (e as unknown as { agentId?: string }).agentId ? " (subagent)" : "";
        const key = `${e.type}${e.type === "assistant.message" && toolRequests ? "+tools" : ""}${sub}`;
        kinds[key] = (kinds[key] ?? 0) + 1;
      }
      return [id, Object.fromEntries(Object.entries(kinds).sort())];
    }),
  );
}

interface ManifestEntry {
  about: string;
  captured: string;
  runs: RunResult[];
  files: string[];
  /** Event types of each session folder (by session id). */
  kinds: Record<string, Record<string, number>>;
}

function readmeOf(version: string, manifest: Record<string, ManifestEntry>): string {
  const lines = [
    `# GitHub Copilot CLI ${version} fixtures`,
    "",
    `Captured by \`acceptance/capture-copilot-fixtures.ts ${version}\` (the date is given per scenario) from ` +
    `the real \`@github/copilot@${version}\` (native binary), driven offline against ` +
    "`lib/certify-kit/fake-servers/chat-completions.ts` (`COPILOT_PROVIDER_BASE_URL`, " +
    "`COPILOT_PROVIDER_TYPE=openai`, `COPILOT_PROVIDER_WIRE_API=completions`, `COPILOT_PROVIDER_MODEL_ID=gpt-4.1`, " +
    "`COPILOT_PROVIDER_WIRE_MODEL=fake-model`, `COPILOT_OFFLINE=true`, `--no-auto-update --no-remote`; no " +
    "login). Each scenario ran in a fresh private HOME, COPILOT_HOME, TMPDIR and cwd (trusted in `config.json`).",
    "",
    "Paths are neutralized (COPILOT_HOME -> `/home/user/.copilot`, HOME -> `/home/user`, cwd -> " +
    "`/home/user/project`, TMPDIR -> `/tmp`, capture root -> `/tmp/capture`, the package cache -> " +
    "`/home/user/.cache`); everything else is byte for byte what Copilot CLI wrote (ids, timestamps).",
    "",
    "Files per scenario folder: `session-state/<uuid>/` (each session folder's non-empty text files; a SQLite " +
    "file such as the per-session `session.db` as `<name>.json`, its schema and rows), `session-store.json` " +
    "(the global index `session-store.db`: schema and rows, FTS shadow tables left out), `requests.jsonl` " +
    "(messages and tool names of every model call of the scenario's last run; system prompts by length), " +
    "`session-list.txt` (the TUI's Sessions tab afterwards, the list a user resumes from).",
  ];
  const order = SCENARIOS.map((sc) => sc.name);
  for (const name of Object.keys(manifest).sort((a, b) => order.indexOf(a) - order.indexOf(b))) {
    const m = manifest[name] as ManifestEntry;
    lines.push(
      "",
      `## ${name}`,
      "",
      m.about,
      "",
      ...m.runs.map((r, i) =>
        `- run ${i + 1}: \`${r.command}\` -> ${r.killed ? `killed (${r.killed})` : `exit ${r.exit}`}, ` +
        `${r.modelCalls} model call(s), ${r.seconds} s`
      ),
      `- captured ${m.captured}`,
      ...Object.entries(m.kinds).map(([id, kinds]) =>
        `- session \`${id}\`: ${Object.entries(kinds).map(([k, n]) => `\`${k}\` (${n})`).join(", ")}`
      ),
    );
  }
  return `${lines.join("\n")}\n`;
}

async function main(argv: string[]) {
  const onlyAt = argv.indexOf("--only");
  const outAt = argv.indexOf("--out");
  const only = onlyAt >= 0 ? (argv[onlyAt + 1] ?? "").split(",") : undefined;
  const keep = argv.includes("--keep");
  const flagValues = new Set([onlyAt, outAt].filter((at) => at >= 0).map((at) => at + 1));
  const version = argv.find((a, i) => !a.startsWith("--") && !flagValues.has(i)) ??
    pinnedVersion("copilot-cli");
  const bin = await installHarness("copilot-cli", version);
  const outDir = outAt >= 0 ? (argv[outAt + 1] as string) : join(REPO, "fixtures", "copilot-cli", version);
  mkdirSync(outDir, { recursive: true });
  const manifestPath = join(outDir, "manifest.json");
  const manifest = existsSync(manifestPath)
    ? JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, ManifestEntry>
    : {};
  for (const sc of SCENARIOS) {
    if (only && !only.includes(sc.name)) continue;
    process.stderr.write(`${sc.name} ...\n`);
    const out = await capture(bin, sc, outDir, keep);
    manifest[sc.name] = {
      about: sc.about,
      captured: new Date().toISOString().slice(0, 10),
      runs: out.results.map((r) => ({ ...r, command: out.neutral(r.command) })),
      files: out.files,
      kinds: out.kinds,
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
