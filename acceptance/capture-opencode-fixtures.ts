// Captures REAL OpenCode sessions offline, against the fake Chat Completions server
// (lib/certify-kit/fake-servers/chat-completions.ts, the kind Hermes uses).
//
//   npx bun acceptance/capture-opencode-fixtures.ts [version] [--only a,b] [--keep] [--out <dir>]
//   npx bun acceptance/capture-opencode-fixtures.ts [version] --schema-input <dir>   (see writeSchemaInput)
//
// Each scenario gets a fresh private root: HOME, XDG_DATA_HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_STATE_HOME
// and OPENCODE_CONFIG_DIR (holding the opencode.json that names the fake provider) all under it, cwd
// <root>/project, and its own fake server. Runs are `opencode run` with stdin /dev/null or the prompt (a run
// reads stdin when it is no TTY and waits for its end). OPENCODE_PURE=1 and OPENCODE_DISABLE_MODELS_FETCH=true
// keep it off the network (plugin install, models.dev); `rg` must be on PATH for the glob and grep tools.
// Writes into fixtures/opencode/<version>/:
//   <scenario>.opencode.db        the store after the runs: a VACUUMed copy of opencode.db (WAL folded in),
//                                 paths neutralized in every text column, otherwise as OpenCode wrote it
//   <scenario>.rows.json          the same rows as JSON, per table (the tables that hold rows), for tests that
//                                 want rows without SQLite
//   <scenario>.export.json        `opencode export <id>` of the first top-level session (stdout, as printed);
//   <scenario>.export.top-<n>.json  the same for each later top-level session (a fork), oldest first
//   <scenario>.export.child-<n>.json  the same for each subagent session (parent_id set), oldest first
//   <scenario>.list.json          `opencode session list --format json` afterwards
//   <scenario>.requests.jsonl     per model call of the scenario's LAST run: stream flag and messages (system
//                                 prompts cut to their length), which is what a resumed session replays
//   manifest.json, README.md      how each fixture was made and which part kinds it holds
import { spawn, spawnSync } from "node:child_process";
import { Buffer } from "node:buffer";
import {
  copyFileSync,
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
import { dirname, join } from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { installHarness, pinnedVersion } from "./install-harness.ts";
import { descendants } from "./process-tree.ts";
import {
  type ChatMessage,
  contentText,
  defaultScript,
  type Script,
  startFakeChatCompletions,
  type ToolCallSpec,
} from "../lib/certify-kit/fake-servers/chat-completions.ts";
import { readRequestLog } from "../lib/certify-kit/request-log.ts";
import { startTmux, type TmuxPane, waitUntil } from "../lib/certify-kit/tmux.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const NEUTRAL_CWD = "/home/user/project";

// ---------- what the fake model answers ----------

/**
 * The prompt grammar of these scenarios (the last user message decides):
 * - `STEPS: [[call, ...], ...]`: one assistant step per entry, each with its tool calls (and a reasoning line),
 *   then a closing text once every step has its results;
 * - `THINK: <words>`: reasoning, then a text answer;
 * - `BIG: <words>`: the default answer, its usage 6000 prompt tokens;
 * - anything else: the kit's default script (title requests, `ASSISTANT-REPLY: ...`).
 * OpenCode's title request is a streamed call whose system prompt says "title generator".
 */
const script: Script = (req, ctx) => {
  const msgs = req.messages;
  if (/title generator/i.test(contentText(msgs[0]?.content))) {
    return { content: `Fake Title ${ctx.requestIndex}` };
  }
  const userAt = msgs.findLastIndex((m) => m.role === "user");
  const lastUser: ChatMessage | undefined = msgs[userAt];
  const text = contentText(lastUser?.content).trim();
  const steps = /^STEPS:\s*(\[[\s\S]*\])\s*$/.exec(text);
  if (steps) {
    const all = JSON.parse(steps[1] as string) as ToolCallSpec[][];
    const done = msgs.slice(userAt).filter((m) =>
      m.role === "assistant" && m.tool_calls !== undefined
    ).length;
    const next = all[done];
    if (next) return { reasoning: `REASONING: step ${done + 1} of ${all.length}.`, toolCalls: next };
    return { content: `ALL ${all.length} STEPS DONE.` };
  }
  const think = /^THINK:\s*([\s\S]*)$/.exec(text);
  if (think) return { reasoning: `REASONING about: ${think[1]}`, content: "ANSWER after thinking." };
  // Reported as a call of 6000 prompt tokens: past a small model's context, so OpenCode compacts.
  if (/^BIG:/.test(text)) {
    return { ...defaultScript(req, ctx), usage: { prompt_tokens: 6000, completion_tokens: 10 } };
  }
  return defaultScript(req, ctx);
};

function steps(...calls: ToolCallSpec[][]): string {
  return `STEPS: ${JSON.stringify(calls)}`;
}

// ---------- scenarios ----------

/** `{id}` in an argument stands for the scenario's first top-level session. */
type Run = ExecRun | TuiRun;

/** The TUI (`opencode` with no subcommand) in a tmux pane on a private socket, driven by `drive`. */
interface TuiRun {
  tui: true;
  about: string;
  drive: (pane: TmuxPane, d: Dirs) => Promise<void>;
}

interface ExecRun {
  args: string[];
  /** Text on stdin (the prompt when `args` holds no words); /dev/null when absent. */
  stdin?: string;
  /** SIGKILL the binary and what it started once a process below it has this in its command line. */
  killWhenRunning?: string;
}

interface Scenario {
  name: string;
  about: string;
  runs: Run[];
  /** The fake model's limits in opencode.json (a small context makes OpenCode compact by itself). */
  limit?: { context: number; output: number };
}

const SLEEPER = "sleep 47";

const SCENARIOS: Scenario[] = [
  {
    name: "exec-oneshot",
    about:
      "A one-shot `opencode run` whose prompt is ONE argument holding spaces: OpenCode stores it quoted.",
    runs: [{ args: ["run", "say hello to the fixture"] }],
  },
  {
    name: "exec-tools",
    about:
      "One prompt (on stdin) whose answer calls bash, read, write, edit, glob + grep (one step, two calls), " +
      "todowrite, a read of a missing file (an error result) and task (a subagent session), one step each.",
    runs: [{
      args: ["run"],
      stdin: steps(
        [{ name: "bash", arguments: { command: "echo hi > notes.txt && ls", description: "Make a file" } }],
        [{ name: "read", arguments: { filePath: "notes.txt" } }],
        [{ name: "write", arguments: { filePath: "new.txt", content: "alpha\nbeta\n" } }],
        [{ name: "edit", arguments: { filePath: "new.txt", oldString: "beta", newString: "gamma" } }],
        [{ name: "glob", arguments: { pattern: "*.txt" } }, {
          name: "grep",
          arguments: { pattern: "gamma" },
        }],
        [{
          name: "todowrite",
          arguments: {
            todos: [
              { content: "first thing", status: "in_progress", priority: "high" },
              { content: "second thing", status: "pending", priority: "low" },
            ],
          },
        }],
        [{ name: "read", arguments: { filePath: "missing.txt" } }],
        [{
          name: "task",
          arguments: {
            description: "Look around",
            prompt: "Summarize the project files",
            subagent_type: "general",
          },
        }],
      ),
    }],
  },
  {
    name: "reasoning",
    about: "A prompt (on stdin) answered with reasoning (`reasoning_content`) and then text.",
    runs: [{ args: ["run"], stdin: "THINK: why the sky is blue" }],
  },
  {
    name: "exec-resumed",
    about:
      "A prompt on stdin, resumed with `--session <id>` (words as separate arguments: no quotes), then " +
      "continued with `--continue`.",
    runs: [
      { args: ["run"], stdin: "first prompt of the resumed session" },
      { args: ["run", "--session", "{id}", "second", "prompt"] },
      { args: ["run", "--continue", "third", "prompt"] },
    ],
  },
  {
    name: "exec-forked",
    about:
      "A session, then `run --session <id> --fork`: OpenCode copies it into a new session and continues there.",
    runs: [
      { args: ["run"], stdin: "prompt before the fork" },
      { args: ["run", "--session", "{id}", "--fork", "prompt", "after", "the", "fork"] },
    ],
  },
  {
    name: "killed-mid-tool",
    about:
      `A bash call (\`${SLEEPER}\`) killed (SIGKILL, OpenCode and the shell) while it runs: the tool part ` +
      "stays as it was when the process died.",
    runs: [{
      args: ["run"],
      stdin: steps([{ name: "bash", arguments: { command: SLEEPER, description: "Wait" } }]),
      killWhenRunning: SLEEPER,
    }],
  },
  {
    name: "killed-resumed",
    about:
      "As killed-mid-tool, then resumed with `--session <id>`: how OpenCode settles the dead call on resume " +
      "(the requests show what the model is sent).",
    runs: [
      {
        args: ["run"],
        stdin: steps([{ name: "bash", arguments: { command: SLEEPER, description: "Wait" } }]),
        killWhenRunning: SLEEPER,
      },
      { args: ["run", "--session", "{id}", "after", "the", "kill"] },
    ],
  },
  {
    name: "compacted",
    about:
      "A model whose context is 4000 tokens (opencode.json `limit`) and a turn the fake server reports as " +
      '6000 prompt tokens: OpenCode compacts the session by itself (a summary, then a synthetic "Continue" ' +
      "turn); a second run resumes it.",
    limit: { context: 4000, output: 100 },
    runs: [
      { args: ["run"], stdin: "BIG: first prompt before compaction" },
      { args: ["run", "--session", "{id}", "prompt", "after", "compaction"] },
    ],
  },
  {
    name: "tui",
    about:
      "Typed in the TUI through tmux: a prompt; a bash call interrupted with Escape while it runs; `/compact`; " +
      "then the TUI is closed (tmux server killed).",
    runs: [{ tui: true, about: "prompt, Escape mid-tool, /compact", drive: driveTui }],
  },
];

const TUI_SLEEPER = "sleep 59";

/** The assistant messages of the store so far, read-only (OpenCode keeps writing: WAL lets us read). */
function assistantMessages(d: Dirs): { summary?: boolean; error?: unknown; time: { completed?: number } }[] {
  if (!existsSync(dbPath(d))) return [];
  const db = new DatabaseSync(dbPath(d), { readOnly: true });
  try {
    return (db.prepare("SELECT data FROM message ORDER BY id").all() as { data: string }[])
      .map((r) =>
        JSON.parse(r.data) as {
          role: string;
          summary?: boolean;
          error?: unknown;
          time: { completed?: number };
        }
      )
      .filter((m) => m.role === "assistant");
  } finally {
    db.close();
  }
}

async function driveTui(pane: TmuxPane, d: Dirs): Promise<void> {
  // The first screen takes 35-45 s on a busy 2-core machine.
  await pane.waitForScreen(/Ask anything/, "the TUI's empty prompt box", 180_000);
  await pane.submit("first typed prompt in the tui");
  await waitUntil(
    () => assistantMessages(d).some((m) => m.time.completed) ? true : undefined,
    "the first answer",
    120_000,
  );
  await pane.submit(steps([{ name: "bash", arguments: { command: TUI_SLEEPER, description: "Wait" } }]));
  await waitUntil(
    () =>
      readdirSync("/proc").some((p) => /^\d+$/.test(p) && cmdlineOf(p).includes(TUI_SLEEPER))
        ? true
        : undefined,
    `a process running ${TUI_SLEEPER}`,
    120_000,
  );
  // One Escape arms the interrupt, a second one sent in the same burst is lost: press again every 2 s until
  // the turn is marked aborted (an Escape at the idle prompt does nothing).
  let polls = 0;
  await waitUntil(
    () => {
      if (assistantMessages(d).some((m) => m.error !== undefined)) return true;
      if (polls++ % 10 === 0) pane.press("Escape");
      return undefined;
    },
    "the aborted turn",
    60_000,
  );
  await pane.submit("/compact");
  await waitUntil(
    () => assistantMessages(d).some((m) => m.summary === true && m.time.completed) ? true : undefined,
    "the compaction's summary",
    120_000,
  );
}

function cmdlineOf(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ");
  } catch {
    return "";
  }
}

