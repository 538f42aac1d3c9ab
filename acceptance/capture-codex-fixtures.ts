// Captures REAL Codex CLI rollouts offline, against the fake Responses server on 127.0.0.1.
//
//   npx bun acceptance/capture-codex-fixtures.ts <version> [--only a,b] [--keep] [--out <dir>]
//   npx deno run -A acceptance/capture-codex-fixtures.ts <version>
//
// For each scenario: a fresh private root (HOME, CODEX_HOME=<home>/.codex, TMPDIR, cwd <root>/project), a fresh
// fake server, `codex exec --skip-git-repo-check --json "<prompt>" < /dev/null` and `codex exec ... resume <id>`.
// Writes into fixtures/codex/<version>/:
//   <scenario>.jsonl           the rollout file, paths neutralized, otherwise byte for byte
//   <scenario>.threads.json    the `threads` row(s) from the newest state_N.sqlite
//   threads.schema.json        CREATE TABLE threads, its indexes, PRAGMA table_info(threads), migrations
//   text-turns.requests.jsonl  the request(s) of the resumed turn (input, model, instructions length)
//   manifest.json, README.md   how each fixture was made and which record/payload types it holds
import { type ChildProcess, spawn } from "node:child_process";
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
import { basename, dirname, join, relative } from "node:path";
import process from "node:process";
import { Buffer } from "node:buffer";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath } from "node:url";
import { installHarness } from "./install-harness.ts";
import { type CodexTui, startCodexTui } from "../lib/harnesses/codex/certify/tui.ts";
import {
  defaultScript,
  type Json,
  type JsonObject,
  messageItem,
  type Script,
  startFakeResponses,
} from "../lib/certify-kit/fake-servers/responses.ts";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const MODEL = "gpt-5.5";
const PROVIDER = "fake";

interface Step {
  /** The prompt of a `codex exec` run (a TUI step types its own). */
  prompt: string;
  /**
   * Drive the interactive TUI (`codex --no-daemon`, or `codex --no-daemon resume <thread>` with `resume`) in a
   * tmux pane instead of `codex exec`: typed as a person types, left with `/quit`.
   */
  tui?: (tui: CodexTui) => Promise<void>;
  /** Resume the scenario's thread instead of starting a new one. */
  resume?: boolean;
  /** Extra `codex exec` flags (before the prompt / `resume`). */
  args?: string[];
  /** Send `signal` to the codex PID once a stdout line passes `when`; SIGKILL `graceMs` later if still alive. */
  interrupt?: { when: (line: string) => boolean; signal: "SIGINT" | "SIGTERM" | "SIGKILL"; graceMs: number };
  /** Non-zero exit expected (interrupt, failing stream). */
  mayFail?: boolean;
}

/**
 * `codex exec --json` lines, looked at by substring: a line is the harness's output, and a pattern with `.*`
 * between two words would try again from every later start on a long line.
 */
function commandStarted(line: string): boolean {
  const started = line.indexOf('"item.started"');
  return started >= 0 && line.includes('"command_execution"', started);
}

/** The thread id a `thread.started` line names. */
function startedThread(line: string): string | undefined {
  const started = line.indexOf('"thread.started"');
  const key = '"thread_id":"';
  const at = started < 0 ? -1 : line.indexOf(key, started);
  if (at < 0) return undefined;
  const id = line.slice(at + key.length, at + key.length + 37);
  return /^[0-9a-f-]{36}"$/.test(id) ? id.slice(0, 36) : undefined;
}

interface Scenario {
  name: string;
  description: string;
  /** Extra top-level config.toml lines. */
  config?: string[];
  /** Extra lines in [model_providers.fake]. */
  provider?: string[];
  script?: Script;
  steps: Step[];
}

