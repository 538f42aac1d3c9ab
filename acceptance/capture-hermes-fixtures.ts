// Captures REAL Hermes Agent fixtures offline, against the fake Chat Completions server.
//
//   npx bun acceptance/capture-hermes-fixtures.ts [version] [--scenario a,b,...] [--out dir] [--keep] [--readme-only]
//   npx bun acceptance/capture-hermes-fixtures.ts [version] --exports   # only <scenario>.export.jsonl, from the dbs
//   npx deno run -A acceptance/capture-hermes-fixtures.ts 0.14.0
//
// version defaults to 0.19.0. Output: fixtures/hermes/<version>/ (see the README.md written there).
// Each scenario runs in a fresh private HOME / HERMES_HOME / TMPDIR with cwd <tmp>/project.
// Scenarios: text-turns, tool-call, titled, compressed, snapshot, interactive and interrupted (typed into the
// `hermes` TUI through tmux), foreign, and gateway-legacy (<= 0.14 only).
import { spawn } from "node:child_process";
import {
  copyFileSync,
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
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import process from "node:process";
import { DatabaseSync } from "node:sqlite";
import { installHarness, pinnedVersion } from "./install-harness.ts";
import {
  HERMES_MODEL,
  hermesEnv,
  killGroup,
  mergeConfig,
  offlineConfig,
  runHermes,
  toYaml,
  writeHermesHome,
  type YamlObject,
} from "../lib/harnesses/hermes/certify/run.ts";
import { type HermesTui, openHermesTui } from "../lib/harnesses/hermes/certify/tui.ts";
import {
  type ChatMessage,
  contentText,
  defaultScript,
  type FakeChatCompletions,
  type Json,
  type Script,
  startFakeChatCompletions,
} from "../lib/certify-kit/fake-servers/chat-completions.ts";

const MODEL = HERMES_MODEL;
const NEUTRAL_PORT_URL = "http://127.0.0.1:8000";
const MAX_DB_BYTES = 300 * 1024;
const RUN_TIMEOUT_MS = 180_000;
const REPO = resolve(import.meta.dirname ?? ".", "..");

// ---------------------------------------------------------------------------------------------------------
// small utilities
// ---------------------------------------------------------------------------------------------------------

type Obj = { [k: string]: Json };

function isObj(v: Json | undefined): v is Obj {
  return v !== null && v !== undefined && typeof v === "object" && !Array.isArray(v);
}

function versionLe(a: string, b: string): boolean {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0;
    const y = pb[i] ?? 0;
    if (x !== y) return x < y;
  }
  return true;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once("error", rej);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      s.close(() => res(port));
    });
  });
}

function toJson(v: unknown): Json {
  if (v === null || v === undefined) return null;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number" || typeof v === "string" || typeof v === "boolean") return v;
  if (v instanceof Uint8Array) return { $blob_base64: Buffer.from(v).toString("base64") };
  if (Array.isArray(v)) return v.map(toJson);
  if (typeof v === "object") {
    const o: Obj = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) o[k] = toJson(x);
    return o;
  }
  return String(v);
}

function writeJson(path: string, v: Json): void {
  writeFileSync(path, JSON.stringify(v, null, 2) + "\n");
}

// ---------------------------------------------------------------------------------------------------------
// path neutralization
// ---------------------------------------------------------------------------------------------------------