// ---------- running the binary ----------

interface Dirs {
  root: string;
  home: string;
  data: string;
  config: string;
  cache: string;
  state: string;
  configDir: string;
  cwd: string;
}

function makeDirs(): Dirs {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "opencode-capture-")));
  const d: Dirs = {
    root,
    home: join(root, "home"),
    data: join(root, "data"),
    config: join(root, "config"),
    cache: join(root, "cache"),
    state: join(root, "state"),
    configDir: join(root, "opencode-config"),
    cwd: join(root, "project"),
  };
  for (const p of [d.home, d.data, d.config, d.cache, d.state, d.configDir, d.cwd]) {
    mkdirSync(p, { recursive: true });
  }
  return d;
}

function writeConfig(d: Dirs, baseUrl: string, limit: Scenario["limit"]): void {
  const config = {
    provider: {
      fake: {
        npm: "@ai-sdk/openai-compatible",
        name: "Fake",
        options: { baseURL: `${baseUrl}/v1`, apiKey: "fake-key" },
        models: { "fake-model": { name: "Fake Model", ...(limit ? { limit } : {}) } },
      },
    },
    model: "fake/fake-model",
    autoupdate: false,
    share: "disabled",
  };
  writeFileSync(join(d.configDir, "opencode.json"), `${JSON.stringify(config, null, 2)}\n`);
}