const SCENARIOS: Scenario[] = [
  {
    name: "text-turns",
    description: "Two plain text turns: a new thread, then `exec resume` with a second prompt.",
    steps: [
      { prompt: "Please greet the reviewer with one sentence about tidy kitchens." },
      { prompt: "Now add a second remark, this time about quiet libraries.", resume: true },
    ],
  },
  {
    name: "tool-call",
    description:
      "One turn: reasoning item (summary + encrypted_content) and a function_call of the shell tool, its output, then a message.",
    steps: [{ prompt: "TOOL: echo hello-from-tool" }],
  },
  {
    name: "apply-patch",
    description:
      "One turn with `-s workspace-write`: a custom_tool_call apply_patch adding notes.txt, its output, a message.",
    steps: [{ prompt: "PATCH: notes.txt", args: ["-s", "workspace-write"] }],
  },
  {
    name: "web-search",
    description: "One turn: the server returns a web_search_call item (server-side tool) and a message.",
    steps: [{ prompt: "SEARCH: tallest lighthouse in the north sea" }],
  },
  {
    name: "interrupted",
    description:
      "One turn: function_call `sleep 30`; SIGINT is sent to the codex PID as soon as `--json` reports the command started (Ctrl-C in exec).",
    steps: [{
      prompt: "TOOL: sleep 30",
      interrupt: { when: commandStarted, signal: "SIGINT", graceMs: 15_000 },
      mayFail: true,
    }],
  },
  {
    name: "killed",
    description:
      "One turn: function_call `sleep 30`; SIGKILL to the codex PID once the command started (crash / closed terminal: no output recorded).",
    steps: [{
      prompt: "TOOL: sleep 30",
      interrupt: { when: commandStarted, signal: "SIGKILL", graceMs: 1_000 },
      mayFail: true,
    }],
  },
  {
    name: "stream-dropped",
    description:
      "One turn: the server closes every /responses stream after response.created without response.completed (provider stream_max_retries = 1, request_max_retries = 0).",
    provider: ["stream_max_retries = 1", "request_max_retries = 0"],
    script: (body, ctx) => ({
      items: [messageItem("never completed", `drop:${ctx.index}:${String(body.model)}`)],
      dropAfterItems: 0,
    }),
    steps: [{ prompt: "This turn will lose its stream, please answer briefly.", mayFail: true }],
  },
  {
    name: "compacted",
    description:
      "model_auto_compact_token_limit = 2000 in config.toml (every fake request reports more than that): turn 1 normal, then `exec resume` auto-compacts before turn 2 (local summarization request, `compacted` record).",
    config: ["model_auto_compact_token_limit = 2000"],
    steps: [
      { prompt: "First message about maple syrup grading." },
      { prompt: "Second message about harbour tides.", resume: true },
    ],
  },
  {
    name: "config-policies",
    description:
      "config.toml sets model_reasoning_effort high, approval_policy on-request and sandbox_mode read-only: a text turn, then `exec resume`.",
    config: [
      `model_reasoning_effort = "high"`,
      `approval_policy = "on-request"`,
      `sandbox_mode = "read-only"`,
    ],
    steps: [
      { prompt: "Please name one constellation visible in winter." },
      { prompt: "And one more, visible in summer.", resume: true },
    ],
  },
  {
    name: "config-features-off",
    description:
      "config.toml turns web search off and the unified exec and shell snapshot features off (`[features]`): one turn running the shell tool Codex offers then.",
    config: [`web_search = "disabled"`, "", "[features]", "unified_exec = false", "shell_snapshot = false"],
    steps: [{ prompt: "TOOL: echo features-off" }],
  },
  {
    name: "config-model-switch",
    description:
      "A text turn, then `exec resume` with `-c model=...` naming another model: the resumed turn's world_state says only what changed.",
    steps: [
      { prompt: "Please name one river in Europe." },
      { prompt: "And one in Asia.", resume: true, args: ["-c", `model="gpt-5.5-mini"`] },
    ],
  },
  {
    name: "full-access",
    description:
      "One turn with `--dangerously-bypass-approvals-and-sandbox` (approval never, no sandbox: permission_profile `disabled`), running the shell tool.",
    steps: [{ prompt: "TOOL: echo unsandboxed", args: ["--dangerously-bypass-approvals-and-sandbox"] }],
  },
  {
    name: "interactive",
    description:
      "Typed into the interactive TUI (`codex --no-daemon` in tmux): a text turn, then a turn that runs the shell tool; left with `/quit`.",
    steps: [{
      prompt: "(typed)",
      tui: async (tui) => {
        await tui.ask("Please remember the harbour word LANTERN for later.");
        await tui.ask("TOOL: echo typed-tool-ran");
        await tui.exit();
      },
    }],
  },
  {
    name: "interactive-interrupted",
    description:
      "Typed into the TUI: a text turn, then `TOOL: sleep 300`; while it runs a message is typed (queued under 'Messages to be submitted after next tool call') and Esc pressed, which aborts the call and sends the queued words at once; left with `/quit`.",
    steps: [{
      prompt: "(typed)",
      tui: async (tui) => {
        await tui.ask("Please remember the orchard word QUINCE for later.");
        await tui.submit("TOOL: sleep 300");
        await tui.waitForRunningCommand("sleep 300");
        await tui.submit("Words typed while the command ran, about copper kettles.");
        await tui.waitForQueued("Words typed while the command ran, about copper kettles.");
        tui.pane.press("Escape");
        await tui.waitForInterruption("Words typed while the command ran, about copper kettles.");
        await tui.exit();
      },
    }],
  },
  {
    name: "interactive-resumed",
    description:
      "A `codex exec` turn, then the thread resumed in the TUI (`codex --no-daemon resume <uuid>`) with a typed turn; left with `/quit`.",
    steps: [
      { prompt: "Opening remark about lighthouse lenses." },
      {
        prompt: "(typed)",
        resume: true,
        tui: async (tui) => {
          await tui.ask("Typed follow-up about foghorns after resuming.");
          await tui.exit();
        },
      },
    ],
  },
  {
    name: "interactive-compacted",
    description:
      "model_auto_compact_token_limit = 2000: two turns typed into the TUI; the second auto-compacts first (`compacted` record).",
    config: ["model_auto_compact_token_limit = 2000"],
    steps: [{
      prompt: "(typed)",
      tui: async (tui) => {
        await tui.ask("First typed message about sourdough starters.");
        await tui.ask("Second typed message about rye flour.");
        await tui.exit();
      },
    }],
  },
  {
    name: "resumed",
    description: "A new thread resumed twice with `exec resume <uuid>` (three processes, three turns).",
    steps: [
      { prompt: "Opening remark about violin strings." },
      { prompt: "Follow-up about cedar wood.", resume: true },
      { prompt: "Last follow-up about varnish drying.", resume: true },
    ],
  },
];