class Neutralizer {
  readonly pairs: [string, string][] = [];
  add(from: string, to: string): void {
    if (from && from !== to) this.pairs.push([from, to]);
  }
  text(s: string): string {
    let out = s;
    for (const [a, b] of this.pairs) out = out.split(a).join(b);
    return out;
  }
  json(v: Json): Json {
    if (typeof v === "string") return this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.json(x));
    if (isObj(v)) {
      const o: Obj = {};
      for (const [k, x] of Object.entries(v)) o[this.text(k)] = this.json(x);
      return o;
    }
    return v;
  }
  /** Rewrite every TEXT value of every ordinary table in an open database (a copy). */
  db(db: DatabaseSync): void {
    const tables = db.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' " +
        "AND name NOT LIKE 'messages_fts%' AND sql NOT LIKE 'CREATE VIRTUAL%'",
    ).all().map((r) => String(r.name));
    for (const t of tables) {
      const cols = db.prepare(`PRAGMA table_info("${t}")`).all().map((r) => String(r.name));
      for (const c of cols) {
        for (const [a, b] of this.pairs) {
          db.prepare(
            `UPDATE "${t}" SET "${c}" = replace("${c}", ?, ?) WHERE typeof("${c}") = 'text' AND instr("${c}", ?) > 0`,
          )
            .run(a, b, a);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// state.db copies and dumps
// ---------------------------------------------------------------------------------------------------------

interface DbDump {
  sessions: Json[];
  messages: Json[];
  bytes: number | null;
}

/** Copy state.db (+ -wal/-shm) of a stopped Hermes, checkpoint + neutralize the COPY, dump, VACUUM INTO out. */
function captureDb(
  hermesHome: string,
  scratch: string,
  nz: Neutralizer,
  outDb: string | null,
): { db: DatabaseSync; dump: DbDump } {
  const src = join(hermesHome, "state.db");
  mkdirSync(scratch, { recursive: true });
  const copy = join(scratch, "state.db");
  for (const suffix of ["", "-wal", "-shm"]) {
    rmSync(copy + suffix, { force: true });
    if (existsSync(src + suffix)) copyFileSync(src + suffix, copy + suffix);
  }
  const db = new DatabaseSync(copy);
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  nz.db(db);
  for (const fts of ["messages_fts", "messages_fts_trigram"]) {
    try {
      db.exec(`INSERT INTO ${fts}(${fts}) VALUES('optimize')`);
    } catch {
      // no such FTS table in this version
    }
  }
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  const sessions = db.prepare("SELECT * FROM sessions ORDER BY started_at, id").all().map(toJson);
  const messages = db.prepare("SELECT * FROM messages ORDER BY id").all().map(toJson);
  let bytes: number | null = null;
  if (outDb) {
    const tmpOut = join(scratch, "vacuumed.db");
    rmSync(tmpOut, { force: true });
    db.prepare("VACUUM INTO ?").run(tmpOut);
    const v = new DatabaseSync(tmpOut);
    v.exec("PRAGMA journal_mode=DELETE");
    v.close();
    bytes = statSync(tmpOut).size;
    if (bytes < MAX_DB_BYTES) copyFileSync(tmpOut, outDb);
  }
  return { db, dump: { sessions, messages, bytes } };
}

function schemaDump(db: DatabaseSync): Json {
  const master = db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all()
    .map(toJson);
  let version: Json = null;
  try {
    version = toJson(db.prepare("SELECT version FROM schema_version").get()?.version);
  } catch {
    version = null;
  }
  return {
    schema_version: version,
    table_info: {
      sessions: db.prepare("PRAGMA table_info(sessions)").all().map(toJson),
      messages: db.prepare("PRAGMA table_info(messages)").all().map(toJson),
    },
    sqlite_master: master,
  };
}

// ---------------------------------------------------------------------------------------------------------
// running Hermes
// ---------------------------------------------------------------------------------------------------------

interface LoggedRequest {
  method: string;
  path: string;
  body: Json;
}

interface RunResult {
  label: string;
  args: string[];
  code: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  sessionId: string | null;
  ms: number;
  requests: LoggedRequest[];
}

function readLog(path: string): LoggedRequest[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => {
    const o: Json = JSON.parse(l);
    if (!isObj(o)) throw new Error("bad log line");
    return { method: String(o.method), path: String(o.path), body: o.body ?? null };
  });
}

function chatRequests(reqs: LoggedRequest[]): LoggedRequest[] {
  return reqs.filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
}

interface ScenarioOptions {
  name: string;
  version: string;
  exe: string;
  script?: Script;
  config?: YamlObject;
}

class Scenario {
  readonly root: string;
  readonly home: string;
  readonly hermesHome: string;
  readonly project: string;
  readonly tmp: string;
  readonly logPath: string;
  readonly runs: RunResult[] = [];
  readonly nz = new Neutralizer();
  server!: FakeChatCompletions;
  exe: string;

  constructor(readonly opts: ScenarioOptions) {
    this.exe = opts.exe;
    this.root = realpathSync(mkdtempSync(join(tmpdir(), `hermes-capture-${opts.name}-`)));
    this.home = join(this.root, "home");
    this.hermesHome = join(this.home, ".hermes");
    this.project = join(this.root, "project");
    this.tmp = join(this.root, "tmp");
    this.logPath = join(this.root, "requests.jsonl");
    for (const d of [this.home, this.hermesHome, this.project, this.tmp]) mkdirSync(d, { recursive: true });
    this.nz.add(this.project, "/home/user/project");
    this.nz.add(this.home, "/home/user");
    this.nz.add(this.tmp, "/tmp");
    this.nz.add(this.root, "/tmp/capture");
    this.nz.add(resolve(opts.exe, "..", ".."), "/opt/hermes-venv");
  }

  async start(): Promise<void> {
    this.server = await startFakeChatCompletions({
      logPath: this.logPath,
      script: this.opts.script ?? defaultScript,
    });
    this.nz.pairs.unshift([this.server.url, NEUTRAL_PORT_URL]);
    const cfg = mergeConfig(offlineConfig(this.server.url), this.opts.config ?? {});
    writeHermesHome(this.hermesHome, cfg, this.opts.version);
  }

  env(): Record<string, string> {
    return hermesEnv(this.exe, this.home, this.hermesHome, this.tmp);
  }

  /** Run `hermes <args>`; the whole process group is SIGKILLed after the timeout. */
  async run(label: string, args: string[], timeoutMs = RUN_TIMEOUT_MS): Promise<RunResult> {
    const before = readLog(this.logPath).length;
    const r = await runHermes(this.exe, args, { cwd: this.project, env: this.env(), timeoutMs });
    const result: RunResult = { label, args, ...r, requests: readLog(this.logPath).slice(before) };
    this.runs.push(result);
    return result;
  }

  async chat(
    label: string,
    prompt: string,
    opts: { resume?: string; extra?: string[] } = {},
  ): Promise<RunResult> {
    const args = ["chat", "-Q", ...(opts.extra ?? [])];
    if (opts.resume) args.push("--resume", opts.resume);
    args.push("-q", prompt);
    const r = await this.run(label, args);
    if (r.code !== 0 || r.timedOut) {
      throw new Error(
        `hermes ${args.join(" ")} failed (code ${r.code}, timedOut ${r.timedOut}):\n${r.stderr.slice(-3000)}`,
      );
    }
    if (!r.sessionId) {
      throw new Error(`no session_id printed by hermes ${args.join(" ")}:\n${r.stderr.slice(-2000)}`);
    }
    return r;
  }

  /** Turns typed into the interactive `hermes` TUI through tmux, then `/exit`; recorded like a run. */
  async tui(label: string, turns: (tui: HermesTui) => Promise<void>): Promise<string> {
    const before = readLog(this.logPath).length;
    const t0 = Date.now();
    const tui = await openHermesTui(this.exe, { cwd: this.project, env: this.env(), args: ["--yolo"] });
    let screen = "";
    try {
      await turns(tui);
      screen = tui.pane.screen();
      await tui.exit();
    } finally {
      tui.close();
    }
    this.runs.push({
      label,
      args: ["(typed into the TUI)", "--yolo"],
      code: 0,
      timedOut: false,
      stdout: screen,
      stderr: "",
      sessionId: tui.sessionId,
      ms: Date.now() - t0,
      requests: readLog(this.logPath).slice(before),
    });
    return tui.sessionId;
  }

  async close(keep: boolean): Promise<void> {
    await this.server?.close();
    if (!keep) rmSync(this.root, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// scenarios
// ---------------------------------------------------------------------------------------------------------

interface ScenarioOutcome {
  name: string;
  ms: number;
  notes: string[];
  sessionIds: string[];
  dbBytes: number | null;
  dbSaved: boolean;
  extraFiles: string[];
}

interface Ctx {
  version: string;
  exe: string;
  outDir: string;
  keep: boolean;
  schemaWritten: boolean;
}

type ScenarioBody = (s: Scenario, notes: string[]) => Promise<string[]>;

interface ScenarioDef {
  name: string;
  applies: (version: string) => boolean;
  script?: Script;
  config?: YamlObject;
  body: ScenarioBody;
  /** Install a different venv (e.g. with pip extras) for this scenario. */
  exe?: (version: string) => Promise<string>;
}

const highUsageOnToolCall: Script = (req, ctx) => {
  const r = defaultScript(req, ctx);
  // Context-compression trigger: report a prompt far above the threshold on the tool-call turn.
  if (r.toolCalls && r.toolCalls.length > 0) r.usage = { prompt_tokens: 120_000, completion_tokens: 20 };
  return r;
};

const SCENARIOS: ScenarioDef[] = [
  {
    name: "text-turns",
    applies: () => true,
    body: async (s) => {
      const a = await s.chat("turn1", "Please describe the weather patterns of coastal regions.");
      await s.chat("turn2-resume", "And what about mountain areas?", { resume: a.sessionId ?? "" });
      return [a.sessionId ?? ""];
    },
  },
  {
    name: "tool-call",
    applies: () => true,
    body: async (s) => {
      const a = await s.chat("turn1-tool", "TOOL: echo fixture-tool-output", { extra: ["--yolo"] });
      return [a.sessionId ?? ""];
    },
  },
  {
    name: "titled",
    applies: () => true,
    body: async (s, notes) => {
      const a = await s.chat("turn1", "Outline a plan for a small vegetable garden.");
      const id = a.sessionId ?? "";
      const title = "Garden planning notes";
      const rn = await s.run("rename", ["sessions", "rename", id, title]);
      notes.push(
        `\`hermes sessions rename <id> "${title}"\` exit ${rn.code}: ${rn.stdout.trim() || rn.stderr.trim()}`,
      );
      const b = await s.chat("turn2-resume-by-title", "Add a watering schedule.", { resume: title });
      notes.push(
        `\`hermes chat -Q --resume "${title}"\` resumed session ${b.sessionId} (same id: ${
          b.sessionId === id
        })`,
      );
      const ls = await s.run("list", ["sessions", "list"]);
      writeFileSync(join(s.root, "list.txt"), ls.stdout);
      return [id];
    },
  },
  {
    // Rotation: the compressed session is ended (end_reason 'compression') and a child continues it.
    name: "compressed",
    applies: () => true,
    script: highUsageOnToolCall,
    config: { compression: { enabled: true, in_place: false, protect_first_n: 1, protect_last_n: 3 } },
    body: (s, notes) => compressionBody(s, notes),
  },
  {
    // 0.18+ default (compression.in_place: true): same id, old rows kept with active=0, compacted=1.
    name: "compressed-inplace",
    applies: (v) => !versionLe(v, "0.17.0"),
    script: highUsageOnToolCall,
    config: { compression: { enabled: true, in_place: true, protect_first_n: 1, protect_last_n: 3 } },
    body: (s, notes) => compressionBody(s, notes),
  },
  {
    name: "snapshot",
    applies: () => true,
    config: { sessions: { write_json_snapshots: true } },
    body: async (s) => {
      const a = await s.chat("turn1-tool", "TOOL: echo snapshot-tool-output", { extra: ["--yolo"] });
      await s.chat("turn2-resume", "Thanks, that is all.", { resume: a.sessionId ?? "" });
      return [a.sessionId ?? ""];
    },
  },
  {
    // Typed into the interactive TUI (tmux), as a person works: a question, then a shell call.
    name: "interactive",
    applies: () => true,
    body: async (s) => {
      const id = await s.tui("typed", async (tui) => {
        await tui.submit("Please describe the weather patterns of coastal regions.");
        await tui.submit("TOOL: echo interactive-tool-output");
      });
      return [id];
    },
  },
  {
    // Typed into the TUI: a long shell call cancelled with Ctrl+C while words are typed, then sent.
    name: "interrupted",
    applies: () => true,
    body: async (s, notes) => {
      const id = await s.tui("typed-interrupted", async (tui) => {
        await tui.submit("Please describe the weather patterns of coastal regions.");
        await tui.submit("TOOL: echo interrupted-tool-output");
        await tui.interruptWithQueued(
          "TOOL: sleep 600; echo never-printed",
          "sleep 600; echo never-printed",
          "Typed while it ran: keep the coastal notes short.",
        );
      });
      notes.push(
        "`TOOL: sleep 600; ...` ran in the terminal tool; the words were typed while it ran, Ctrl+C cancelled it " +
          "(exit 130, `[Command interrupted]`), Hermes closed the turn with `Operation interrupted.`, and Enter sent " +
          "the typed words as the next turn",
      );
      return [id];
    },
  },
  {
    // A session handed off with a tool call still open (no result row), then resumed by the real Hermes.
    name: "open-call-resumed",
    applies: () => true,
    body: openCallResumed,
  },
  {
    name: "gateway-legacy",
    applies: (v) => versionLe(v, "0.14.0"),
    exe: (v) => installHarness("hermes", v, { extras: ["messaging"] }),
    config: {},
    body: gatewayLegacy,
  },
  {
    name: "foreign",
    applies: () => true,
    body: foreignExperiment,
  },
];

async function compressionBody(s: Scenario, notes: string[]): Promise<string[]> {
  const a = await s.chat("turn1", "Explain how tides form.");
  const root = a.sessionId ?? "";
  await s.chat("turn2-resume", "How does the moon matter?", { resume: root });
  await s.chat("turn3-resume", "Give an example harbour.", { resume: root });
  const d = await s.chat("turn4-tool-compress", "TOOL: echo compress-trigger", {
    resume: root,
    extra: ["--yolo"],
  });
  notes.push(
    `turn 4 reported prompt_tokens=120000 on its tool-call response; Hermes compressed; printed session_id ${d.sessionId} (root ${root})`,
  );
  const e = await s.chat("turn5-resume-root-id", "Summarize where we are.", { resume: root });
  notes.push(`\`--resume <root id>\` continued in ${e.sessionId}`);
  const ls = await s.run("list", ["sessions", "list"]);
  writeFileSync(join(s.root, "list.txt"), ls.stdout);
  return [...new Set([root, d.sessionId ?? "", e.sessionId ?? ""])];
}

async function gatewayLegacy(s: Scenario, notes: string[]): Promise<string[]> {
  const port = await freePort();
  const cfgPath = join(s.hermesHome, "config.yaml");
  const extra: YamlObject = {
    platforms: {
      webhook: {
        enabled: true,
        extra: {
          host: "127.0.0.1",
          port,
          routes: { capture: { secret: "INSECURE_NO_AUTH", prompt: "{text}", deliver: "log" } },
        },
      },
    },
  };
  writeFileSync(cfgPath, readFileSync(cfgPath, "utf8") + toYaml(extra));
  const child = spawn(s.exe, ["gateway", "run", "-v"], {
    cwd: s.project,
    env: s.env(),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let log = "";
  child.stdout?.on("data", (c: Buffer) => (log += c.toString("utf8")));
  child.stderr?.on("data", (c: Buffer) => (log += c.toString("utf8")));
  const exited = new Promise<void>((r) => child.on("close", () => r()));
  const base = `http://127.0.0.1:${port}`;
  const sessionsDir = join(s.hermesHome, "sessions");
  try {
    let up = false;
    for (let i = 0; i < 120 && !up; i++) {
      try {
        up = (await fetch(`${base}/health`)).ok;
      } catch {
        await sleep(500);
      }
    }
    if (!up) throw new Error(`gateway did not come up:\n${log.slice(-3000)}`);
    const prompts = ["TOOL: echo gateway-tool-output"];
    for (const [i, text] of prompts.entries()) {
      const r = await fetch(`${base}/webhooks/capture`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": `capture-${i + 1}` },
        body: JSON.stringify({ text }),
      });
      notes.push(`POST /webhooks/capture -> ${r.status} ${await r.text()}`);
    }
    // wait for the final assistant line of the JSONL transcript
    let done = false;
    for (let i = 0; i < 240 && !done; i++) {
      await sleep(500);
      if (!existsSync(sessionsDir)) continue;
      done = readdirSync(sessionsDir).filter((f) => f.endsWith(".jsonl")).some((f) =>
        readFileSync(join(sessionsDir, f), "utf8").includes("Tool said:")
      );
    }
    if (!done) throw new Error(`no JSONL transcript with the final answer:\n${log.slice(-3000)}`);
    await sleep(2000); // let the title thread and sessions.json writes settle
  } finally {
    try {
      process.kill(-(child.pid ?? 0), "SIGTERM");
    } catch {
      // gone
    }
    const t = setTimeout(() => killGroup(child.pid), 20_000);
    await exited;
    clearTimeout(t);
  }
  writeFileSync(join(s.root, "gateway.log"), log);
  const ids = readdirSync(sessionsDir).filter((f) => f.endsWith(".jsonl")).map((f) =>
    f.replace(/\.jsonl$/, "")
  );
  return ids;
}

/**
 * What Hermes does with a call that has no result row: a session as a handoff leaves it (user turn, assistant
 * row with a `terminal` call, no tool row, a user row with the handoff's note), resumed with `-q`. The request
 * shows what the model is sent for the open call; the rows show what Hermes stores afterwards.
 */
async function openCallResumed(s: Scenario, notes: string[]): Promise<string[]> {
  await s.run("init-list", ["sessions", "list"]);
  const id = "20260101_010000_0ca11d";
  const t0 = 1_767_229_200; // 2026-01-01T01:00:00Z
  const db = new DatabaseSync(join(s.hermesHome, "state.db"));
  db.exec("PRAGMA busy_timeout = 5000");
  // `cwd` exists from 0.15 on.
  const hasCwd = db.prepare("PRAGMA table_info(sessions)").all().some((c) => c.name === "cwd");
  db.prepare(
    `INSERT INTO sessions (id, source, model, started_at${hasCwd ? ", cwd" : ""}) VALUES (?, 'cli', ?, ?${
      hasCwd ? ", ?" : ""
    })`,
  ).run(id, MODEL, t0, ...(hasCwd ? [s.project] : []));
  const insert = db.prepare(
    "INSERT INTO messages (session_id, role, content, tool_calls, finish_reason, timestamp) VALUES (?, ?, ?, ?, ?, ?)",
  );
  insert.run(
    id,
    "user",
    "Start the slow job. TOOL: sleep 600; echo open-call-never-printed",
    null,
    null,
    t0 + 1,
  );
  const call = [{
    id: "call_open0001",
    type: "function",
    function: {
      name: "terminal",
      arguments: JSON.stringify({ command: "sleep 600; echo open-call-never-printed" }),
    },
  }];
  insert.run(id, "assistant", "", JSON.stringify(call), "tool_calls", t0 + 2);
  insert.run(
    id,
    "user",
    "HANDOFF-NOTE: the call call_open0001 (terminal: sleep 600; echo open-call-never-printed) was interrupted.",
    null,
    null,
    t0 + 3,
  );
  db.close();
  const r = await s.chat("resume", "What happened to the slow job?", { resume: id });
  const sent = chatRequests(r.requests)[0]?.body;
  const messages = isObj(sent ?? null) && Array.isArray((sent as Obj).messages)
    ? (sent as Obj).messages as Json[]
    : [];
  const stand = messages.find((m) => isObj(m) && m.role === "tool");
  notes.push(
    `resumed as ${r.sessionId}; for the open call Hermes sent the model ${
      JSON.stringify(stand)
    } (not stored: ` +
      "the rows after the resume hold no tool row)",
  );
  return [id];
}

/** Sessions written by "another tool" straight into state.db, then listed and resumed by Hermes. */
async function foreignExperiment(s: Scenario, notes: string[]): Promise<string[]> {
  // 1. let Hermes create the schema
  const init = await s.run("init-list", ["sessions", "list"]);
  notes.push(`schema created by \`hermes sessions list\` (exit ${init.code})`);
  const dbPath = join(s.hermesHome, "state.db");
  const db = new DatabaseSync(dbPath);
  db.exec("PRAGMA busy_timeout = 5000");
  const cols = new Set(db.prepare("PRAGMA table_info(sessions)").all().map((r) => String(r.name)));
  const t0 = 1_767_225_600; // 2026-01-01T00:00:00Z
  const ins = (table: string, row: Record<string, string | number | null>): void => {
    const keys = Object.keys(row).filter((k) => table !== "sessions" || cols.has(k));
    db.prepare(`INSERT INTO ${table} (${keys.join(", ")}) VALUES (${keys.map(() => "?").join(", ")})`)
      .run(...keys.map((k) => row[k] ?? null));
  };
  const F = {
    minimal: "20260101_000000_f00001",
    rich: "claude-3f1c9a52-7d2e-4b8a-9c11-5e0f2b6a7d33",
    tool: "20260101_000200_f00003",
    empty: "20260101_000300_f00004",
    child: "20260101_000400_f00005",
    archived: "20260101_000500_f00006",
    bare: "20260101_000600_f00007",
  };
  // minimal: only the NOT NULL columns (+ content)
  ins("sessions", { id: F.minimal, source: "cli", started_at: t0 });
  ins("messages", {
    session_id: F.minimal,
    role: "user",
    content: "FOREIGN-MINIMAL user question",
    timestamp: t0 + 1,
  });
  ins("messages", {
    session_id: F.minimal,
    role: "assistant",
    content: "FOREIGN-MINIMAL answer",
    timestamp: t0 + 2,
  });
  // rich: arbitrary id, custom source, stored system prompt, a system row, a tool call pair, reasoning
  ins("sessions", {
    id: F.rich,
    source: "claude-code",
    model: MODEL,
    system_prompt:
      `FOREIGN-STORED-SYSTEM-PROMPT: converted by session-bridge.\nModel: ${MODEL}\nProvider: custom`,
    started_at: t0 + 100,
    message_count: 5,
    tool_call_count: 1,
    title: "Imported from Claude Code",
    cwd: s.project,
  });
  const tc = JSON.stringify([{
    id: "call_imported1",
    type: "function",
    function: { name: "terminal", arguments: JSON.stringify({ command: "ls" }) },
  }]);
  ins("messages", {
    session_id: F.rich,
    role: "system",
    content: "FOREIGN-SYSTEM-ROW: a system message row",
    timestamp: t0 + 101,
  });
  ins("messages", {
    session_id: F.rich,
    role: "user",
    content: "FOREIGN-RICH list the files",
    timestamp: t0 + 102,
  });
  db.prepare(
    "INSERT INTO messages (session_id, role, content, tool_calls, reasoning, finish_reason, timestamp) VALUES (?,?,?,?,?,?,?)",
  ).run(F.rich, "assistant", "", tc, "FOREIGN-REASONING: run ls", "tool_calls", t0 + 103);
  db.prepare(
    "INSERT INTO messages (session_id, role, content, tool_call_id, tool_name, timestamp) VALUES (?,?,?,?,?,?)",
  )
    .run(
      F.rich,
      "tool",
      JSON.stringify({ output: "a.txt\nb.txt", exit_code: 0, error: null }),
      "call_imported1",
      "terminal",
      t0 + 104,
    );
  ins("messages", {
    session_id: F.rich,
    role: "assistant",
    content: "FOREIGN-RICH there are two files",
    timestamp: t0 + 105,
  });
  // source 'tool': hidden from the default list
  ins("sessions", { id: F.tool, source: "tool", started_at: t0 + 200 });
  ins("messages", {
    session_id: F.tool,
    role: "user",
    content: "FOREIGN-TOOLSOURCE hi",
    timestamp: t0 + 201,
  });
  // no messages at all, and a child (parent_session_id -> empty) that holds messages
  ins("sessions", { id: F.empty, source: "cli", started_at: t0 + 300 });
  ins("sessions", { id: F.child, source: "cli", started_at: t0 + 400, parent_session_id: F.empty });
  ins("messages", { session_id: F.child, role: "user", content: "FOREIGN-CHILD user", timestamp: t0 + 401 });
  ins("messages", {
    session_id: F.child,
    role: "assistant",
    content: "FOREIGN-CHILD answer",
    timestamp: t0 + 402,
  });
  // a session row without any message and without children
  ins("sessions", { id: F.bare, source: "cli", started_at: t0 + 600 });
  if (cols.has("archived")) {
    ins("sessions", { id: F.archived, source: "cli", started_at: t0 + 500, archived: 1 });
    ins("messages", {
      session_id: F.archived,
      role: "user",
      content: "FOREIGN-ARCHIVED hi",
      timestamp: t0 + 501,
    });
  }
  db.close();

  const ls = await s.run("list", ["sessions", "list"]);
  const lsAll = await s.run("list-source-tool", ["sessions", "list", "--source", "tool"]);
  writeFileSync(
    join(s.root, "list.txt"),
    ls.stdout + "\n# hermes sessions list --source tool\n" + lsAll.stdout,
  );
  const listed: Record<string, boolean> = {};
  for (const [k, id] of Object.entries(F)) listed[k] = ls.stdout.includes(id);

  const resumed: Record<string, Json> = {};
  for (const k of ["minimal", "rich", "empty", "bare"] as const) {
    const id = F[k];
    const r = await s.run(`resume-${k}`, ["chat", "-Q", "--resume", id, "-q", `FOREIGN-FOLLOWUP for ${k}`]);
    const reqs = chatRequests(r.requests);
    const first = reqs[0]?.body;
    const msgs = isObj(first ?? null) && Array.isArray((first as Obj).messages)
      ? (first as Obj).messages as Json[]
      : [];
    resumed[k] = {
      exit: r.code,
      printed_session_id: r.sessionId,
      notices: (r.stderr + "\n" + r.stdout).split("\n")
        .filter((l) =>
          /Resumed|found but has no messages|compressed into|not found|restored workspace|Error/i.test(l)
        )
        .map((l) => s.nz.text(l.trim())),
      request_roles: msgs.map((m) => (isObj(m) ? String(m.role) : "?")),
      system_prompt_reused_verbatim: isObj(msgs[0] ?? null) &&
        contentText((msgs[0] as ChatMessage).content as Json)
          .startsWith("FOREIGN-STORED-SYSTEM-PROMPT"),
      history_loaded: msgs.some((m) => isObj(m) && contentText(m.content).includes("FOREIGN-")) &&
        msgs.filter((m) => isObj(m) && contentText(m.content).includes("FOREIGN-")).length > 1,
    };
  }
  writeFileSync(join(s.root, "results.json"), JSON.stringify({ ids: F, listed, resumed }, null, 2));
  notes.push(`listed: ${JSON.stringify(listed)}`);
  return Object.values(F);
}

// ---------------------------------------------------------------------------------------------------------
// main
// ---------------------------------------------------------------------------------------------------------

async function runScenario(def: ScenarioDef, ctx: Ctx): Promise<ScenarioOutcome> {
  const t0 = Date.now();
  const exe = def.exe ? await def.exe(ctx.version) : ctx.exe;
  const s = new Scenario({
    name: def.name,
    version: ctx.version,
    exe,
    script: def.script,
    config: def.config,
  });
  const notes: string[] = [];
  const extraFiles: string[] = [];
  let sessionIds: string[] = [];
  try {
    await s.start();
    sessionIds = await def.body(s, notes);
    const out = ctx.outDir;
    const dbOut = join(out, `${def.name}.state.db`);
    const { db, dump } = captureDb(s.hermesHome, join(s.root, "dbcopy"), s.nz, dbOut);
    writeJson(join(out, `${def.name}.rows.json`), { sessions: dump.sessions, messages: dump.messages });
    if (!ctx.schemaWritten && def.name !== "gateway-legacy") {
      writeJson(join(out, "schema.json"), schemaDump(db));
      ctx.schemaWritten = true;
    }
    db.close();
    // requests, trimmed to messages
    const lines: string[] = [];
    for (const r of s.runs) {
      for (const q of chatRequests(r.requests)) {
        const b = q.body;
        if (!isObj(b)) continue;
        const line: Obj = { run: r.label, stream: b.stream ?? false, messages: b.messages ?? [] };
        lines.push(JSON.stringify(s.nz.json(line)));
      }
    }
    if (lines.length > 0) writeFileSync(join(out, `${def.name}.requests.jsonl`), lines.join("\n") + "\n");
    // per-scenario extra artifacts
    const sessionsDir = join(s.hermesHome, "sessions");
    const keepFiles = existsSync(sessionsDir)
      ? readdirSync(sessionsDir).filter((f) =>
        (def.name === "snapshot" && /^session_.*\.json$/.test(f)) ||
        (def.name === "gateway-legacy" &&
          (/\.jsonl$/.test(f) || f === "sessions.json" || /^session_.*\.json$/.test(f)))
      )
      : [];
    if (keepFiles.length > 0) {
      const dir = join(out, def.name, "sessions");
      mkdirSync(dir, { recursive: true });
      for (const f of keepFiles) {
        writeFileSync(join(dir, f), s.nz.text(readFileSync(join(sessionsDir, f), "utf8")));
        extraFiles.push(`${def.name}/sessions/${f}`);
      }
    }
    for (
      const [src, dst] of [["list.txt", `${def.name}.list.txt`], ["results.json", `${def.name}.results.json`]]
    ) {
      const p = join(s.root, src ?? "");
      if (existsSync(p)) {
        writeFileSync(join(out, dst ?? ""), s.nz.text(readFileSync(p, "utf8")));
        extraFiles.push(dst ?? "");
      }
    }
    const runsSummary = s.runs.map((r) => ({
      label: r.label,
      args: r.args.map((a) => s.nz.text(a)),
      exit: r.code,
      timed_out: r.timedOut,
      session_id: r.sessionId,
      ms: r.ms,
      chat_requests: chatRequests(r.requests).length,
      probes: r.requests.filter((q) => q.method !== "POST").map((q) => `${q.method} ${q.path}`),
      stderr: s.nz.text(r.stderr).split("\n").filter((l) => l.trim() !== "").slice(-8),
    }));
    writeJson(join(out, `${def.name}.runs.json`), { notes, runs: runsSummary } as unknown as Json);
    return {
      name: def.name,
      ms: Date.now() - t0,
      notes,
      sessionIds,
      dbBytes: dump.bytes,
      dbSaved: dump.bytes !== null && dump.bytes < MAX_DB_BYTES,
      extraFiles,
    };
  } finally {
    await s.close(ctx.keep);
    if (ctx.keep) console.error(`[${def.name}] kept ${s.root}`);
  }
}

function cleanScenarioOutputs(outDir: string, name: string): void {
  if (!existsSync(outDir)) return;
  for (const f of readdirSync(outDir)) {
    if (f.startsWith(`${name}.`) || f === name) rmSync(join(outDir, f), { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let version = pinnedVersion("hermes");
  let only: string[] | null = null;
  let outRoot = join(REPO, "fixtures", "hermes");
  let keep = false;
  let readmeOnly = false;
  let exportsOnly = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--scenario") only = (args[++i] ?? "").split(",").filter((x) => x !== "");
    else if (a === "--out") outRoot = resolve(args[++i] ?? outRoot);
    else if (a === "--keep") keep = true;
    else if (a === "--readme-only") readmeOnly = true;
    else if (a === "--exports") exportsOnly = true;
    else if (/^\d+\.\d+\.\d+$/.test(a)) version = a;
    else throw new Error(`unknown argument ${a}`);
  }
  const t0 = Date.now();
  const outDir = join(outRoot, version);
  if (readmeOnly) {
    writeFileSync(join(outDir, "README.md"), renderReadme(outDir, version));
    return;
  }
  const exe = await installHarness("hermes", version);
  if (exportsOnly) {
    await captureExports(exe, outDir, version);
    return;
  }
  mkdirSync(outDir, { recursive: true });
  const ctx: Ctx = { version, exe, outDir, keep, schemaWritten: false };
  const defs = SCENARIOS.filter((d) => d.applies(version) && (!only || only.includes(d.name)));
  if (only === null) rmSync(join(outDir, "schema.json"), { force: true });
  else ctx.schemaWritten = existsSync(join(outDir, "schema.json"));
  const outcomes: ScenarioOutcome[] = [];
  for (const def of defs) {
    cleanScenarioOutputs(outDir, def.name);
    process.stderr.write(`[capture hermes ${version}] ${def.name} ...\n`);
    const o = await runScenario(def, ctx);
    process.stderr.write(
      `[capture hermes ${version}] ${def.name} done in ${(o.ms / 1000).toFixed(1)}s; db ${o.dbBytes} bytes${
        o.dbSaved ? "" : " (NOT saved: too big)"
      }; sessions ${o.sessionIds.join(", ")}\n`,
    );
    outcomes.push(o);
  }
  const capturePath = join(outDir, "capture.json");
  const prev: Json = existsSync(capturePath) ? JSON.parse(readFileSync(capturePath, "utf8")) : null;
  const prevScen: Obj = isObj(prev) && isObj(prev.scenarios) ? prev.scenarios : {};
  for (const o of outcomes) {
    prevScen[o.name] = {
      seconds: Math.round(o.ms / 100) / 10,
      session_ids: o.sessionIds,
      state_db_bytes: o.dbBytes,
      state_db_saved: o.dbSaved,
      extra_files: o.extraFiles,
      notes: o.notes,
    };
  }
  writeJson(capturePath, {
    hermes_version: version,
    captured_at: new Date().toISOString(),
    model: MODEL,
    command: `npx bun acceptance/capture-hermes-fixtures.ts ${version}`,
    total_seconds_last_run: Math.round((Date.now() - t0) / 100) / 10,
    scenarios: prevScen,
  });
  writeFileSync(join(outDir, "README.md"), renderReadme(outDir, version));
  process.stderr.write(
    `[capture hermes ${version}] total ${((Date.now() - t0) / 1000).toFixed(1)}s -> ${outDir}\n`,
  );
}

/**
 * `<scenario>.export.jsonl`: what the real `hermes sessions export - --session-id <id>` writes for each session
 * of each captured `<scenario>.state.db` (sessions by started_at), run on a private copy of the fixture db, so
 * it matches that db byte for byte. (A bare `sessions export` adds a `last_active` key to every line.)
 */
async function captureExports(exe: string, outDir: string, version: string): Promise<void> {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "hermes-export-")));
  try {
    for (const db of readdirSync(outDir).filter((f) => f.endsWith(".state.db")).sort()) {
      const name = db.slice(0, -".state.db".length);
      const home = join(scratch, name, "home");
      const hermesHome = join(home, ".hermes");
      mkdirSync(hermesHome, { recursive: true });
      copyFileSync(join(outDir, db), join(hermesHome, "state.db"));
      writeHermesHome(hermesHome, offlineConfig(NEUTRAL_PORT_URL), version);
      const env = hermesEnv(exe, home, hermesHome, scratch);
      const fixture = new DatabaseSync(join(outDir, db), { readOnly: true });
      const ids = fixture.prepare("SELECT id FROM sessions ORDER BY started_at, id").all().map((r) =>
        String(r.id)
      );
      fixture.close();
      let lines = "";
      for (const id of ids) {
        const r = await runHermes(exe, ["sessions", "export", "-", "--session-id", id], {
          cwd: scratch,
          env,
        });
        if (r.code !== 0) {
          throw new Error(`hermes sessions export failed for ${db} ${id}: ${r.stdout}${r.stderr}`);
        }
        lines += r.stdout;
      }
      writeFileSync(join(outDir, `${name}.export.jsonl`), lines);
      process.stderr.write(`[capture hermes ${version}] ${name}.export.jsonl\n`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------------------
// README
// ---------------------------------------------------------------------------------------------------------

function readJson(path: string): Json {
  return existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) : null;
}

interface Rows {
  sessions: Obj[];
  messages: Obj[];
}

function loadRows(outDir: string, name: string): Rows | null {
  const j = readJson(join(outDir, `${name}.rows.json`));
  if (!isObj(j) || !Array.isArray(j.sessions) || !Array.isArray(j.messages)) return null;
  return { sessions: j.sessions.filter(isObj), messages: j.messages.filter(isObj) };
}

function iso(x: Json | undefined): string {
  return typeof x === "number" ? new Date(x * 1000).toISOString() : "?";
}

function clip(s: string, n = 160): string {
  const one = s.replace(/\n/g, "\\n");
  return one.length > n ? `${one.slice(0, n)}…` : one;
}

function colList(info: Json | undefined): string {
  if (!Array.isArray(info)) return "(missing)";
  return info.filter(isObj).map((c) => {
    let s = `\`${String(c.name)}\` ${String(c.type || "")}`.trim();
    if (c.notnull === 1) s += " NOT NULL";
    if (c.dflt_value !== null && c.dflt_value !== undefined) s += ` DEFAULT ${String(c.dflt_value)}`;
    if (c.pk === 1) s += " PK";
    return s;
  }).join(", ");
}

function renderReadme(outDir: string, version: string): string {
  const cap = readJson(join(outDir, "capture.json"));
  const scen: Obj = isObj(cap) && isObj(cap.scenarios) ? cap.scenarios : {};
  const schema = readJson(join(outDir, "schema.json"));
  const ti = isObj(schema) && isObj(schema.table_info) ? schema.table_info : {};
  const msgCols = Array.isArray(ti.messages) ? ti.messages.filter(isObj).map((c) => String(c.name)) : [];
  const sesCols = Array.isArray(ti.sessions) ? ti.sessions.filter(isObj).map((c) => String(c.name)) : [];
  const hasActive = msgCols.includes("active");
  const tables = isObj(schema) && Array.isArray(schema.sqlite_master)
    ? schema.sqlite_master.filter(isObj).filter((r) => r.type === "table").map((r) => String(r.name))
    : [];
  const old = versionLe(version, "0.14.0");
  const text = loadRows(outDir, "text-turns");
  const tool = loadRows(outDir, "tool-call");
  const titled = loadRows(outDir, "titled");
  const comp = loadRows(outDir, "compressed");
  const inplace = loadRows(outDir, "compressed-inplace");
  const gw = loadRows(outDir, "gateway-legacy");
  const sampleSession = text?.sessions[0] ?? {};
  const sampleUser = text?.messages.find((m) => m.role === "user") ?? {};
  const toolAssistant = tool?.messages.find((m) => typeof m.tool_calls === "string") ?? {};
  const toolRow = tool?.messages.find((m) => m.role === "tool") ?? {};
  const foreign = readJson(join(outDir, "foreign.results.json"));
  let snapStart = "?";
  const snapDir = join(outDir, "snapshot", "sessions");
  if (existsSync(snapDir)) {
    const f = readdirSync(snapDir).find((x) => x.endsWith(".json"));
    const j = f ? readJson(join(snapDir, f)) : null;
    if (isObj(j) && typeof j.session_start === "string") snapStart = j.session_start;
  }
  const textRuns = readJson(join(outDir, "text-turns.runs.json"));
  const firstRun = isObj(textRuns) && Array.isArray(textRuns.runs) ? textRuns.runs[0] : null;
  const probes = [
    ...new Set(isObj(firstRun) && Array.isArray(firstRun.probes) ? firstRun.probes.map(String) : []),
  ];
  const L: string[] = [];
  const p = (...xs: string[]): void => {
    L.push(...xs);
  };
  const exists = (f: string): boolean => existsSync(join(outDir, f));

  p(`# Hermes Agent ${version}: real fixtures`, "");
  p(
    `Captured ${
      isObj(cap) ? String(cap.captured_at) : "?"
    } with the real \`hermes\` from PyPI \`hermes-agent==${version}\` ` +
      `against the fake model server, offline. Generated by \`acceptance/capture-hermes-fixtures.ts\`; do not edit by hand.`,
    "",
    "Re-capture (installs the venv on first use, ~20 s; all scenarios take about a minute):",
    "",
    "```sh",
    `npx bun acceptance/capture-hermes-fixtures.ts ${version}`,
    `npx deno run -A acceptance/capture-hermes-fixtures.ts ${version} --scenario titled,foreign   # a subset`,
    `npx bun acceptance/capture-hermes-fixtures.ts ${version} --keep   # keep the private homes under $TMPDIR`,
    "```",
    "",
  );

  p("## How they were made", "");
  p(
    `- Hermes: \`acceptance/install-harness.ts\` (pip kind) → venv \`\${XDG_CACHE_HOME:-~/.cache}/session-bridge/harnesses/hermes-${version}\`` +
      (gw
        ? `; \`gateway-legacy\` uses \`hermes-${version}-messaging\` (\`hermes-agent[messaging]\`, for aiohttp).`
        : "."),
    "- Model: `lib/certify-kit/fake-servers/chat-completions.ts` on 127.0.0.1 (random port, written here as " +
      "`http://127.0.0.1:8000`). Streaming SSE for the agent loop; plain JSON for Hermes' non-streaming auxiliary " +
      "calls (compression summary, titles). Script on the last message: `TOOL: <cmd>` → `delta.reasoning_content` " +
      '(`REASONING: ...`) + one `terminal` call `{"command": "<cmd>"}`; after a tool result → `Tool said: <output>`; ' +
      "else `ASSISTANT-REPLY: acknowledged, turn <n>, digest <fnv1a of prompt>.`",
    "- Each scenario: fresh private `HOME=<tmp>/home`, `HERMES_HOME=$HOME/.hermes`, `TMPDIR=<tmp>/tmp`, cwd " +
      "`<tmp>/project`, `TZ=UTC`, no inherited environment. `config.yaml`: `model: {provider: custom, base_url: " +
      "http://127.0.0.1:<port>/v1, default: fake-model-1, api_key: x, context_length: 131072}`, " +
      "`auxiliary.title_generation.enabled: false`, `security: {tirith_enabled: false, allow_lazy_installs: false}` " +
      "(both would otherwise reach the network), plus per-scenario keys below; `.update_check` pre-seeded (no PyPI check).",
    '- Turns: `hermes chat -Q -q "<prompt>"` (id from stderr `session_id: <id>`), `hermes chat -Q --resume <id> -q ' +
      '"<prompt>"`, `--yolo` on tool turns. Each process group is SIGKILLed after 180 s (never needed).',
    `- Hermes probes \`${
      probes.join(", ")
    }\` on every run (context-length detection); all answered 404 (see \`*.runs.json\`).`,
    "- `state.db` (+`-wal`, `-shm`) is copied after Hermes exited; only the copy is opened (node:sqlite): " +
      "`PRAGMA wal_checkpoint(TRUNCATE)`, text values neutralized (`<tmp>/project` → `/home/user/project`, " +
      "`<tmp>/home` → `/home/user`, `<tmp>/tmp` → `/tmp`, port → 8000, venv → `/opt/hermes-venv`), FTS `optimize`, " +
      "`VACUUM INTO` (journal_mode DELETE). Kept only when < 300 KB. The same neutralization is applied to every JSON/JSONL here.",
    "",
  );

  p("## Files", "", "| file | content |", "| --- | --- |");
  const desc: [string, string][] = [
    [
      "schema.json",
      "`schema_version`, `PRAGMA table_info` of `sessions` and `messages`, all of `sqlite_master`",
    ],
    ["capture.json", "capture date, duration and session ids per scenario"],
    ["<scenario>.state.db", "compacted, neutralized copy of the scenario's whole `state.db`"],
    [
      "<scenario>.rows.json",
      "`{sessions: [...], messages: [...]}`: every row, every column (sessions by started_at)",
    ],
    [
      "<scenario>.requests.jsonl",
      "each POST /v1/chat/completions of the scenario, trimmed to `{run, stream, messages}` (`run` = the Hermes invocation)",
    ],
    [
      "<scenario>.runs.json",
      "each Hermes invocation: args, exit code, printed session id, duration, probes, stderr tail",
    ],
    ["<scenario>.list.txt", "stdout of `hermes sessions list` at the end of the scenario"],
    [
      "<scenario>.export.jsonl",
      "what `hermes sessions export - --session-id <id>` writes for each session of the fixture db, one JSON " +
      "line each, sessions by started_at (made by `--exports`)",
    ],
  ];
  for (const [f, d] of desc) p(`| \`${f}\` | ${d} |`);
  p("");
  p("Scenarios:", "");
  const scenDesc: Record<string, string> = {
    "text-turns":
      "two text turns: `-q` then `--resume <id> -q`. `text-turns.requests.jsonl` line 2 (`run: turn2-resume`) " +
      "is the resume request: what a resumed Hermes really sends.",
    "tool-call":
      "one turn, `--yolo`: reasoning + `terminal` call, tool result, final text (2 model requests).",
    "titled":
      'one turn, `hermes sessions rename <id> "Garden planning notes"`, then `--resume "Garden planning notes"` ' +
      "(resume by title) and a second turn.",
    "compressed":
      "rotation compression: `compression: {in_place: false, protect_first_n: 1, protect_last_n: 3}` " +
      "(`in_place` exists from 0.18 on; older versions always rotate); three " +
      "text turns, then a `TOOL:` turn whose tool-call response reports `usage.prompt_tokens = 120000` (above the " +
      "threshold), so Hermes summarizes (non-streaming request) and continues in a child session; then `--resume <root id>`.",
    "compressed-inplace":
      "the same with `compression.in_place: true` (the default since 0.18): one id, old rows kept " +
      "with `active = 0, compacted = 1`.",
    "snapshot":
      (old
        ? "0.14 writes `sessions/session_<id>.json` for every CLI session (no setting); "
        : "`sessions: {write_json_snapshots: true}` (default false since 0.15) makes Hermes write `sessions/session_<id>.json`; ") +
      "a tool turn + a text turn. The file is in `snapshot/sessions/`.",
    "gateway-legacy":
      "the messaging gateway (`hermes gateway run`, webhook platform on 127.0.0.1, route secret " +
      '`INSECURE_NO_AUTH`, `deliver: log`) receives one POST `{"text": "TOOL: echo gateway-tool-output"}`; it writes the ' +
      "legacy transcript `sessions/<id>.jsonl`, `sessions/sessions.json` (gateway index) and `sessions/session_<id>.json`, " +
      "all in `gateway-legacy/sessions/`.",
    "interactive":
      "typed into the interactive `hermes --yolo` TUI in tmux (lib/harnesses/hermes/certify/tui.ts): a question, " +
      "then a `TOOL:` turn, each awaited on screen, then `/exit`. Rows are those of a `-q` session; the TUI's " +
      "exit sets `end_reason = 'cli_close'` and `ended_at`.",
    "interrupted":
      "typed into the TUI: a question, a `TOOL:` turn, then `TOOL: sleep 600; echo never-printed`; while the " +
      "terminal call runs the person types words, presses Ctrl+C (Hermes cancels the call and keeps the words in " +
      "the input line), then Enter sends them.",
    "open-call-resumed":
      "a session inserted as a handoff leaves an open call (user, assistant with a `terminal` call and no tool " +
      "row, a user note), then `--resume <id> -q`: the request shows the stand-in result Hermes sends the model " +
      "for the open call; the rows show it is not stored.",
    "foreign":
      "sessions inserted straight into `state.db` (as another tool would), then `hermes sessions list` and " +
      "`--resume`; results in `foreign.results.json` (see below).",
  };
  for (const [k, d] of Object.entries(scenDesc)) {
    if (!(k in scen) && !exists(`${k}.rows.json`)) continue;
    const sc = scen[k];
    const info = isObj(sc)
      ? ` Sessions: ${
        Array.isArray(sc.session_ids) ? sc.session_ids.map((x) => `\`${String(x)}\``).join(", ") : "?"
      }; ` +
        `${String(sc.seconds)} s; state.db ${String(sc.state_db_bytes)} bytes${
          sc.state_db_saved ? "" : " (not kept)"
        }.`
      : "";
    p(`- \`${k}\`: ${d}${info}`);
  }
  if (!old) {
    p(
      "- no `gateway-legacy` here: Hermes 0.15 and later write no `sessions/<id>.jsonl` (the writer " +
        "`SessionStore.append_to_transcript` JSONL branch exists up to 0.14.0; see `../0.14.0/`).",
    );
  }
  p("");

  p("## Schema", "");
  p(
    `\`schema_version\` = ${isObj(schema) ? String(schema.schema_version) : "?"}. Tables: ${
      tables.map((t) => `\`${t}\``).join(", ")
    }.`,
    "",
    `\`sessions\` (${sesCols.length} columns): ${colList(ti.sessions)}.`,
    "",
    `\`messages\` (${msgCols.length} columns): ${colList(ti.messages)}.`,
    "",
    "Hermes adds missing columns on open (`_reconcile_columns`, from the CREATE TABLE text) without bumping " +
      "`schema_version`: read columns with `PRAGMA table_info`, never by position. `messages_fts` and " +
      "`messages_fts_trigram` (FTS5, `tokenize='trigram'`) are kept in sync by AFTER INSERT/UPDATE/DELETE triggers on " +
      "`messages` (indexing content, tool_name and tool_calls), so a writer needs SQLite with FTS5 + trigram. " +
      "`idx_sessions_title_unique` is a partial UNIQUE index on `title WHERE title IS NOT NULL`.",
    "",
  );

  p("## What the data looks like", "");
  p(
    `- Session ids (CLI): \`YYYYMMDD_HHMMSS_<6 hex>\` from local time at start, e.g. \`${
      String(sampleSession.id ?? "?")
    }\`` +
      " (captured with TZ=UTC)." +
      (gw
        ? ` Gateway ids: \`YYYYMMDD_HHMMSS_<8 hex>\`, e.g. \`${String(gw.sessions[0]?.id ?? "?")}\`.`
        : "") +
      " A compression child gets a fresh CLI-style id. `--resume` takes any exact id string (or a title); the " +
      "`foreign` scenario resumes `claude-3f1c9a52-…` fine.",
    `- Timestamps: \`sessions.started_at\`, \`ended_at\` and \`messages.timestamp\` are REAL Unix epoch seconds with ` +
      `microseconds, e.g. \`started_at = ${String(sampleSession.started_at ?? "?")}\` (= ${
        iso(sampleSession.started_at)
      }). ` +
      "The JSON snapshot (`session_start`, `last_updated`) " +
      (gw ? "and the legacy JSONL (`timestamp`) use" : "uses") +
      ` naive ISO-8601 local time without offset, e.g. \`${snapStart}\`` +
      (gw ? "; in the JSONL all lines written for one turn share one timestamp." : "."),
    `- \`source\`: \`cli\` for \`hermes chat\`${
      gw ? ", `webhook` (the platform name) for the gateway" : ""
    }; ` +
      "`hermes sessions list` hides `tool` unless `--source tool`.",
    `- Model: \`sessions.model\` = \`${String(sampleSession.model ?? "?")}\` (config \`model.default\`); ` +
      `\`model_config\` = \`${String(sampleSession.model_config ?? "null")}\`; \`billing_provider\` = ` +
      `\`${
        String(sampleSession.billing_provider ?? "?")
      }\`, \`billing_base_url\` = the endpoint. Token counters ` +
      "(`input_tokens`, `output_tokens`, `api_call_count`, ...) come from the stream's `usage`." +
      (tables.includes("session_model_usage")
        ? " Per-model usage is also in `session_model_usage` (not dumped; it is in the .state.db)."
        : ""),
    `- \`system_prompt\`: the full system prompt of the first turn (${
      String((sampleSession.system_prompt as string | undefined)?.length ?? "?")
    } chars), ` +
      "ending with lines such as `Conversation started: ...`, `Model: fake-model-1`, `Provider: custom`. " +
      "`cwd` = the working directory" +
      (sesCols.includes("cwd") ? "" : " (no `cwd` column in this version; only inside the prompt text)") +
      ". A `-q` run leaves `ended_at`/`end_reason` NULL. `message_count` counts user+assistant+tool rows as Hermes " +
      "writes them; it is incremented, never recounted (the `foreign` minimal session, inserted with 0 and 2 rows, has " +
      "`message_count = 2` after one resumed turn).",
    `- Messages: one row per OpenAI-style message, \`id\` INTEGER AUTOINCREMENT = order. User row: \`role='user'\`, ` +
      `\`content\` (e.g. \`${clip(String(sampleUser.content ?? ""), 60)}\`), everything else NULL.` +
      (hasActive
        ? " `active = 1` for live rows, `0` for rows compacted/rewound away (only active rows are loaded)."
        : " (no `active` column: every row is live.)"),
    `- Reasoning: streamed \`delta.reasoning_content\` is stored twice, in \`reasoning\` and \`reasoning_content\` ` +
      `(\`${
        clip(String(toolAssistant.reasoning ?? ""), 80)
      }\`); \`reasoning_details\` stays NULL (it holds provider ` +
      "objects such as Anthropic signatures). Plain text answers have all three NULL.",
    `- Tool calls: the assistant row has \`content = ''\`, \`finish_reason = 'tool_calls'\` and \`tool_calls\` = JSON text ` +
      `\`${
        clip(String(toolAssistant.tool_calls ?? ""), 400)
      }\` (Hermes adds \`call_id\` and \`response_item_id\`; ` +
      "`arguments` is a JSON string). The result row: `role='tool'`, " +
      `\`tool_call_id = '${String(toolRow.tool_call_id ?? "?")}'\`, ` +
      (typeof toolRow.tool_name === "string"
        ? `\`tool_name = '${toolRow.tool_name}'\`, `
        : "`tool_name` NULL (this version does not record it; the snapshot/JSONL carry `name` on some tool messages), ") +
      `\`content = ${
        clip(JSON.stringify(toolRow.content ?? ""), 120)
      }\` (the terminal tool returns JSON text). ` +
      "The final answer is a normal assistant row with `finish_reason = 'stop'`.",
    `- Titles: \`sessions.title\`${
      titled ? ` (\`${String(titled.sessions[0]?.title ?? "?")}\` after \`hermes sessions rename\`)` : ""
    }; ` +
      'max 100 chars, unique; `--resume "<title>"` resolves an exact title (newest of a `title #N` lineage). ' +
      (old
        ? "0.14 has no `title_generation.enabled` switch: the gateway asked the fake model for a title (`Fake Title …`); the CLI `-q` runs did not."
        : "Auto-titles are off here (`auxiliary.title_generation.enabled: false`)."),
  );
  if (comp) {
    const parent = comp.sessions.find((s) => s.end_reason === "compression");
    const child = comp.sessions.find((s) =>
      s.parent_session_id !== null && s.parent_session_id !== undefined
    );
    const summary = comp.messages.find((m) =>
      typeof m.content === "string" && m.content.includes("CONTEXT COMPACTION")
    );
    p(
      `- Compression (rotation, \`compressed\`): parent \`${
        String(parent?.id ?? "?")
      }\` gets \`end_reason = 'compression'\`, ` +
        `\`ended_at\` set; child \`${
          String(child?.id ?? "?")
        }\` has \`parent_session_id\` = parent, \`started_at\` ≈ parent ` +
        `\`ended_at\`, its own copy of the system prompt, and starts with the protected head, then an ` +
        `\`${String(summary?.role ?? "?")}\` message holding the summary (\`${
          clip(String(summary?.content ?? ""), 90)
        }\`), ` +
        "then the protected tail. " +
        (old
          ? "In 0.14 the turn in progress (user + tool call + result) exists only in the child."
          : `In ${version} the turn in progress is also flushed to the parent, so it appears in both.`) +
        " `hermes sessions list` shows the chain once (root's place, tip's id/preview); `--resume <root id>` continues in the tip.",
    );
  }
  if (inplace) {
    const act = inplace.messages.filter((m) => m.active === 1).length;
    const dead = inplace.messages.filter((m) => m.active === 0).length;
    p(
      `- Compression in place (\`compressed-inplace\`, default since 0.18): one session, ${dead} old rows set ` +
        `\`active = 0, compacted = 1\`, ${act} new active rows (head, summary, tail, new turns). No parent/child.`,
    );
  }
  if (exists("interrupted.rows.json")) {
    const rows = readJson(join(outDir, "interrupted.rows.json"));
    const closes = isObj(rows) && Array.isArray(rows.messages) &&
      rows.messages.some((m) => isObj(m) && m.role === "assistant" && m.content === "Operation interrupted.");
    p(
      "- An interrupted turn (`interrupted`): Hermes answers the cancelled call itself, so no call is left open: " +
        "the assistant row with the `terminal` call, a `tool` row " +
        '`{"output": "[Command interrupted]", "exit_code": 130, "error": null}`, ' +
        (closes
          ? "an assistant row `Operation interrupted.` (no `finish_reason`) closing the turn, "
          : "no closing assistant row in this version, ") +
        "then the words typed while it ran as an ordinary user row, answered. A call with no answer at all is " +
        "never written by Hermes's own flow; on `--resume` Hermes sends the model " +
        "`[Result unavailable — see context summary above]` for it (`open-call-resumed`) and does not store that.",
    );
  }
  p(
    "- JSON snapshot (`snapshot/sessions/session_<id>.json`): `{session_id, model, base_url, platform, session_start, " +
      "last_updated, system_prompt, tools, message_count, messages}`; `tools` is the full tool catalog (state.db has no " +
      "tool schemas); messages are the OpenAI-style dicts" +
      (old ? "." : " with `timestamp` and internal `_db_persisted` flags."),
  );
  if (gw) {
    p(
      "- Legacy JSONL (`gateway-legacy/sessions/<id>.jsonl`, id = file stem): line 1 `{role: 'session_meta', tools, model, " +
        "platform, timestamp}`, then one JSON message per line (user, assistant with `tool_calls`/`reasoning`/" +
        "`reasoning_content`/`finish_reason`, tool, assistant), each with a naive ISO `timestamp`. The gateway also wrote " +
        "the `session_meta` entry into state.db as a `messages` row (`role = 'session_meta'`, content NULL); readers must " +
        "skip it. `sessions.json` maps the gateway session key to `session_id` and origin.",
    );
  }
  p("");

  p("## Writing a session that Hermes lists and resumes", "");
  if (isObj(foreign)) {
    const listed = isObj(foreign.listed) ? foreign.listed : {};
    const resumed = isObj(foreign.resumed) ? foreign.resumed : {};
    p(
      "`foreign`: rows inserted with node:sqlite into the `state.db` that `hermes sessions list` had just created " +
        "(Hermes not running), then `hermes sessions list` and `hermes chat -Q --resume <id> -q ...`:",
      "",
      "| case | rows written | listed | resume |",
      "| --- | --- | --- | --- |",
    );
    const what: Record<string, string> = {
      minimal:
        "sessions `(id, source='cli', started_at)` only; messages `(session_id, role, content, timestamp)` user + assistant",
      rich:
        "id `claude-…`, source `claude-code`, model, system_prompt with matching `Model:`/`Provider:` lines, title, cwd; " +
        "a `system` row, user, assistant with `tool_calls` + `reasoning`, `tool` row, assistant",
      tool: "source `tool`",
      empty: "no messages, and a child session (`parent_session_id` = it) that has messages",
      child: "the child above",
      archived: "`archived = 1`",
      bare: "sessions row only: no messages, no children",
    };
    for (const [k, w] of Object.entries(what)) {
      if (!(k in listed)) continue;
      const r = resumed[k];
      const res = isObj(r) && r.exit !== 0
        ? `**failed**, exit ${String(r.exit)}${old ? " (see Known problems)" : ""}`
        : isObj(r)
        ? `exit ${String(r.exit)}; continued as \`${String(r.printed_session_id)}\`; request roles ${
          Array.isArray(r.request_roles) ? r.request_roles.join(",") : "?"
        }${r.system_prompt_reused_verbatim ? "; stored system_prompt sent verbatim" : ""}`
        : "—";
      p(`| ${k} | ${w} | ${listed[k] ? "yes" : "no"} | ${res} |`);
    }
    p("");
  }
  p(
    "Rules (from the source of this version, confirmed by the table):",
    "",
    "- Listed (`hermes sessions list`, `SessionDB.list_sessions_rich`): a `sessions` row with `id`, `source` (NOT NULL; " +
      "`tool` is hidden by default) and `started_at` (REAL, NOT NULL); `parent_session_id` NULL (children are hidden " +
      "unless they are /branch children)" +
      (sesCols.includes("archived")
        ? "; `archived = 0`; no `_delegate_from` key in `model_config` (subagent marker)"
        : "") +
      ". Messages are not required. Sorted by `started_at` DESC and cut at `--limit` (default 20): an imported session " +
      "with an old `started_at` can fall off the first page. Preview = first user message with non-NULL content; the " +
      "`title` column is shown when any listed session has one.",
    "- Resumed (`hermes chat --resume X`): X is looked up as an exact `sessions.id`, else as a title (no prefix match " +
      "on this path). " +
      (old
        ? "Only if X has no messages, Hermes walks to the newest-started child (any `parent_session_id = X` row) " +
          "that has messages. "
        : "Hermes then follows the compression chain to its tip and walks to the newest descendant (a child row " +
          "whose `model_config` has no `_branched_from`/`_delegate_from` and whose source is not `tool`) that has " +
          "messages, even when X itself has messages — so never write a child row pointing at an imported session " +
          "unless it is the continuation. ") +
      "History = `messages` of that id" +
      (hasActive ? " with `active = 1`" : "") +
      ", ordered by `id`; needed per row: `session_id`, `role`, `timestamp` " +
      "(NOT NULL), `content`; assistant `tool_calls` as JSON text (OpenAI list, `arguments` a string) and tool rows " +
      "with `tool_call_id` (+ `tool_name`). `message_count`, `model`, `system_prompt`, `cwd` are optional: Hermes " +
      "fills `model`, `system_prompt`, billing and counters on the next turn. A session with no messages starts " +
      "fresh (`Session X found but has no messages`).",
    ...(sesCols.includes("cwd")
      ? [
        "- If `sessions.cwd` names an existing directory different from the current one, `--resume` chdirs into it " +
        "(`↪ restored workspace dir`), unless `--no-restore-cwd`.",
      ]
      : []),
    "",
  );

  p("## The resumed request: where the system prompt and history go", "");
  p(
    "`text-turns.requests.jsonl` line 2 is the resume request. `messages[0]` is `role: system`, byte-identical to turn 1's " +
      "system prompt: " +
      (old
        ? "Hermes reuses `sessions.system_prompt` verbatim whenever it is non-empty (0.14 does not compare model or " +
          "provider); if it is NULL or empty it builds a fresh prompt and writes it back to the row. "
        : "Hermes reuses `sessions.system_prompt` verbatim when it is non-empty and its `Model:` / `Provider:` lines " +
          "(if any) equal the running model and provider (`_stored_prompt_matches_runtime`); otherwise (NULL, empty, " +
          "or another model) it builds a fresh prompt and writes it back to the row. ") +
      "Then the stored " +
      "messages follow in `id` order as plain `{role, content}` (assistant `tool_calls`, tool `tool_call_id`), then the " +
      "new user message. A stored `role = 'system'` row is sent as a second system message in place (`foreign` rich). " +
      (old
        ? "0.14 replays `reasoning_content` on assistant messages and `tool_name` on tool messages."
        : "Stored reasoning is not replayed to a `custom` provider; `tool_name`, `timestamp`, `finish_reason` are dropped.") +
      " No tool schemas or old system prompts are stored per message; tools come from the current configuration.",
    "",
  );
  if (old) {
    p(
      "## Known problems in this version",
      "",
      "- `--resume <id>` of a session whose messages live in a child crashes after printing (`rich.errors.MarkupError: " +
        "closing tag '[/]' ... has nothing to close`, see `foreign.runs.json` `resume-empty`): the \"was compressed into\" " +
        "notice is printed with Rich markup that contains `[/]`.",
      "",
    );
  }
  return L.join("\n") + "\n";
}

if (import.meta.main) {
  await main();
}
