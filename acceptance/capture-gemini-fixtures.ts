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
import { startTmux, type TmuxPane } from "../lib/certify-kit/tmux.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const NEUTRAL_CWD = "/home/user/project";

interface Dirs {
  root: string;
  home: string;
  geminiHome: string;
  cwd: string;
  tmp: string;
}

/** One run of the binary: a one-shot `-p` run, or a TUI session typed through tmux. */
type Run =
  | { kind: "exec"; args: string[] }
  | { kind: "tui"; args: string[]; drive: (tui: GeminiTui) => Promise<void> };

interface Scenario {
  name: string;
  about: string;
  runs: Run[];
}

interface RunResult {
  command: string;
  exit: number | null;
  seconds: number;
  modelCalls: number;
}

// ---------- the TUI, as a person drives it ----------

interface GeminiTui {
  pane: TmuxPane;
  /** Types a prompt, submits it, and waits until the answer of user turn `turn` shows and the agent is idle. */
  turn(prompt: string, turn: number): Promise<void>;
  /** Types a slash command or a prompt and presses Enter, without waiting for an answer. */
  send(text: string): Promise<void>;
  quit(): Promise<void>;
}

const IDLE = (s: string) => !s.includes("esc to cancel");

function geminiTui(pane: TmuxPane): GeminiTui {
  const tui: GeminiTui = {
    pane,
    send: (text) => pane.submit(text),
    turn: async (prompt, turn) => {
      await pane.submit(prompt);
      await pane.waitForScreen(
        (s) =>
          (s.includes(`turn ${turn},`) || s.includes("Tool said:") && s.includes(`> ${prompt}`)) && IDLE(s),
        `the answer to ${JSON.stringify(prompt)}`,
      );
    },
    quit: async () => {
      await pane.submit("/quit");
      await pane.waitForExit(30_000);
    },
  };
  return tui;
}

// ---------- scenarios ----------

const YOLO = ["--approval-mode", "yolo"];

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
        await tui.turn("First typed line about river boats", 1);
        await tui.turn("Second typed line about harbour cranes", 2);
        await tui.turn("TOOL: echo typed-tool-out", 3);
        await tui.quit();
      },
    }],
  },
  {
    name: "interrupted",
    about: "Typed in the TUI: a text turn, then `sleep 30` through the shell tool; while it runs a second " +
      "message is typed (the TUI queues it), then Esc cancels the call; the queued message is sent by itself. " +
      "/quit, then `--resume latest -p` (the requests show how the cancelled call is replayed).",
    runs: [
      {
        kind: "tui",
        args: YOLO,
        drive: async (tui) => {
          await tui.turn("First typed line about river boats", 1);
          await tui.pane.submit("TOOL: sleep 30");
          await tui.pane.waitForScreen(/Shell sleep 30[\s\S]*esc to cancel/, "the running shell call");
          await tui.pane.submit("A queued remark about lighthouses");
          await tui.pane.waitForScreen(/Queued/, "the queued message");
          tui.pane.press("Escape");
          await tui.pane.waitForScreen(
            (s) => s.includes("turn 3,") && IDLE(s),
            "the queued message's answer",
          );
          await tui.quit();
        },
      },
      { kind: "exec", args: ["--resume", "latest", "-p", "Resumed: one more word on ferries"] },
    ],
  },
];

// ---------- running ----------

function makeDirs(): Dirs {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "gemini-capture-")));
  const d: Dirs = {
    root,
    home: join(root, "home"),
    geminiHome: join(root, "gemini"),
    cwd: join(root, "project"),
    tmp: join(root, "tmp"),
  };
  for (const p of [d.home, join(d.geminiHome, ".gemini"), d.cwd, d.tmp]) mkdirSync(p, { recursive: true });
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

/** Replaces private paths by neutral ones (longest first), and the cwd's sha256 project hash with the neutral one. */
function neutralizer(d: Dirs): (s: string) => string {
  const pairs: Array<[string, string]> = [
    [join(d.geminiHome, ".gemini"), "/home/user/.gemini"],
    [d.geminiHome, "/home/user"],
    [d.cwd, NEUTRAL_CWD],
    [d.home, "/home/user"],
    [d.tmp, "/tmp"],
    [d.root, "/tmp/capture"],
    [sha256(d.cwd), sha256(NEUTRAL_CWD)],
  ];
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (s) => pairs.reduce((out, [from, to]) => out.split(from).join(to), s);
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}