interface StepResult {
  argv: string[];
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  interrupted: boolean;
  timedOut: boolean;
  stderrTail: string;
}

interface RunResult {
  scenario: Scenario;
  threadId: string | undefined;
  rollouts: string[];
  steps: StepResult[];
  requestsPerStep: number[];
  durationMs: number;
}

function parseArgs(argv: string[]): { version: string; only?: Set<string>; keep: boolean; out?: string } {
  let version: string | undefined;
  let only: Set<string> | undefined;
  let keep = false;
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--only") only = new Set((argv[++i] ?? "").split(",").filter((s) => s !== ""));
    else if (a === "--keep") keep = true;
    else if (a === "--out") out = argv[++i];
    else if (a && !a.startsWith("-")) version = a;
    else throw new Error(`unknown argument ${a ?? ""}`);
  }
  if (!version) {
    throw new Error("usage: capture-codex-fixtures.ts <codex-version> [--only a,b] [--keep] [--out dir]");
  }
  return { version, only, keep, out };
}

function configToml(port: number, sc: Scenario): string {
  return [
    `model = "${MODEL}"`,
    `model_provider = "${PROVIDER}"`,
    ...(sc.config ?? []),
    "",
    `[model_providers.${PROVIDER}]`,
    `name = "Fake Responses"`,
    `base_url = "http://127.0.0.1:${port}/v1"`,
    `env_key = "FAKE_OPENAI_API_KEY"`,
    `wire_api = "responses"`,
    ...(sc.provider ?? []),
    "",
  ].join("\n");
}

interface Dirs {
  root: string;
  home: string;
  codexHome: string;
  cwd: string;
  tmp: string;
}

function makeDirs(): Dirs {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "codex-capture-")));
  const d: Dirs = {
    root,
    home: join(root, "home"),
    codexHome: join(root, "home", ".codex"),
    cwd: join(root, "project"),
    tmp: join(root, "tmp"),
  };
  for (const p of [d.codexHome, d.cwd, d.tmp]) mkdirSync(p, { recursive: true });
  return d;
}

/** Replaces private paths by neutral ones, longest first. */
function neutralizer(d: Dirs): (s: string) => string {
  const pairs: Array<[string, string]> = [
    [d.codexHome, "/home/user/.codex"],
    [d.cwd, "/home/user/project"],
    [d.home, "/home/user"],
    [d.tmp, "/tmp"],
    [d.root, "/tmp/capture"],
  ];
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (s) => {
    let out = s;
    for (const [from, to] of pairs) out = out.split(from).join(to);
    return out;
  };
}

function runStep(bin: string, d: Dirs, step: Step, threadId: string | undefined, timeoutMs: number): Promise<
  StepResult & { threadId?: string }