function captureEnv(d: Dirs): Record<string, string> {
  return {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: d.home,
    XDG_DATA_HOME: d.data,
    XDG_CONFIG_HOME: d.config,
    XDG_CACHE_HOME: d.cache,
    XDG_STATE_HOME: d.state,
    OPENCODE_CONFIG_DIR: d.configDir,
    OPENCODE_DISABLE_AUTOUPDATE: "true",
    OPENCODE_DISABLE_MODELS_FETCH: "true",
    // No npm install of @opencode-ai/plugin into the config folders.
    OPENCODE_PURE: "1",
    TERM: "xterm-256color",
    LANG: "C.UTF-8",
  };
}

interface RunResult {
  command: string;
  stdin?: string;
  exit: number | null;
  killed?: "SIGKILL";
  seconds: number;
  modelCalls: number;
}

/** Runs the binary to its end without blocking: the fake server answers from this same event loop. */
function runBin(bin: string, d: Dirs, args: string[], run: ExecRun) {
  return new Promise<{ exit: number | null; killed?: "SIGKILL"; output: string }>((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd: d.cwd,
      env: captureEnv(d),
      stdio: [run.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      timeout: 240_000,
    });
    let output = "";
    let killed: "SIGKILL" | undefined;
    child.stdout?.on("data", (c: Buffer) => void (output += c.toString("utf8")));
    child.stderr?.on("data", (c: Buffer) => void (output += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", (exit) => resolve({ exit, killed, output }));
    if (run.stdin !== undefined) child.stdin?.end(run.stdin);
    const marker = run.killWhenRunning;
    if (marker === undefined || child.pid === undefined) return;
    const pid = child.pid;
    const ended = () => child.exitCode !== null || child.signalCode !== null;
    waitUntil(
      () => {
        if (ended()) return [];
        const below = descendants(pid);
        return below.some((p) => p.cmdline.includes(marker)) ? below : undefined;
      },
      `a process running ${JSON.stringify(marker)}`,
      180_000,
    ).then((below) => {
      if (ended()) return;
      // OpenCode first, so it cannot see its tool end; then what it started (they outlive it otherwise).
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

function dbPath(d: Dirs): string {
  return join(d.data, "opencode", "opencode.db");
}

/** Top-level sessions first (oldest first), then subagent sessions (oldest first). */
function sessionIds(d: Dirs): { top: string[]; children: string[] } {
  const db = new DatabaseSync(dbPath(d), { readOnly: true });
  try {
    const rows = db.prepare("SELECT id, parent_id FROM session ORDER BY time_created, id").all() as {
      id: string;
      parent_id: string | null;
    }[];
    return {
      top: rows.filter((r) => r.parent_id === null).map((r) => r.id),
      children: rows.filter((r) => r.parent_id !== null).map((r) => r.id),
    };
  } finally {
    db.close();
  }
}

/** Replaces private paths by neutral ones, longest first (the `path` column holds them without the first `/`). */
function neutralizer(d: Dirs): (s: string) => string {
  const pairs: Array<[string, string]> = [
    [d.cwd, NEUTRAL_CWD],
    [d.home, "/home/user"],
    [d.data, "/home/user/.local/share"],
    [d.config, "/home/user/.config"],
    [d.cache, "/home/user/.cache"],
    [d.state, "/home/user/.local/state"],
    [d.configDir, "/home/user/.config/opencode"],
    [d.root, "/tmp/capture"],
  ];
  const all = pairs.flatMap((
    [from, to],
  ): Array<[string, string]> => [[from, to], [from.slice(1), to.slice(1)]]);
  all.sort((a, b) => b[0].length - a[0].length);
  return (s) => all.reduce((out, [from, to]) => out.split(from).join(to), s);
}

type Row = Record<string, string | number | null>;

/**
 * Copies the store (OpenCode has exited: no writer), neutralizes every text cell of every table, and VACUUMs it
 * into `out`. Returns the rows of every table that holds any, as written (blobs have no place in this store).
 */
function writeStore(d: Dirs, out: string, neutral: (s: string) => string): Record<string, Row[]> {
  const work = join(d.root, "copy.db");
  for (const suffix of ["", "-wal", "-shm"]) {
    if (existsSync(dbPath(d) + suffix)) copyFileSync(dbPath(d) + suffix, work + suffix);
  }
  const db = new DatabaseSync(work);
  const rows: Record<string, Row[]> = {};
  try {
    const tables = (db.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    ).all() as { name: string }[]).map((t) => t.name);
    db.exec("BEGIN");
    for (const table of tables) {
      const columns = (db.prepare(`PRAGMA table_info("${table}")`).all() as { name: string; type: string }[])
        .filter((c) => c.type.toLowerCase() === "text").map((c) => c.name);
      for (const column of columns) {
        const select = db.prepare(
          `SELECT rowid AS r, "${column}" AS v FROM "${table}" WHERE "${column}" IS NOT NULL`,
        );
        const update = db.prepare(`UPDATE "${table}" SET "${column}" = ? WHERE rowid = ?`);
        for (const cell of select.all() as { r: number; v: string }[]) {
          const v = neutral(cell.v);
          if (v !== cell.v) update.run(v, cell.r);
        }
      }
    }
    db.exec("COMMIT");
    for (const table of tables) {
      if (table === "migration") continue;
      const all = db.prepare(`SELECT * FROM "${table}" ORDER BY rowid`).all() as Row[];
      if (all.length > 0) rows[table] = all;
    }
    rmSync(out, { force: true });
    db.exec(`VACUUM INTO '${out.replaceAll("'", "''")}'`);
  } finally {
    db.close();
  }
  return rows;
}

interface LoggedRequest {
  path: string;
  body: { stream?: boolean; messages?: ChatMessage[] } | null;
}

/** The model calls logged from `from` on, system prompts cut to their length. */
function requestLines(logPath: string, from: number, neutral: (s: string) => string): string[] {
  const calls = readRequestLog<LoggedRequest>(logPath).slice(from).filter((r) =>
    r.path.endsWith("/chat/completions")
  );
  return calls.map((r) => {
    const messages = (r.body?.messages ?? []).map((m) =>
      m.role === "system"
        ? { role: "system", content: `<system prompt: ${contentText(m.content).length} chars>` }
        : m
    );
    return neutral(JSON.stringify({ stream: r.body?.stream ?? false, messages }));
  });
}

function modelCallCount(logPath: string): number {
  return existsSync(logPath)
    ? readRequestLog<LoggedRequest>(logPath).filter((r) => r.path.endsWith("/chat/completions")).length
    : 0;
}

/** `opencode <args>` run to its end, its stdout (export and list print there; progress lines go to stderr). */
function stdoutOf(bin: string, d: Dirs, args: string[]): string {
  const r = spawnSync(bin, args, {
    cwd: d.cwd,
    env: captureEnv(d),
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 120_000,
  });
  if (r.status !== 0) {
    throw new Error(`opencode ${args.join(" ")} exited ${r.status}: ${r.stderr.toString("utf8")}`);
  }
  return r.stdout.toString("utf8");
}

interface Captured {
  results: RunResult[];
  sessions: { top: string[]; children: string[] };
  rows: Record<string, Row[]>;
  files: string[];
}

async function capture(bin: string, sc: Scenario, outDir: string, keep: boolean): Promise<Captured> {
  const d = makeDirs();
  const logPath = join(d.root, "requests.jsonl");
  const server = await startFakeChatCompletions({ logPath, script });
  const neutral = neutralizer(d);
  const results: RunResult[] = [];
  let lastRunFrom = 0;
  try {
    writeConfig(d, server.url, sc.limit);
    for (const run of sc.runs) {
      if ("tui" in run) {
        lastRunFrom = modelCallCount(logPath);
        const started = Date.now();
        const pane = startTmux({
          command: bin,
          args: [],
          cwd: d.cwd,
          env: captureEnv(d),
          columns: 150,
          rows: 40,
        });
        try {
          await run.drive(pane, d);
        } finally {
          pane.close();
        }
        results.push({
          command: `opencode (TUI: ${run.about})`,
          exit: 0,
          seconds: Math.round((Date.now() - started) / 1000),
          modelCalls: modelCallCount(logPath) - lastRunFrom,
        });
        continue;
      }
      const first = existsSync(dbPath(d)) ? sessionIds(d).top[0] : undefined;
      const args = run.args.map((a) => a === "{id}" ? first ?? "{id}" : a);
      lastRunFrom = modelCallCount(logPath);
      const started = Date.now();
      const r = await runBin(bin, d, args, run);
      if (r.exit !== 0 && !r.killed) {
        throw new Error(`${sc.name}: opencode ${args.join(" ")} exited ${r.exit}:\n${r.output}`);
      }
      results.push({
        command: ["opencode", ...run.args].map((a) => /\s/.test(a) ? JSON.stringify(a) : a).join(" "),
        ...(run.stdin !== undefined ? { stdin: run.stdin } : {}),
        exit: r.exit,
        ...(r.killed ? { killed: r.killed } : {}),
        seconds: Math.round((Date.now() - started) / 1000),
        modelCalls: modelCallCount(logPath) - lastRunFrom,
      });
    }
  } finally {
    await server.close();
  }
  const sessions = sessionIds(d);
  const files: string[] = [];
  const put = (name: string, text: string) => {
    writeFileSync(join(outDir, name), text);
    files.push(name);
  };
  const main = sessions.top[0];
  if (main === undefined) throw new Error(`${sc.name}: no session in the store`);
  put(`${sc.name}.export.json`, neutral(stdoutOf(bin, d, ["export", main])));
  sessions.top.slice(1).forEach((id, i) =>
    put(`${sc.name}.export.top-${i + 2}.json`, neutral(stdoutOf(bin, d, ["export", id])))
  );
  sessions.children.forEach((id, i) =>
    put(`${sc.name}.export.child-${i + 1}.json`, neutral(stdoutOf(bin, d, ["export", id])))
  );
  put(`${sc.name}.list.json`, neutral(stdoutOf(bin, d, ["session", "list", "--format", "json"])));
  put(`${sc.name}.requests.jsonl`, requestLines(logPath, lastRunFrom, neutral).map((l) => `${l}\n`).join(""));
  // After export and list: what they may write (they open the store too) is in the fixture.
  const rows = writeStore(d, join(outDir, `${sc.name}.opencode.db`), neutral);
  files.push(`${sc.name}.opencode.db`);
  put(`${sc.name}.rows.json`, `${JSON.stringify(rows, null, 2)}\n`);
  if (keep) process.stderr.write(`  kept ${d.root}\n`);
  else rmSync(d.root, { recursive: true, force: true });
  return { results, sessions, rows, files };
}

// ---------- manifest and README ----------

/** What manifest.json keeps per scenario (README.md is made from it, so `--only` runs keep the others'). */
interface ManifestEntry {
  about: string;
  captured: string;
  runs: RunResult[];
  sessions: number;
  subagentSessions: number;
  /** Rows per table, and message roles and part types (tool parts by tool and status). */
  rows: Record<string, number>;
  kinds: Record<string, number>;
  files: string[];
}

function kindsOf(rows: Record<string, Row[]>): Record<string, number> {
  const kinds: Record<string, number> = {};
  const count = (k: string) => void (kinds[k] = (kinds[k] ?? 0) + 1);
  for (const m of rows.message ?? []) {
    count(`message:${(JSON.parse(String(m.data)) as { role: string }).role}`);
  }
  for (const p of rows.part ?? []) {
    const data = JSON.parse(String(p.data)) as { type: string; tool?: string; state?: { status: string } };
    count(data.type === "tool" ? `part:tool:${data.tool}:${data.state?.status}` : `part:${data.type}`);
  }
  for (const e of rows.event ?? []) count(`event:${String(e.type)}`);
  return Object.fromEntries(Object.entries(kinds).sort(([a], [b]) => a.localeCompare(b)));
}

function readmeOf(version: string, manifest: Record<string, ManifestEntry>): string {
  const lines: string[] = [
    `# OpenCode ${version} fixtures`,
    "",
    `Captured by \`acceptance/capture-opencode-fixtures.ts ${version}\` (the date is given per scenario) from the ` +
    `real \`opencode-ai@${version}\` (the native \`opencode-linux-x64\` binary), driven offline against ` +
    "`lib/certify-kit/fake-servers/chat-completions.ts` through an `opencode.json` provider " +
    "(`@ai-sdk/openai-compatible`, loopback `baseURL`) in `OPENCODE_CONFIG_DIR`. Each scenario ran in a fresh " +
    "private HOME, XDG_* folders and cwd, with `OPENCODE_PURE=1` and `OPENCODE_DISABLE_MODELS_FETCH=true`.",
    "",
    "Paths are neutralized in every text column (cwd -> `/home/user/project`, HOME -> `/home/user`, the XDG " +
    "folders -> their defaults under it, capture root -> `/tmp/capture`; the `path` column's form without the " +
    "leading `/` too); everything else is what OpenCode wrote (ids, timestamps, slugs, titles from the fake).",
    "",
    "Why a database AND a JSON dump: the reader under test opens `opencode.db` itself (node:sqlite), so a " +
    "real store is the fixture a reader test needs, with the schema, indexes and the 38 migrations of this " +
    "version (a writer test copies it and writes into the copy); `<scenario>.rows.json` holds the same rows " +
    "(every table that has any, the `migration` table left out) for schema validation and for diffs that " +
    "need no SQLite. Files: `<scenario>.opencode.db` (VACUUMed, WAL folded in), `<scenario>.rows.json`, " +
    "`<scenario>.export.json` (`opencode export <id>` of the first top-level session), `<scenario>.export.top-" +
    "<n>.json` (each later top-level session: a fork), `<scenario>.export.child-<n>.json` (each subagent " +
    "session), `<scenario>.list.json` (`opencode session list --format json`), " +
    "`<scenario>.requests.jsonl` (each model call of the LAST run: `stream` and `messages`, system prompts cut " +
    "to their length).",
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
        `- run ${i + 1}: \`${r.command}\`${
          r.stdin !== undefined ? ` (stdin: ${r.stdin.length} chars)` : ""
        } -> ` +
        `${
          r.killed ? `killed (${r.killed})` : `exit ${r.exit}`
        }, ${r.modelCalls} model call(s), ${r.seconds} s`
      ),
      `- captured ${m.captured}; ${m.sessions} session(s), ${m.subagentSessions} of them subagent sessions`,
      `- rows: ${Object.entries(m.rows).map(([k, n]) => `\`${k}\` (${n})`).join(", ")}`,
      `- kinds: ${Object.entries(m.kinds).map(([k, n]) => `\`${k}\` (${n})`).join(", ")}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `--schema-input <dir>`: writes what scripts/infer-schemas.ts drafts the schemas from, out of a version's
 * `*.rows.json`: `message.jsonl` (each `message.data`), `part.jsonl` (each `part.data`), `session-<n>.json`
 * (each session row) and `export-<n>.json` (each export file), so the drafts are made again by four commands:
 *   infer-schemas.ts --harness opencode --version V --kind-field role --kind-prefix message- <dir>/message.jsonl
 *   infer-schemas.ts --harness opencode --version V --kind-field type --kind-prefix part- <dir>/part.jsonl
 *   infer-schemas.ts --harness opencode --version V --whole-file --kind session-row <dir>/session-*.json
 *   infer-schemas.ts --harness opencode --version V --whole-file --kind export <dir>/export-*.json
 */
function writeSchemaInput(fixtures: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  const messages: string[] = [];
  const parts: string[] = [];
  let sessions = 0;
  let exports = 0;
  for (const file of readdirSync(fixtures).sort()) {
    if (file.endsWith(".rows.json")) {
      const rows = JSON.parse(readFileSync(join(fixtures, file), "utf8")) as Record<string, Row[]>;
      for (const m of rows.message ?? []) messages.push(`${String(m.data)}\n`);
      for (const p of rows.part ?? []) parts.push(`${String(p.data)}\n`);
      for (const s of rows.session ?? []) {
        writeFileSync(join(dir, `session-${++sessions}.json`), JSON.stringify(s));
      }
    } else if (/\.export(\.(child|top)-\d+)?\.json$/.test(file)) {
      copyFileSync(join(fixtures, file), join(dir, `export-${++exports}.json`));
    }
  }
  writeFileSync(join(dir, "message.jsonl"), messages.join(""));
  writeFileSync(join(dir, "part.jsonl"), parts.join(""));
}

async function main(argv: string[]) {
  const schemaInputAt = argv.indexOf("--schema-input");
  const onlyAt = argv.indexOf("--only");
  const outAt = argv.indexOf("--out");
  const only = onlyAt >= 0 ? (argv[onlyAt + 1] ?? "").split(",") : undefined;
  const keep = argv.includes("--keep");
  // The words that are flag values (an absent flag's index is -1: no word is its value).
  const flagValues = new Set([onlyAt, outAt, schemaInputAt].filter((at) => at >= 0).map((at) => at + 1));
  const version = argv.find((a, i) => !a.startsWith("--") && !flagValues.has(i)) ?? pinnedVersion("opencode");
  const outDir = outAt >= 0 ? (argv[outAt + 1] as string) : join(REPO, "fixtures", "opencode", version);
  if (schemaInputAt >= 0) return writeSchemaInput(outDir, argv[schemaInputAt + 1] as string);
  const bin = await installHarness("opencode", version);
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
      runs: out.results,
      sessions: out.sessions.top.length + out.sessions.children.length,
      subagentSessions: out.sessions.children.length,
      rows: Object.fromEntries(Object.entries(out.rows).map(([t, r]) => [t, r.length])),
      kinds: kindsOf(out.rows),
      files: out.files,
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