function chatsDir(d: Dirs): string {
  return join(d.geminiHome, ".gemini", "tmp", "project", "chats");
}

/** The main session files (newest last by name: the name starts with the start time). */
function sessionFiles(d: Dirs): string[] {
  const dir = chatsDir(d);
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.startsWith("session-") && f.endsWith(".jsonl")).sort().map((f) =>
    join(dir, f)
  );
}

function sessionIdOf(file: string): string {
  const first = readFileSync(file, "utf8").split("\n")[0] ?? "{}";
  return (JSON.parse(first) as { sessionId: string }).sessionId;
}

/** Runs the binary to its end without blocking: the fake server answers from this same event loop. */
function runBin(bin: string, d: Dirs, env: Record<string, string>, args: string[]) {
  return new Promise<{ exit: number | null; output: string }>((resolve, reject) => {
    const child = spawn(bin, args, { cwd: d.cwd, env, stdio: ["ignore", "pipe", "pipe"], timeout: 180_000 });
    let output = "";
    child.stdout.on("data", (c: Buffer) => void (output += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => void (output += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", (exit) => resolve({ exit, output }));
  });
}

async function runExec(bin: string, d: Dirs, env: Record<string, string>, args: string[]) {
  const r = await runBin(bin, d, env, args);
  if (r.exit !== 0) process.stderr.write(`  exit ${r.exit}: ${r.output.slice(-600)}\n`);
  return r.exit;
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

async function capture(bin: string, sc: Scenario, outDir: string, keep: boolean) {
  const d = makeDirs();
  const logPath = join(d.root, "requests.jsonl");
  const srv = await startFakeGemini({ logPath });
  const env = captureEnv(d, srv.url);
  const results: RunResult[] = [];
  try {
    for (const run of sc.runs) {
      const before = readRequestLog<unknown>(logPath).length;
      const started = Date.now();
      const files = sessionFiles(d);
      const session = files.length ? sessionIdOf(files[files.length - 1] as string) : "";
      const args = run.args.map((a) => (a === "{session}" ? session : a));
      let exit: number | null = 0;
      if (run.kind === "exec") exit = await runExec(bin, d, env, args);
      else await runTui(bin, d, env, run);
      results.push({
        command: `gemini ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ")}` +
          (run.kind === "tui" ? " (typed in tmux)" : ""),
        exit,
        seconds: (Date.now() - started) / 1000,
        modelCalls: readRequestLog<unknown>(logPath).length - before,
      });
    }
    const listed = await runBin(bin, d, env, ["--list-sessions"]);
    return { ...writeScenario(d, sc, outDir, logPath, results), results, list: listed.output };
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

function writeScenario(d: Dirs, sc: Scenario, outDir: string, logPath: string, results: RunResult[]) {
  const neutral = neutralizer(d);
  const files = sessionFiles(d);
  if (files.length !== 1) throw new Error(`${sc.name}: expected one session file, found ${files.length}`);
  const main = files[0] as string;
  writeFileSync(join(outDir, `${sc.name}.jsonl`), neutral(readFileSync(main, "utf8")));
  const subDir = join(chatsDir(d), sessionIdOf(main));
  const subagents = existsSync(subDir) ? readdirSync(subDir).filter((f) => f.endsWith(".jsonl")) : [];
  if (subagents.length) mkdirSync(join(outDir, `${sc.name}.subagents`), { recursive: true });
  for (const f of subagents) {
    writeFileSync(join(outDir, `${sc.name}.subagents`, f), neutral(readFileSync(join(subDir, f), "utf8")));
  }
  const lastRunCalls = results[results.length - 1]?.modelCalls ?? 0;
  const requests = readRequestLog<LoggedRequest>(logPath).slice(-lastRunCalls).map((r) =>
    JSON.stringify({ path: r.path, contents: r.body?.contents ?? null })
  );
  writeFileSync(join(outDir, `${sc.name}.requests.jsonl`), neutral(requests.map((l) => `${l}\n`).join("")));
  const projects = join(d.geminiHome, ".gemini", "projects.json");
  writeFileSync(join(outDir, "projects.json"), neutral(readFileSync(projects, "utf8")));
  return {
    file: neutral(relative(d.geminiHome, main)),
    subagents: subagents.map((f) => neutral(relative(d.geminiHome, join(subDir, f)))),
    bytes: statSync(main).size,
    neutral,
  };
}

/** Record kinds of a session file: message types, `$set` keys, `$rewindTo`, the metadata line. */
function recordKinds(text: string): Record<string, number> {
  const kinds: Record<string, number> = {};
  const add = (k: string) => void (kinds[k] = (kinds[k] ?? 0) + 1);
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as Record<string, unknown>;
    if ("$rewindTo" in r) add("$rewindTo");
    else if ("$set" in r) add(`$set{${Object.keys(r.$set as object).sort().join(",")}}`);
    else if (typeof r.id === "string") {
      add(`message/${String(r.type)}${"toolCalls" in r ? "+toolCalls" : ""}`);
    } else add("metadata");
  }
  return Object.fromEntries(Object.entries(kinds).sort());
}

async function main(argv: string[]) {
  const onlyAt = argv.indexOf("--only");
  const outAt = argv.indexOf("--out");
  const only = onlyAt >= 0 ? (argv[onlyAt + 1] ?? "").split(",") : undefined;
  const keep = argv.includes("--keep");
  const flagValues = new Set([onlyAt + 1, outAt + 1]);
  const version = argv.find((a, i) => !a.startsWith("--") && !flagValues.has(i)) ??
    pinnedVersion("gemini-cli");
  const bin = await installHarness("gemini-cli", version);
  const outDir = outAt >= 0 ? (argv[outAt + 1] as string) : join(REPO, "fixtures", "gemini-cli", version);
  mkdirSync(outDir, { recursive: true });
  const manifest: Record<string, unknown> = {};
  const readme: string[] = [
    `# Gemini CLI ${version} fixtures`,
    "",
    `Captured by \`acceptance/capture-gemini-fixtures.ts ${version}\` on ${
      new Date().toISOString().slice(0, 10)
    } ` +
    `from the real \`@google/gemini-cli@${version}\` (node bundle), driven offline against ` +
    "`lib/certify-kit/fake-servers/gemini.ts` (`GOOGLE_GEMINI_BASE_URL`, `GEMINI_API_KEY`, settings " +
    '`security.auth.selectedType: "gemini-api-key"`). Each scenario ran in a fresh private HOME, ' +
    "GEMINI_CLI_HOME, TMPDIR and cwd.",
    "",
    "Paths are neutralized (GEMINI_CLI_HOME and HOME -> `/home/user`, cwd -> `/home/user/project`, TMPDIR -> " +
    "`/tmp`, capture root -> `/tmp/capture`), and so is the project hash (sha256 of the cwd's path, replaced " +
    "by the sha256 of `/home/user/project`); everything else is byte for byte what Gemini CLI wrote (ids, " +
    "timestamps, process group ids). Model ids are those the CLI's router picked; the fake answers any model.",
    "",
    "Files: `<scenario>.jsonl` (the session file under `~/.gemini/tmp/project/chats/`), `<scenario>.subagents/` " +
    "(subagent sessions), `<scenario>.requests.jsonl` (path and `contents` of every model call of the " +
    "scenario's last run), `<scenario>.list-sessions.txt` (`gemini --list-sessions` afterwards), `projects.json`.",
  ];
  for (const sc of SCENARIOS) {
    if (only && !only.includes(sc.name)) continue;
    process.stderr.write(`${sc.name} ...\n`);
    const out = await capture(bin, sc, outDir, keep);
    writeFileSync(join(outDir, `${sc.name}.list-sessions.txt`), out.neutral(out.list));
    const kinds = recordKinds(readFileSync(join(outDir, `${sc.name}.jsonl`), "utf8"));
    manifest[sc.name] = {
      about: sc.about,
      runs: out.results,
      file: out.file,
      subagents: out.subagents,
      kinds,
    };
    readme.push(
      "",
      `## ${sc.name}`,
      "",
      sc.about,
      "",
      ...out.results.map((r, i) =>
        `- run ${i + 1}: \`${
          out.neutral(r.command)
        }\` -> exit ${r.exit}, ${r.modelCalls} model call(s), ${r.seconds} s`
      ),
      `- session file: \`${out.file}\`${out.subagents.map((s) => `; subagent \`${s}\``).join("")}`,
      `- records: ${Object.entries(kinds).map(([k, n]) => `\`${k}\` (${n})`).join(", ")}`,
    );
  }
  const manifestPath = join(outDir, "manifest.json");
  const previous = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, "utf8")) as object : {};
  writeFileSync(manifestPath, `${JSON.stringify({ ...previous, ...manifest }, null, 2)}\n`);
  if (!only) writeFileSync(join(outDir, "README.md"), `${readme.join("\n")}\n`);
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  });
}