> {
  const argv = ["exec", "--skip-git-repo-check", "--json", ...(step.args ?? [])];
  if (step.resume) {
    if (!threadId) throw new Error("resume step without a thread id");
    argv.push("resume", threadId, step.prompt);
  } else {
    argv.push(step.prompt);
  }
  const env = captureEnv(d);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(bin, argv, { cwd: d.cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    } catch (e) {
      reject(e);
      return;
    }
    const pid = child.pid;
    let stdout = "";
    let stderr = "";
    let interrupted = false;
    let timedOut = false;
    let gotThread: string | undefined;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    const killPid = (sig: "SIGINT" | "SIGTERM" | "SIGKILL") => {
      if (pid === undefined) return;
      try {
        process.kill(pid, sig);
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killPid("SIGKILL");
    }, timeoutMs);
    child.stdout?.on("data", (c: Buffer) => {
      stdout += c.toString("utf8");
      let nl: number;
      while ((nl = stdout.indexOf("\n")) >= 0) {
        const line = stdout.slice(0, nl);
        stdout = stdout.slice(nl + 1);
        gotThread = startedThread(line) ?? gotThread;
        if (step.interrupt && !interrupted && step.interrupt.when(line)) {
          interrupted = true;
          const { signal, graceMs } = step.interrupt;
          // Give the command a moment to really be running before the signal.
          setTimeout(() => {
            killPid(signal);
            graceTimer = setTimeout(() => killPid("SIGKILL"), graceMs);
          }, 1_500);
        }
      }
    });
    child.stderr?.on("data", (c: Buffer) => {
      stderr = (stderr + c.toString("utf8")).slice(-4000);
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (graceTimer) clearTimeout(graceTimer);
      // Leftover children of this codex (e.g. `sleep 30`) share its process group: end that group only.
      if (pid !== undefined) {
        try {
          process.kill(-pid, "SIGKILL");
        } catch {
          // group already empty
        }
      }
      resolve({
        argv,
        exitCode: code,
        signal: signal ?? null,
        durationMs: Date.now() - started,
        interrupted,
        timedOut,
        stderrTail: stderr.split("\n").slice(-6).join("\n"),
        threadId: gotThread,
      });
    });
  });
}

function captureEnv(d: Dirs): Record<string, string> {
  return {
    PATH: "/usr/local/bin:/usr/bin:/bin",
    HOME: d.home,
    TMPDIR: d.tmp,
    CODEX_HOME: d.codexHome,
    FAKE_OPENAI_API_KEY: "sk-fake-capture-key",
    LANG: "C.UTF-8",
    TERM: "dumb",
    NO_COLOR: "1",
  };
}

/** One interactive session in a tmux pane (lib/harnesses/codex/certify/tui.ts), driven by the step's script. */
async function runTuiStep(
  bin: string,
  d: Dirs,
  step: Step,
  threadId: string | undefined,
): Promise<StepResult & { threadId?: string }> {
  if (step.resume && !threadId) throw new Error("resume step without a thread id");
  const args = step.resume && threadId ? ["resume", threadId] : [];
  const started = Date.now();
  const tui = await startCodexTui({
    bin,
    codexHome: d.codexHome,
    cwd: d.cwd,
    env: captureEnv(d),
    ...(step.resume && threadId ? { resumes: threadId } : {}),
  });
  try {
    await step.tui!(tui);
  } finally {
    tui.close();
  }
  const id = threadId ?? tui.sessionId();
  return {
    argv: ["--no-daemon", ...args, "(typed in the TUI)"],
    exitCode: 0,
    signal: null,
    durationMs: Date.now() - started,
    interrupted: false,
    timedOut: false,
    stderrTail: "",
    ...(id ? { threadId: id } : {}),
  };
}

function listRollouts(codexHome: string): string[] {
  const out: string[] = [];
  for (const sub of ["sessions", "archived_sessions"]) {
    const base = join(codexHome, sub);
    if (!existsSync(base)) continue;
    const stack = [base];
    while (stack.length > 0) {
      const dir = stack.pop();
      if (!dir) continue;
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, e.name);
        if (e.isDirectory()) stack.push(p);
        else if (e.isFile() && /^rollout-.*\.jsonl$/.test(e.name)) out.push(p);
      }
    }
  }
  return out.sort();
}

function newestStateDb(codexHome: string): string | undefined {
  const dbs = readdirSync(codexHome)
    .map((n) => ({ n, m: /^state_(\d+)\.sqlite$/.exec(n) }))
    .filter((x) => x.m)
    .sort((a, b) => Number(b.m?.[1]) - Number(a.m?.[1]));
  return dbs[0] ? join(codexHome, dbs[0].n) : undefined;
}

/** Copies db + WAL + SHM to a scratch dir (so Codex's files stay untouched) and opens the copy read-only. */
function openStateCopy(dbPath: string, scratch: string): DatabaseSync {
  mkdirSync(scratch, { recursive: true });
  const dst = join(scratch, basename(dbPath));
  for (const suffix of ["", "-wal", "-shm"]) {
    if (existsSync(dbPath + suffix)) copyFileSync(dbPath + suffix, dst + suffix);
  }
  return new DatabaseSync(dst, { readOnly: true });
}

function toJson(v: unknown): Json {
  if (v === null || v === undefined) return null;
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (v instanceof Uint8Array) return { $blob_base64: Buffer.from(v).toString("base64") };
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === "object") {
    const o: JsonObject = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = toJson(x);
    return o;
  }
  return String(v);
}

function dumpThreads(db: DatabaseSync): Json[] {
  return db.prepare("SELECT * FROM threads ORDER BY created_at, id").all().map(toJson);
}

function dumpSchema(db: DatabaseSync, dbName: string): JsonObject {
  const create = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'threads'").get();
  const indexes = db.prepare(
    "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'threads' ORDER BY name",
  ).all();
  const info = db.prepare("PRAGMA table_info(threads)").all();
  let migrations: Json = null;
  try {
    migrations = db.prepare("SELECT version, description FROM _sqlx_migrations ORDER BY version").all().map(
      toJson,
    );
  } catch {
    migrations = null;
  }
  return {
    database: dbName,
    createTable: toJson(create?.sql),
    indexes: indexes.map(toJson),
    tableInfo: info.map(toJson),
    notNullColumns: info.filter((c) => Number(c.notnull) === 1).map((c) => toJson(c.name)),
    migrations,
  };
}

interface TypeSummary {
  lineTypes: Record<string, number>;
  payloadTypes: Record<string, number>;
  itemCompletedTypes: Record<string, number>;
  /** `<line type>: key,key,...` (top-level keys of each line). */
  lineShapes: Record<string, number>;
  ordinals: "none" | "strictly-increasing" | "broken";
  historyMode: string | null;
  lines: number;
}

function bump(m: Record<string, number>, k: string): void {
  m[k] = (m[k] ?? 0) + 1;
}

function summarize(text: string): TypeSummary {
  const s: TypeSummary = {
    lineTypes: {},
    payloadTypes: {},
    itemCompletedTypes: {},
    lineShapes: {},
    ordinals: "none",
    historyMode: null,
    lines: 0,
  };
  let last = -1;
  let seenOrdinal = false;
  let broken = false;
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    s.lines++;
    const rec = JSON.parse(line) as JsonObject;
    const t = String(rec.type);
    bump(s.lineTypes, t);
    bump(s.lineShapes, `${t}: ${Object.keys(rec).sort().join(",")}`);
    const p = rec.payload;
    if (typeof p === "object" && p !== null && !Array.isArray(p)) {
      if (typeof p.type === "string") bump(s.payloadTypes, `${t}/${p.type}`);
      if (t === "session_meta" && typeof p.history_mode === "string") s.historyMode = p.history_mode;
      const item = p.item;
      if (p.type === "item_completed" && typeof item === "object" && item !== null && !Array.isArray(item)) {
        bump(s.itemCompletedTypes, String(item.type));
      }
    }
    if (typeof rec.ordinal === "number") {
      seenOrdinal = true;
      if (rec.ordinal <= last) broken = true;
      last = rec.ordinal;
    } else if (seenOrdinal) {
      broken = true;
    }
  }
  s.ordinals = !seenOrdinal ? "none" : broken ? "broken" : "strictly-increasing";
  return s;
}

function trimRequest(body: Json): JsonObject {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return { body };
  return {
    model: body.model ?? null,
    instructions_length: typeof body.instructions === "string" ? body.instructions.length : null,
    input: body.input ?? null,
  };
}

async function runScenario(
  bin: string,
  sc: Scenario,
  outDir: string,
  keep: boolean,
  schemaWritten: { done: boolean },
): Promise<RunResult> {
  const t0 = Date.now();
  const d = makeDirs();
  const logPath = join(d.root, "requests.jsonl");
  writeFileSync(logPath, "");
  const srv = await startFakeResponses({ logPath, script: sc.script ?? defaultScript, models: [MODEL] });
  const neutral = neutralizer(d);
  const steps: StepResult[] = [];
  const requestsPerStep: number[] = [];
  let threadId: string | undefined;
  try {
    writeFileSync(join(d.codexHome, "config.toml"), configToml(srv.port, sc));
    for (const step of sc.steps) {
      const before = srv.requestCount();
      const r = step.tui
        ? await runTuiStep(bin, d, step, threadId)
        : await runStep(bin, d, step, threadId, 120_000);
      threadId = threadId ?? r.threadId;
      requestsPerStep.push(srv.requestCount() - before);
      const { threadId: _ignored, ...rest } = r;
      steps.push(rest);
      const failed = r.exitCode !== 0 || r.timedOut;
      if (failed && !step.mayFail) {
        throw new Error(
          `${sc.name}: codex ${r.argv.join(" ")} exited ${r.exitCode} ${r.signal ?? ""}\n${r.stderrTail}`,
        );
      }
    }
  } finally {
    await srv.close();
  }
  const rollouts = listRollouts(d.codexHome);
  if (rollouts.length === 0) throw new Error(`${sc.name}: no rollout file written under ${d.codexHome}`);
  // Main rollout: the one named after the thread id; others (if any) get a numeric suffix.
  rollouts.sort((a, b) =>
    Number(threadId !== undefined && b.includes(threadId)) -
    Number(threadId !== undefined && a.includes(threadId))
  );
  const written: string[] = [];
  rollouts.forEach((src, i) => {
    const name = i === 0 ? `${sc.name}.jsonl` : `${sc.name}.${i}.jsonl`;
    writeFileSync(join(outDir, name), neutral(readFileSync(src, "utf8")));
    written.push(neutral(relative(d.codexHome, src)));
  });

  const dbPath = newestStateDb(d.codexHome);
  if (dbPath) {
    const db = openStateCopy(dbPath, join(d.root, "state-copy"));
    try {
      const rows = dumpThreads(db);
      writeFileSync(join(outDir, `${sc.name}.threads.json`), neutral(`${JSON.stringify(rows, null, 2)}\n`));
      if (!schemaWritten.done) {
        writeFileSync(
          join(outDir, "threads.schema.json"),
          neutral(`${JSON.stringify(dumpSchema(db, basename(dbPath)), null, 2)}\n`),
        );
        schemaWritten.done = true;
      }
    } finally {
      db.close();
    }
  }

  if (sc.name === "text-turns") {
    const entries = readFileSync(logPath, "utf8").split("\n").filter((l) => l !== "").map((l) =>
      JSON.parse(l) as JsonObject
    ).filter((e) => e.method === "POST" && /\/responses$/.test(String(e.path)));
    const firstStepCount = requestsPerStep[0] ?? 0;
    const resumed = entries.slice(firstStepCount);
    const lines = resumed.map((e) => JSON.stringify(trimRequest(e.body ?? null)));
    writeFileSync(join(outDir, "text-turns.requests.jsonl"), neutral(`${lines.join("\n")}\n`));
  }

  if (keep) {
    console.error(`  kept ${d.root} (requests: ${logPath})`);
  } else {
    rmSync(d.root, { recursive: true, force: true });
  }
  return { scenario: sc, threadId, rollouts: written, steps, requestsPerStep, durationMs: Date.now() - t0 };
}

function fmtCounts(m: Record<string, number>): string {
  return Object.entries(m).sort((a, b) => a[0].localeCompare(b[0])).map(([k, v]) => `\`${k}\` (${v})`).join(
    ", ",
  );
}

function readme(
  version: string,
  results: RunResult[],
  summaries: Map<string, TypeSummary>,
  totalMs: number,
): string {
  const out: string[] = [];
  out.push(`# Codex CLI ${version} fixtures`);
  out.push("");
  out.push(
    `Captured by \`acceptance/capture-codex-fixtures.ts ${version}\` on ${
      new Date().toISOString().slice(0, 10)
    } ` +
      `from the real \`@openai/codex@${version}\` native binary, driven offline against ` +
      '`lib/certify-kit/fake-servers/responses.ts` (custom provider `fake`, `wire_api = "responses"`, model ' +
      `\`${MODEL}\`). Each scenario ran in a fresh private HOME/CODEX_HOME/TMPDIR and cwd; capture took ` +
      `${(totalMs / 1000).toFixed(1)} s in all.`,
  );
  out.push("");
  out.push(
    "Paths are neutralized (private home -> `/home/user`, cwd -> `/home/user/project`, CODEX_HOME -> " +
      "`/home/user/.codex`, private TMPDIR -> `/tmp`, capture root -> `/tmp/capture`); everything else is byte " +
      "for byte what Codex wrote (ids, timestamps, installation id, random chunk ids included). " +
      "The fake server's item ids (`msg_`, `rs_`, `fc_`, `ctc_`, `ws_` + 48 hex) are deterministic fakes; " +
      "Codex-made ids are real. Sessions come from `codex exec` (`source` `exec`, which the interactive picker " +
      "does not list) unless the scenario says it was typed into the TUI (`source` `cli`).",
  );
  out.push("");
  out.push(
    "Files: `<scenario>.jsonl` (rollout), `<scenario>.threads.json` (rows of `threads` in the newest " +
      "`state_N.sqlite`), `threads.schema.json` (CREATE TABLE, indexes, PRAGMA table_info, migrations), " +
      "`text-turns.requests.jsonl` (request body of the resumed turn, trimmed to `model`, `instructions_length`, " +
      "`input`), `manifest.json` (commands, exit codes, original rollout paths).",
  );
  out.push("");
  const all: TypeSummary = {
    lineTypes: {},
    payloadTypes: {},
    itemCompletedTypes: {},
    lineShapes: {},
    ordinals: "none",
    historyMode: null,
    lines: 0,
  };
  for (const r of results) {
    const s = summaries.get(r.scenario.name);
    out.push(`## ${r.scenario.name}`);
    out.push("");
    out.push(r.scenario.description);
    out.push("");
    if (r.scenario.config?.length) out.push(`- config.toml extra: \`${r.scenario.config.join("; ")}\``);
    if (r.scenario.provider?.length) out.push(`- provider extra: \`${r.scenario.provider.join("; ")}\``);
    r.steps.forEach((st, i) => {
      const how = st.interrupted ? `, interrupted (${r.scenario.steps[i]?.interrupt?.signal ?? ""})` : "";
      out.push(
        `- run ${i + 1}: \`codex ${
          st.argv.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(" ")
        }\` -> ` +
          `exit ${st.exitCode ?? "null"}${st.signal ? ` signal ${st.signal}` : ""}${how}${
            st.timedOut ? ", TIMED OUT" : ""
          }, ` +
          `${r.requestsPerStep[i] ?? 0} /responses request(s), ${(st.durationMs / 1000).toFixed(1)} s`,
      );
    });
    out.push(`- rollout file(s): ${r.rollouts.map((p) => `\`${p}\``).join(", ")}`);
    if (s) {
      out.push(
        `- ${s.lines} lines; session_meta.history_mode: \`${
          s.historyMode ?? "(absent)"
        }\`; ordinal: ${s.ordinals}`,
      );
      out.push(`- line types: ${fmtCounts(s.lineTypes)}`);
      out.push(`- payload types: ${fmtCounts(s.payloadTypes)}`);
      if (Object.keys(s.itemCompletedTypes).length > 0) {
        out.push(`- event_msg item_completed item types: ${fmtCounts(s.itemCompletedTypes)}`);
      }
      for (const [k, v] of Object.entries(s.lineTypes)) all.lineTypes[k] = (all.lineTypes[k] ?? 0) + v;
      for (const [k, v] of Object.entries(s.payloadTypes)) {
        all.payloadTypes[k] = (all.payloadTypes[k] ?? 0) + v;
      }
      for (const [k, v] of Object.entries(s.lineShapes)) all.lineShapes[k] = (all.lineShapes[k] ?? 0) + v;
      for (const [k, v] of Object.entries(s.itemCompletedTypes)) {
        all.itemCompletedTypes[k] = (all.itemCompletedTypes[k] ?? 0) + v;
      }
    }
    out.push("");
  }
  out.push("## All fixtures together");
  out.push("");
  out.push(`- line types: ${Object.keys(all.lineTypes).sort().map((k) => `\`${k}\``).join(", ")}`);
  out.push(`- payload types: ${Object.keys(all.payloadTypes).sort().map((k) => `\`${k}\``).join(", ")}`);
  const itemTypes = Object.keys(all.itemCompletedTypes).sort().map((k) => `\`${k}\``).join(", ");
  out.push(
    `- event_msg item_completed item types: ${
      itemTypes === "" ? "(none: no item_completed events)" : itemTypes
    }`,
  );
  out.push(
    `- top-level keys per line type: ${Object.keys(all.lineShapes).sort().map((k) => `\`${k}\``).join("; ")}`,
  );
  out.push("");
  out.push(
    "Re-capture: `npx bun acceptance/capture-codex-fixtures.ts " + version +
      "` (or `npx deno run -A ...`); " +
      "`--only a,b` limits scenarios, `--keep` keeps the private dirs and the full request log.",
  );
  out.push("");
  return out.join("\n");
}

interface ManifestScenario {
  name: string;
  threadId: string | null;
  rollouts: string[];
  config: string[];
  provider: string[];
  steps: {
    argv: string[];
    exitCode: number | null;
    signal: string | null;
    interrupted: boolean;
    timedOut: boolean;
    requests: number;
    durationMs: number;
  }[];
  summary: Json;
}

/** A scenario captured earlier, as its manifest entry recorded it. */
function resultFromManifest(scenario: Scenario, entry: ManifestScenario): RunResult {
  return {
    scenario,
    threadId: entry.threadId ?? undefined,
    rollouts: entry.rollouts,
    steps: entry.steps.map((s) => ({
      argv: s.argv,
      exitCode: s.exitCode,
      signal: s.signal,
      durationMs: s.durationMs,
      interrupted: s.interrupted,
      timedOut: s.timedOut,
      stderrTail: "",
    })),
    requestsPerStep: entry.steps.map((s) => s.requests),
    durationMs: entry.steps.reduce((sum, s) => sum + s.durationMs, 0),
  };
}

export async function captureCodexFixtures(
  version: string,
  opts: { only?: Set<string>; keep?: boolean; out?: string } = {},
): Promise<string> {
  const t0 = Date.now();
  const bin = await installHarness("codex", version);
  const outDir = opts.out ?? join(REPO, "fixtures", "codex", version);
  mkdirSync(outDir, { recursive: true });
  const chosen = SCENARIOS.filter((s) => !opts.only || opts.only.has(s.name));
  const results: RunResult[] = [];
  const summaries = new Map<string, TypeSummary>();
  const schemaWritten = { done: false };
  for (const sc of chosen) {
    console.error(`codex ${version}: ${sc.name} ...`);
    const r = await runScenario(bin, sc, outDir, opts.keep ?? false, schemaWritten);
    summaries.set(sc.name, summarize(readFileSync(join(outDir, `${sc.name}.jsonl`), "utf8")));
    console.error(
      `  ${(r.durationMs / 1000).toFixed(1)} s, thread ${r.threadId ?? "?"}, ${r.rollouts.length} rollout(s)`,
    );
    results.push(r);
  }
  const totalMs = Date.now() - t0;
  // With --only, the scenarios not run keep what their last capture recorded.
  const manifestPath = join(outDir, "manifest.json");
  const earlier = opts.only && existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, "utf8")) as { scenarios: ManifestScenario[] }).scenarios
    : [];
  const ran = new Set(results.map((r) => r.scenario.name));
  for (const entry of earlier) {
    const scenario = SCENARIOS.find((s) => s.name === entry.name);
    if (!scenario || ran.has(entry.name)) continue;
    results.push(resultFromManifest(scenario, entry));
    summaries.set(entry.name, entry.summary as unknown as TypeSummary);
  }
  const order = (r: RunResult) => SCENARIOS.indexOf(r.scenario);
  results.sort((a, b) => order(a) - order(b));
  writeFileSync(join(outDir, "README.md"), readme(version, results, summaries, totalMs));
  const manifest = {
    version,
    model: MODEL,
    provider: PROVIDER,
    capturedAt: new Date().toISOString(),
    totalMs,
    scenarios: results.map((r): ManifestScenario => ({
      name: r.scenario.name,
      threadId: r.threadId ?? null,
      rollouts: r.rollouts,
      config: r.scenario.config ?? [],
      provider: r.scenario.provider ?? [],
      steps: r.steps.map((s, i) => ({
        argv: s.argv,
        exitCode: s.exitCode,
        signal: s.signal,
        interrupted: s.interrupted,
        timedOut: s.timedOut,
        requests: r.requestsPerStep[i] ?? 0,
        durationMs: s.durationMs,
      })),
      summary: toJson(summaries.get(r.scenario.name)),
    })),
  };
  writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return outDir;
}

if (import.meta.main) {
  const args = parseArgs(process.argv.slice(2));
  const dir = await captureCodexFixtures(args.version, { only: args.only, keep: args.keep, out: args.out });
  console.log(dir);
}
