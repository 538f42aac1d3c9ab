// Captures REAL Claude Code transcripts as fixtures: the pinned binary runs offline against the fake
// Anthropic server, each scenario in a fresh private home and cwd, and the transcripts it writes are
// copied to fixtures/claude-code/<version>/ with machine paths replaced by neutral ones (nothing else
// is changed, so readers are tested against what the binary really writes).
//
// Usage: npx bun acceptance/capture-claude-fixtures.ts [--version X] [--only a,b] [--keep-tmp] [--no-buckets]
//        npx deno run -A acceptance/capture-claude-fixtures.ts
//
// --version picks the release (default: the pinned one in harness-versions.json); fixtures go to
// fixtures/claude-code/<X>/. --only re-captures some scenarios and leaves every other fixture file alone (the
// bucket probe, which rewrites buckets.observed.json, then only runs with --buckets). README.md is rebuilt from
// the files on disk, so it always lists every captured scenario.
import { randomUUID } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, sep } from "node:path";
import process from "node:process";
import { fileURLToPath } from "node:url";
import {
  COMPACTION_PROMPT,
  defaultScript,
  type FakeAnthropic,
  type FakeScript,
  lastUserMessage,
  startFakeAnthropic,
  userPromptText,
} from "../lib/certify-kit/fake-servers/anthropic.ts";
import { installHarness, pinnedVersion } from "./install-harness.ts";
import { commandLine, descendants } from "./process-tree.ts";
import {
  claudeConfigDir,
  claudeEnv,
  claudeTmpDir,
  killPid,
  runClaude,
  type RunClaudeOptions,
  type RunClaudeResult,
} from "../lib/harnesses/claude-code/certify/run.ts";
import { bucketName } from "../lib/harnesses/claude-code/bucket.ts";
import { type ClaudeTui, startClaudeTui } from "../lib/harnesses/claude-code/certify/tui.ts";

const REPO = dirname(dirname(fileURLToPath(import.meta.url)));
const NEUTRAL_HOME = "/home/user";
const NEUTRAL_CWD = "/home/user/project";
const NEUTRAL_TMP = "/tmp";

// ---------- scenario plumbing ----------

interface ScenarioCtx {
  /** The Claude Code version being captured. */
  version: string;
  /** Where fixtures go (for side outputs such as the plain-text request log). */
  outDir: string;
  home: string;
  cwd: string;
  server: FakeAnthropic;
  logPath: string;
  claude(args: string[], extra?: Partial<RunClaudeOptions>): Promise<RunClaudeResult>;
  /** Runs `steps` in the interactive TUI (tmux), Bash allowed for `allowedCommands`; always closes it. */
  tui<T>(allowedCommands: string[], steps: (tui: ClaudeTui) => Promise<T>): Promise<T>;
}

interface Scenario {
  name: string;
  /** How the fixture is made (goes into README.md); a function when it depends on the version. */
  how: string | ((version: string) => string);
  script?: FakeScript;
  run(ctx: ScenarioCtx): Promise<void>;
}

interface Transcript {
  bucketDir: string;
  sessionId: string;
  file: string;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function waitFor(what: string, cond: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A run that must succeed; returns the session id from `--output-format json`. */
function sessionIdOf(r: RunClaudeResult): string {
  if (r.code !== 0) throw new Error(`claude exited ${r.code ?? r.signal}: ${r.stderr}${r.stdout}`);
  const out = JSON.parse(r.stdout) as { session_id?: string; is_error?: boolean; result?: string };
  if (out.session_id === undefined || out.is_error === true) throw new Error(`claude failed: ${r.stdout}`);
  return out.session_id;
}

function oneShot(prompt: string, ...more: string[]): string[] {
  return ["-p", prompt, "--output-format", "json", ...more];
}

function resume(id: string, prompt: string, ...more: string[]): string[] {
  return ["-p", "--resume", id, prompt, "--output-format", "json", ...more];
}

function logLines(logPath: string): string[] {
  if (!existsSync(logPath)) return [];
  return readFileSync(logPath, "utf8").split("\n").filter((l) => l !== "");
}

/** All top-level transcripts under <config>/projects (subagent files live deeper). */
function findTranscripts(home: string): Transcript[] {
  const projects = join(claudeConfigDir(home), "projects");
  if (!existsSync(projects)) return [];
  const found: Transcript[] = [];
  for (const bucket of readdirSync(projects)) {
    const bucketDir = join(projects, bucket);
    for (const f of readdirSync(bucketDir)) {
      if (f.endsWith(".jsonl")) {
        found.push({ bucketDir, sessionId: f.slice(0, -6), file: join(bucketDir, f) });
      }
    }
  }
  return found;
}

function readRecords(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) =>
    JSON.parse(l) as Record<string, unknown>
  );
}

// ---------- process tree (the Bash tool's shell is a session leader, so a killed claude orphans it) ----------

/** Kill leftovers we recorded, by pid, only if the pid still runs the same command. */
function reapLeftovers(procs: { pid: number; cmdline: string }[]): void {
  for (const p of procs) if (commandLine(p.pid) === p.cmdline && p.cmdline !== "") killPid(p.pid);
}

// ---------- scenarios ----------

const SLOW_TOOL = "echo fixture-slow-start; sleep 30; echo fixture-slow-end";
/** Claude's streaming input mode: user messages arrive on stdin as JSON lines while a turn runs. */
const STREAM_JSON = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"];
/** The message typed while the interrupted-queued scenario's tool runs: it must stay queued. */
const QUEUED_WHILE_TOOL_RUNS = "Queued while the tool ran: afterwards, also list the files.";

function userLine(text: string): string {
  return JSON.stringify({ type: "user", message: { role: "user", content: text } }) + "\n";
}

/** The session's transcript holds an enqueue record for `text` (partly written lines are skipped). */
function enqueued(home: string, text: string): boolean {
  return findTranscripts(home).some((t) =>
    readFileSync(t.file, "utf8").split("\n").some((l) => {
      try {
        const r = JSON.parse(l) as Record<string, unknown>;
        return r.type === "queue-operation" && r.operation === "enqueue" && r.content === text;
      } catch {
        return false;
      }
    })
  );
}

/**
 * Kill claude with `signal` while its Bash tool runs `sleep 30`. With `queued`, the prompt goes in through
 * stream-json (stdin stays open until the kill) and `queued` is written while the tool sleeps; the kill waits
 * until the binary has recorded it as enqueued.
 */
async function interruptDuringTool(ctx: ScenarioCtx, signal: NodeJS.Signals, queued?: string): Promise<void> {
  const prompt = `Start the slow job. TOOL: ${SLOW_TOOL}`;
  let pid: number | undefined;
  let stdin: NodeJS.WritableStream | undefined;
  let release = () => {};
  const killed = new Promise<void>((resolve) => (release = resolve));
  const running = ctx.claude(
    queued === undefined
      ? oneShot(prompt, "--dangerously-skip-permissions")
      : [...STREAM_JSON, "--dangerously-skip-permissions"],
    {
      onSpawn: (p) => {
        pid = p;
      },
      ...(queued === undefined ? {} : {
        input: async (s: NodeJS.WritableStream) => {
          stdin = s;
          s.write(userLine(prompt));
          await killed;
        },
      }),
    },
  );
  const sleeping = () => pid !== undefined && descendants(pid).some((d) => d.cmdline.startsWith("sleep"));
  await waitFor("the Bash tool to start sleeping", sleeping, 60_000);
  if (queued !== undefined) {
    stdin?.write(userLine(queued));
    await waitFor("the queued message's enqueue record", () => enqueued(ctx.home, queued), 30_000);
  }
  await sleep(500);
  const kids = descendants(pid as number);
  killPid(pid, signal);
  release();
  await running;
  reapLeftovers(kids);
}

/** Runs long enough to be cancelled; not a leading `sleep`, which Claude Code 2.1.x refuses to run at all. */
const TUI_SLOW_TOOL = "echo fixture-slow-start && sleep 600";
const TUI_TOOL = "echo fixture-tui-tool-output";
const TUI_QUEUED = "Typed while the slow command ran: then list the files.";

const SCENARIOS: Scenario[] = [
  {
    name: "plain-text",
    how: "`claude -p <prompt>`, then `claude -p --resume <id> <prompt>`: two text turns.",
    async run(ctx) {
      const id = sessionIdOf(await ctx.claude(oneShot("Hello, this is the first plain turn.")));
      const before = logLines(ctx.logPath).length;
      sessionIdOf(await ctx.claude(resume(id, "And this is the second plain turn.")));
      writeResumeRequest(ctx, before);
    },
  },
  {
    name: "thinking-tool-use",
    how: "One turn: the fake model answers with thinking (fake signature) + a Bash tool_use " +
      "(`echo fixture-tool-output`, allowed by `--allowedTools`), the tool runs, then a final text.",
    async run(ctx) {
      const args = oneShot("Run this for me. TOOL: echo fixture-tool-output");
      sessionIdOf(await ctx.claude([...args, "--allowedTools", "Bash(echo fixture-tool-output)"]));
    },
  },
  {
    name: "resumed",
    how: "Three text turns: a one-shot, then `--resume <id>` twice (all appended to the same file).",
    async run(ctx) {
      const id = sessionIdOf(await ctx.claude(oneShot("Resume fixture, turn one.")));
      sessionIdOf(await ctx.claude(resume(id, "Resume fixture, turn two.")));
      sessionIdOf(await ctx.claude(resume(id, "Resume fixture, turn three.")));
    },
  },
  {
    name: "config-permission-modes",
    how: "Two text turns under other permission modes: `claude -p --permission-mode plan`, then " +
      "`--resume <id> --permission-mode acceptEdits`.",
    async run(ctx) {
      const id = sessionIdOf(
        await ctx.claude(oneShot("Plan mode fixture: outline a tidy desk.", "--permission-mode", "plan")),
      );
      sessionIdOf(
        await ctx.claude(
          resume(id, "Now in acceptEdits mode: one more line.", "--permission-mode", "acceptEdits"),
        ),
      );
    },
  },
  {
    name: "config-settings",
    how:
      "One turn running Bash under settings given on the command line (`--settings` JSON: thinking always " +
      "on, no co-author line) and an appended system prompt (`--append-system-prompt`).",
    async run(ctx) {
      const settings = JSON.stringify({ alwaysThinkingEnabled: true, includeCoAuthoredBy: false });
      sessionIdOf(
        await ctx.claude(oneShot(
          "Run this for me. TOOL: echo fixture-settings",
          "--allowedTools",
          "Bash(echo fixture-settings)",
          "--settings",
          settings,
          "--append-system-prompt",
          "Answer tersely.",
        )),
      );
    },
  },
  {
    name: "rewound-branch",
    how: (v) =>
      isV1(v)
        ? "Two turns, then `claude -p --resume <id> --resume-session-at <message.id> <prompt>` (a hidden flag; " +
          "1.0.x only matches an assistant's API `message.id`) with the id of turn one's answer: the new turn " +
          "hangs off that assistant, so turn two stays in the file as an abandoned branch of the parentUuid tree."
        : "Two turns, then `claude -p --resume <id> --resume-session-at <uuid> <prompt>` (a hidden flag) " +
          "with the uuid of the last chain entry before turn two: the new turn hangs off that entry, so turn two " +
          "stays in the file as an abandoned branch of the parentUuid tree.",
    async run(ctx) {
      const id = sessionIdOf(await ctx.claude(oneShot("Branch fixture, kept first turn.")));
      sessionIdOf(await ctx.claude(resume(id, "Branch fixture, abandoned second turn.")));
      const keepAt = parentOfPrompt(ctx.home, "Branch fixture, abandoned second turn.", isV1(ctx.version));
      sessionIdOf(
        await ctx.claude(resume(id, "Branch fixture, replacement turn.", "--resume-session-at", keepAt)),
      );
    },
  },
  {
    name: "queued-message",
    how: (v) =>
      "`claude -p --input-format stream-json --output-format stream-json --verbose`: a first user message " +
      "whose model reply is delayed 3 s, and a second user message written to stdin while that turn is busy; " +
      (isV1(v)
        ? "1.0.x writes no queue-operation records: the second message is simply the next turn."
        : "the binary records queue-operation enqueue/dequeue around it."),
    script: (req) => {
      const reply = defaultScript(req);
      if (userPromptText(lastUserMessage(req)).includes("slow first")) reply.delayMs = 3000;
      return reply;
    },
    async run(ctx) {
      const r = await ctx.claude(STREAM_JSON, {
        input: async (stdin) => {
          stdin.write(userLine("Queue fixture: a slow first message."));
          await waitFor("the first request", () => logLines(ctx.logPath).length >= 1, 60_000);
          await sleep(300);
          stdin.write(userLine("Queue fixture: typed while busy."));
          await waitFor("the queued message's request", () => logLines(ctx.logPath).length >= 2, 60_000);
          await sleep(1500);
        },
      });
      if (r.code !== 0) throw new Error(`queued-message: claude exited ${r.code}: ${r.stderr}`);
    },
  },
  {
    name: "subagent",
    how: (v) =>
      isV1(v)
        ? "The fake model calls the subagent tool (`Task` in 1.0.x, found in the request's tools) with a prompt; " +
          "the binary runs it synchronously and writes the subagent's records into the session file itself " +
          "(`isSidechain: true`, its first record with parentUuid null), then the tool_result and the final answer."
        : "The fake model calls the subagent tool (`Agent`, found in the request's tools) with a prompt; the " +
          "binary runs it in the background (its default), the subagent makes its own request, and a " +
          "task-notification turn follows. Subagent transcript + meta under `subagent/subagents/`.",
    async run(ctx) {
      sessionIdOf(
        await ctx.claude(oneShot("Please delegate this. AGENT: go", "--dangerously-skip-permissions")),
      );
    },
  },
  {
    name: "interrupted-tool-call",
    how: (v) =>
      `The model calls Bash (\`${SLOW_TOOL}\`); while \`sleep\` runs, claude is killed with SIGKILL. ` +
      "The last user/assistant record is that assistant tool_use, with no tool_result" +
      (isV1(v)
        ? " (1.0.x writes nothing else: it is the last line)."
        : "; only metadata records (`last-prompt`, `atis-latch`, `tools-used`, in varying order) may follow it."),
    async run(ctx) {
      await interruptDuringTool(ctx, "SIGKILL");
    },
  },
  {
    name: "interrupted-tool-call-sigint",
    how: (v) =>
      isV1(v)
        ? "Same as interrupted-tool-call, but claude gets SIGINT (what Ctrl-C sends). 1.0.x in print mode " +
          "exits at once without writing anything more: the file ends with the orphan tool_use, as with SIGKILL."
        : "Same as interrupted-tool-call, but claude gets SIGINT (what Ctrl-C sends): it writes a rejected " +
          "tool_result and a `[Request interrupted by user for tool use]` user text, then exits.",
    async run(ctx) {
      await interruptDuringTool(ctx, "SIGINT");
    },
  },
  {
    name: "interrupted-queued",
    how: (v) =>
      `\`claude -p --input-format stream-json ...\`: the model calls Bash (\`${SLOW_TOOL}\`); while \`sleep\` ` +
      `runs, a second user message (\`${QUEUED_WHILE_TOOL_RUNS}\`) is written to stdin, and once the binary ` +
      "has recorded it, claude is killed with SIGKILL: an orphan tool_use plus a message still waiting" +
      (isV1(v)
        ? " (1.0.x writes no queue-operation records, so nothing says it was typed)."
        : " (a queue-operation enqueue with no dequeue)."),
    async run(ctx) {
      await interruptDuringTool(ctx, "SIGKILL", QUEUED_WHILE_TOOL_RUNS);
    },
  },
  {
    name: "edit-tool",
    how:
      "The scenario writes `notes.txt` into the cwd; the prompt `EDIT: <abs path> <old> <new>` makes the " +
      "fake model call `Edit` (file_path absolute, old_string, new_string; allowed by `--allowedTools Edit`), " +
      "the binary edits the file, then a final text.",
    async run(ctx) {
      const file = join(ctx.cwd, "notes.txt");
      writeFileSync(file, "status: draft\nowner: fixture\n");
      sessionIdOf(await ctx.claude(oneShot(`EDIT: ${file} draft final`, "--allowedTools", "Edit")));
      if (readFileSync(file, "utf8") !== "status: final\nowner: fixture\n") {
        throw new Error(
          `edit-tool: the binary did not edit the file: ${JSON.stringify(readFileSync(file, "utf8"))}`,
        );
      }
    },
  },
  {
    name: "interactive",
    how:
      "Typed into the interactive TUI (tmux), as a person does: a text prompt, then a prompt whose answer " +
      `runs Bash (\`${TUI_TOOL}\`, allowed by \`--allowedTools\`), each submitted with Enter once the answer ` +
      "to the previous one is in the transcript; then `/exit`.",
    async run(ctx) {
      await ctx.tui([TUI_TOOL], async (tui) => {
        await tui.ask("Interactive fixture: a prompt typed into the TUI.");
        await tui.ask(`Interactive fixture: run this. TOOL: ${TUI_TOOL}`);
        await tui.exit();
      });
    },
  },
  {
    name: "interactive-interrupted",
    how: "Typed into the interactive TUI (tmux): a text prompt, a Bash turn, then a prompt whose Bash call " +
      `(\`${TUI_SLOW_TOOL}\`) runs long; while it runs the person types \`${TUI_QUEUED}\` (queued), then ` +
      "presses Esc and leaves with `/exit`. The binary records the cancelled call's rejected result and the " +
      "interruption marker, and sends the queued prompt at once: its user record (`promptSource: queued`) " +
      "hangs off the cancelled tool_use, beside the chain that goes on with the result.",
    async run(ctx) {
      await ctx.tui([TUI_TOOL, TUI_SLOW_TOOL], async (tui) => {
        await tui.ask("Interrupted fixture: a prompt typed into the TUI.");
        await tui.ask(`Interrupted fixture: run this. TOOL: ${TUI_TOOL}`);
        await tui.submit(`Interrupted fixture: the slow one. TOOL: ${TUI_SLOW_TOOL}`);
        await tui.waitForRunningCommand(TUI_SLOW_TOOL);
        await tui.submit(TUI_QUEUED);
        await tui.waitForQueued(TUI_QUEUED);
        tui.pane.press("Escape");
        await tui.waitForInterruption();
        await tui.exit();
      });
    },
  },
  {
    name: "interactive-compacted",
    how:
      "Typed into the interactive TUI (tmux): two text prompts, `/compact` (answered by the fake model's " +
      "summary), one more prompt after the compaction, then `/exit`.",
    async run(ctx) {
      await ctx.tui([], async (tui) => {
        await tui.ask("Compacted TUI fixture, turn one.");
        await tui.ask("Compacted TUI fixture, turn two.");
        const before = logLines(ctx.logPath).length;
        await tui.submit("/compact");
        await waitFor(
          "the compaction boundary",
          () =>
            logLines(ctx.logPath).slice(before).some((l) => l.includes(COMPACTION_PROMPT)) &&
            compacted(ctx.home),
          90_000,
        );
        await tui.ask("Compacted TUI fixture, first turn after compaction.");
        await tui.exit();
      });
    },
  },
  {
    name: "compacted",
    how:
      "Two text turns, then `claude -p --resume <id> /compact` (slash commands run in print mode): the fake " +
      "model answers the summarization request with `<analysis>...</analysis>` + " +
      "`<summary>COMPACT-SUMMARY: ...</summary>`, and the binary writes a `system` record with subtype " +
      "`compact_boundary` (parentUuid null, `logicalParentUuid` = the last entry before it), a user record " +
      "with `isCompactSummary: true` holding the summary, and the `/compact` command's own user records. Then " +
      "one more turn is resumed after the compaction. The session title requests and the summarization request " +
      "are answered deterministically by the default script (see the Notes for what each version writes).",
    async run(ctx) {
      const id = sessionIdOf(await ctx.claude(oneShot("Compact fixture, turn one before compaction.")));
      sessionIdOf(await ctx.claude(resume(id, "Compact fixture, turn two before compaction.")));
      const before = logLines(ctx.logPath).length;
      sessionIdOf(await ctx.claude(resume(id, "/compact")));
      const summarized = logLines(ctx.logPath).slice(before).filter((l) => l.includes(COMPACTION_PROMPT));
      if (summarized.length !== 1) {
        throw new Error(`compacted: expected 1 summarization request, saw ${summarized.length}`);
      }
      sessionIdOf(await ctx.claude(resume(id, "Compact fixture, first turn after compaction.")));
      const t = mainTranscript(findTranscripts(ctx.home));
      const records = t === undefined ? [] : readRecords(t.file);
      if (!records.some((r) => r.type === "system" && r.subtype === "compact_boundary")) {
        throw new Error("compacted: the transcript has no compact_boundary record");
      }
    },
  },
];

/** The session's transcript holds a compaction boundary (read as text: the binary may be mid-append). */
function compacted(home: string): boolean {
  return findTranscripts(home).some((t) =>
    readFileSync(t.file, "utf8").includes('"subtype":"compact_boundary"')
  );
}

/**
 * The chain entry a typed prompt hangs off: rewinding there drops that prompt's turn. 2.x takes its uuid;
 * 1.0.x only matches an assistant's API `message.id`, so with `messageId` the parent must be that assistant.
 */
function parentOfPrompt(home: string, prompt: string, messageId = false): string {
  const t = mainTranscript(findTranscripts(home));
  if (t === undefined) throw new Error("no transcript to rewind");
  const records = readRecords(t.file);
  const rec = records.find((r) => {
    const msg = r.message as { content?: unknown } | undefined;
    return r.type === "user" && msg?.content === prompt;
  });
  if (typeof rec?.parentUuid !== "string") throw new Error(`no user record for ${JSON.stringify(prompt)}`);
  if (!messageId) return rec.parentUuid;
  const parent = records.find((r) => r.uuid === rec.parentUuid);
  const id = (parent?.message as { id?: unknown } | undefined)?.id;
  if (parent?.type !== "assistant" || typeof id !== "string") {
    throw new Error(`the parent of ${JSON.stringify(prompt)} is not an assistant with a message.id`);
  }
  return id;
}

/** 1.0.x: the JS (`cli.js`) releases before 2.0, whose transcripts predate most of 2.x's record types. */
function isV1(version: string): boolean {
  return version.startsWith("1.");
}

// ---------- neutralizing and copying ----------

type Neutralize = (text: string) => string;

/** Replace the private tmp, cwd and home (raw and realpath'd, plus the cwd's bucket form), longest first. */
function makeNeutralizer(home: string, cwd: string): Neutralize {
  const pairs: [string, string][] = [];
  const add = (from: string, to: string) => {
    for (const f of new Set([from, safeRealpath(from)])) pairs.push([f, to]);
  };
  add(claudeTmpDir(home), NEUTRAL_TMP);
  add(cwd, NEUTRAL_CWD);
  add(home, NEUTRAL_HOME);
  for (const f of new Set([cwd, safeRealpath(cwd)])) {
    pairs.push([bucketName(f), bucketName(NEUTRAL_CWD)]);
  }
  pairs.sort((a, b) => b[0].length - a[0].length);
  return (text) => pairs.reduce((t, [from, to]) => t.replaceAll(from, to), text);
}

function safeRealpath(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return p;
  }
}

function copyNeutralized(from: string, to: string, neutralize: Neutralize): void {
  mkdirSync(dirname(to), { recursive: true });
  writeFileSync(to, neutralize(readFileSync(from, "utf8")));
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? listFiles(p) : [p];
  });
}

/** `<scenario>.jsonl` plus every file under the session dir, in its real relative layout. */
function saveTranscript(t: Transcript, outDir: string, name: string, neutralize: Neutralize): string[] {
  const written = [join(outDir, `${name}.jsonl`)];
  copyNeutralized(t.file, written[0] as string, neutralize);
  const sessionDir = join(t.bucketDir, t.sessionId);
  for (const f of listFiles(sessionDir)) {
    const dest = join(outDir, name, relative(sessionDir, f));
    copyNeutralized(f, dest, neutralize);
    written.push(dest);
  }
  return written;
}

/**
 * The plain-text resume request(s), trimmed to model + messages: how history is really sent. Side requests
 * without tools (1.0.x asks for a session title after the turn) are left out.
 */
function writeResumeRequest(ctx: ScenarioCtx, skip: number): void {
  const neutralize = makeNeutralizer(ctx.home, ctx.cwd);
  const requests = logLines(ctx.logPath).slice(skip).map((l) =>
    JSON.parse(l) as { model: unknown; messages: unknown; tools?: unknown[] }
  );
  const lines = requests.filter((req) => (req.tools ?? []).length > 0).map((req) =>
    neutralize(JSON.stringify({ model: req.model, messages: req.messages }))
  );
  if (lines.length !== 1) console.warn(`plain-text: expected 1 resume request, saw ${lines.length}`);
  writeFileSync(join(ctx.outDir, "plain-text.requests.jsonl"), lines.join("\n") + "\n");
}

// ---------- running ----------

interface Captured {
  name: string;
  files: string[];
  ms: number;
}

async function captureScenario(
  sc: Scenario,
  version: string,
  bin: string,
  scratch: string,
  outDir: string,
): Promise<Captured> {
  const t0 = Date.now();
  const base = join(scratch, sc.name);
  const home = join(base, "home");
  const cwd = join(base, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  const logPath = join(base, "requests.jsonl");
  const server = await startFakeAnthropic({ logPath, script: sc.script ?? defaultScript });
  try {
    const claude = (args: string[], extra: Partial<RunClaudeOptions> = {}) =>
      runClaude({ bin, home, cwd, baseEnv: claudeEnv(home, server.url, process.env.PATH), args, ...extra });
    const tui = async <T>(allowedCommands: string[], steps: (tui: ClaudeTui) => Promise<T>) => {
      const env = claudeEnv(home, server.url, process.env.PATH);
      const session = await startClaudeTui({ bin, home, cwd, version, env, allowedCommands });
      try {
        return await steps(session);
      } finally {
        session.close();
      }
    };
    await sc.run({ version, outDir, home, cwd, server, logPath, claude, tui });
    if (server.otherRequests.length > 0) console.warn(`${sc.name}: other requests:`, server.otherRequests);
  } finally {
    await server.close();
  }
  return collect(sc, home, cwd, outDir, Date.now() - t0);
}

function collect(sc: Scenario, home: string, cwd: string, outDir: string, ms: number): Captured {
  const transcripts = findTranscripts(home);
  const t = mainTranscript(transcripts);
  if (t === undefined) {
    throw new Error(
      `${sc.name}: expected 1 transcript with user records, found ${transcripts.length} file(s)`,
    );
  }
  rmSync(join(outDir, `${sc.name}.jsonl`), { force: true });
  rmSync(join(outDir, sc.name), { recursive: true, force: true });
  const neutralize = makeNeutralizer(home, cwd);
  const files = saveTranscript(t, outDir, sc.name, neutralize);
  // 1.0.x also writes files holding only `summary` (title) records under fresh session ids: keep them too.
  for (const other of transcripts.filter((o) => o !== t)) {
    const dest = join(outDir, sc.name, OTHER_SESSIONS, `${other.sessionId}.jsonl`);
    copyNeutralized(other.file, dest, neutralize);
    files.push(dest);
  }
  return { name: sc.name, files, ms };
}

/** Where a scenario's extra top-level transcripts (other session ids in the same bucket) are copied. */
const OTHER_SESSIONS = "other-sessions";

/** The session's own transcript: the one file holding user records (others hold only side records). */
function mainTranscript(transcripts: Transcript[]): Transcript | undefined {
  const withTurns = transcripts.filter((t) => readRecords(t.file).some((r) => r.type === "user"));
  return withTurns.length === 1 ? withTurns[0] : undefined;
}

/** Distinct `type` values in file order; attachments also list their attachment.type. */
function recordTypes(file: string): string[] {
  const seen = new Set<string>();
  for (const r of readRecords(file)) {
    const att = r.attachment as { type?: unknown } | undefined;
    seen.add(
      r.type === "attachment" && typeof att?.type === "string" ? `attachment:${att.type}` : String(r.type),
    );
  }
  return [...seen];
}

// ---------- bucket observations ----------

interface BucketObservation {
  cwd: string;
  bucket: string;
  predicted: string;
  match: boolean;
  /** Set when the binary failed in that cwd (then `bucket` lists what it created, if anything). */
  error?: string;
}

/** Runs the binary in a few awkward cwds (deterministic root, so re-runs give the same pairs). */
async function observeBuckets(bin: string): Promise<BucketObservation[]> {
  const root = join(tmpdir(), "session-bridge-bucket-probe");
  rmSync(root, { recursive: true, force: true });
  const deep = join(root, "w", ...Array.from({ length: 12 }, (_, i) => `deep_dir.${i}-segment`));
  const cwds = [
    join(root, "w", "dots.and_underscores with space"),
    join(root, "w", "café-naïve"),
    join(root, "w", "e\u0301-decomposed"),
    join(root, "w", "emoji-\u{1F600}-x"),
    join(root, "w", "日本語"),
    deep,
    join(deep, "é"),
    ...boundaryCwds(join(root, "w")),
  ];
  // A symlinked cwd: the bucket comes from its realpath.
  const link = join(root, "w", "link-to-cafe");
  mkdirSync(join(root, "w", "café-naïve"), { recursive: true });
  symlinkSync(join(root, "w", "café-naïve"), link);
  cwds.push(link);
  const server = await startFakeAnthropic({ logPath: join(root, "requests.jsonl") });
  const out: BucketObservation[] = [];
  try {
    for (const cwd of cwds) out.push(await observeBucket(bin, root, cwd, server.url));
  } finally {
    await server.close();
  }
  rmSync(root, { recursive: true, force: true });
  return out;
}

/** cwds of exactly 200 and 201 characters (ASCII, so also 200/201 after sanitizing). */
function boundaryCwds(parent: string): string[] {
  const pad = (len: number) => join(parent, "b".repeat(len - parent.length - 1));
  return [pad(200), pad(201)];
}

async function observeBucket(
  bin: string,
  root: string,
  cwd: string,
  baseUrl: string,
): Promise<BucketObservation> {
  mkdirSync(cwd, { recursive: true });
  const home = join(root, `home-${randomUUID()}`);
  const r = await runClaude({
    bin,
    home,
    cwd,
    baseEnv: claudeEnv(home, baseUrl, process.env.PATH),
    args: oneShot("bucket probe"),
  });
  const projects = join(claudeConfigDir(home), "projects");
  const [bucket] = existsSync(projects) ? readdirSync(projects) : [];
  const predicted = bucketName(realpathSync(cwd));
  const obs = { cwd, bucket: bucket ?? "", predicted, match: bucket === predicted };
  if (r.code === 0) return obs;
  // Old releases (1.0.x) exit 1 without a word when the bucket name exceeds the 255-byte file name limit.
  const said = `${r.stderr}${r.stdout}`.trim().slice(0, 300);
  return {
    ...obs,
    match: false,
    error: `exit ${r.code ?? r.signal}${said === "" ? ", no output" : `: ${said}`}`,
  };
}

// ---------- README ----------

/** Built from the fixture files on disk, so a partial (`--only`) re-capture keeps it accurate. */
function readme(version: string, bin: string, outDir: string, lastRun: string): string {
  const native = bin.includes(`${sep}node_modules${sep}`);
  const program = native ? ["native", "binary from `@anthropic-ai/claude-code-linux-x64`)"] : [
    "`cli.js`",
    "run by node through the wrapper `install-harness.ts` writes; this release has no native binary)",
  ];
  const buckets = ["BUCKETS.md", "buckets.observed.json"].filter((f) => existsSync(join(outDir, f)));
  const lines = [
    `# Claude Code ${version} fixtures (real binary, offline)`,
    "",
    "Written by `acceptance/capture-claude-fixtures.ts`; re-capture with",
    `\`npx bun acceptance/capture-claude-fixtures.ts${
      version === pinnedVersion("claude-code") ? "" : ` --version ${version}`
    }\` (or \`npx deno run -A ...\`). Do not edit by hand.`,
    "",
    "Each scenario ran the real `claude` program (npm `@anthropic-ai/claude-code@" + version + "`, " +
    program[0],
    program[1] + " in a fresh private HOME / CLAUDE_CONFIG_DIR / TMPDIR",
    "against `lib/certify-kit/fake-servers/anthropic.ts` (default deterministic script unless noted).",
    "Paths were neutralized: cwd -> `/home/user/project` (and its bucket form -> `-home-user-project`),",
    "home -> `/home/user`, private TMPDIR -> `/tmp`. Everything else is byte for byte what the binary wrote" +
    (isV1(version) ? "." : ","),
    ...(isV1(version) ? [] : [
      "including its large `api-request-shape` and `prompt_snapshot` records (these hold the system prompt).",
    ]),
    "Thinking signatures are fake (the real API would reject them on resume).",
    "Record types below are listed in order of first appearance; `attachment:<x>` is an attachment record",
    "whose `attachment.type` is x." +
    (buckets.length > 0 ? ` See ${buckets.join(" / ")} for the project-bucket rule.` : ""),
    "",
    `Last capture run: ${lastRun}.`,
    "",
  ];
  for (const sc of SCENARIOS) lines.push(...readmeEntry(sc, version, outDir));
  lines.push(...(VERSION_NOTES[version] ?? []));
  const pinnedDir = join(dirname(outDir), pinnedVersion("claude-code"));
  if (pinnedDir !== outDir && existsSync(pinnedDir)) lines.push(...formatDiff(outDir, pinnedDir));
  return lines.join("\n") + "\n";
}

function readmeEntry(sc: Scenario, version: string, outDir: string): string[] {
  const main = join(outDir, `${sc.name}.jsonl`);
  if (!existsSync(main)) return [`## ${sc.name}`, "", "(not captured)", ""];
  const sessionId = readRecords(main).find((r) => typeof r.sessionId === "string")?.sessionId;
  const how = typeof sc.how === "string" ? sc.how : sc.how(version);
  const lines = [`## ${sc.name}`, "", how, "", `Session id: \`${String(sessionId)}\`.`, ""];
  for (const f of [main, ...listFiles(join(outDir, sc.name))]) {
    const rel = relative(outDir, f);
    if (!f.endsWith(".jsonl")) lines.push(`- \`${rel}\``);
    else lines.push(`- \`${rel}\` record types: ${recordTypes(f).map((t) => `\`${t}\``).join(", ")}`);
    if (rel.split(sep).includes(OTHER_SESSIONS)) {
      lines.push("  (another session id's file the binary wrote in the same bucket during this scenario)");
    }
  }
  if (sc.name === "plain-text") {
    lines.push(
      "- `plain-text.requests.jsonl`: the one request body of the resumed (second) run, trimmed to `model` and `messages`.",
    );
  }
  return [...lines, ""];
}

/**
 * Computed from the fixtures on disk: record types and top-level fields of user / assistant / system
 * records found only in this version's files or only in the pinned version's.
 */
function formatDiff(outDir: string, pinnedDir: string): string[] {
  const here = shapeOf(outDir);
  const there = shapeOf(pinnedDir);
  const pinned = basename(pinnedDir);
  const only = (a: Set<string>, b: Set<string>) => [...a].filter((x) => !b.has(x)).sort();
  const list = (xs: string[]) => (xs.length === 0 ? "(none)" : xs.map((x) => `\`${x}\``).join(", "));
  const lines = [
    `## Compared with the ${pinned} fixtures`,
    "",
    "Computed from the files on disk (all scenarios, subagent files included).",
    "",
    `- Record types only here: ${list(only(here.types, there.types))}`,
    `- Record types only in ${pinned}: ${list(only(there.types, here.types))}`,
  ];
  for (const kind of ["user", "assistant", "system"]) {
    const a = here.fields.get(kind) ?? new Set<string>();
    const b = there.fields.get(kind) ?? new Set<string>();
    if (a.size === 0 || b.size === 0) continue;
    lines.push(`- \`${kind}\` fields only here: ${list(only(a, b))}`);
    lines.push(`- \`${kind}\` fields only in ${pinned}: ${list(only(b, a))}`);
  }
  return [...lines, ""];
}

function shapeOf(dir: string): { types: Set<string>; fields: Map<string, Set<string>> } {
  const types = new Set<string>();
  const fields = new Map<string, Set<string>>();
  for (const f of listFiles(dir).filter((p) => p.endsWith(".jsonl") && !p.endsWith(".requests.jsonl"))) {
    for (const t of recordTypes(f)) types.add(t);
    for (const r of readRecords(f)) {
      const set = fields.get(String(r.type)) ?? new Set<string>();
      for (const k of Object.keys(r)) set.add(k);
      fields.set(String(r.type), set);
    }
  }
  return { types, fields };
}

/** Hand-written findings per captured version (the pinned one's come from its own capture sessions). */
const VERSION_NOTES: Record<string, string[]> = {
  "2.1.328": [
    "## Notes",
    "",
    "- Every `-p` run records `queue-operation` enqueue/dequeue for its own prompt; `queued-message` shows an",
    "  enqueue written while the previous turn was still running.",
    "- Dropping the HTTP connection after a tool_use does not leave an orphan tool_use: the binary writes an",
    "  assistant text `API Error: Connection lost mid-response...`, still runs the tool and continues.",
    "- SIGTERM during a tool writes a tool_result `Exit code 137` (is_error) instead of an orphan.",
    "- interrupted-queued: a message written while a tool runs gets only an `enqueue` record (no user record);",
    "  the dequeue would come when the turn ends, so after a kill the enqueue is the file's last record.",
    "- edit-tool: the binary records the Edit input with `replace_all: false` added (first key); an Edit of a",
    "  file the session never read was accepted.",
    "- A standalone `sleep 30` Bash command is refused by the binary (`Blocked: standalone sleep`), hence the",
    "  `echo ...; sleep 30; echo ...` command.",
    "- `--resume-session-at <uuid>` is hidden from `--help` but listed in the binary; it only works with `-p`",
    "  and `--resume`. `--fork-session` copies to a new session id instead of branching in place.",
    "- `/compact` (compacted): one summarization request (full tool list, the conversation, then a user text",
    "  with the summary instructions). The `compact_boundary` system record has `parentUuid: null`,",
    "  `logicalParentUuid` = the last assistant before it, `level: info`, `content: Conversation compacted` and",
    "  `compactMetadata` {trigger `manual`, preTokens, preCompactOrganizationsCoverStart, durationMs,",
    "  preservedSegment {headUuid, anchorUuid, tailUuid}, preservedMessages {anchorUuid, uuids, allUuids},",
    "  postTokens, cumulativeDroppedTokens}. Then the summary user record (`isCompactSummary`,",
    "  `isVisibleInTranscriptOnly`, `Summary:\\nCOMPACT-SUMMARY: ...` plus the transcript path), an `isMeta`",
    "  `<local-command-caveat>` record, the `<command-name>/compact</command-name>` record and a",
    "  `<local-command-stdout>` record, chained from the boundary.",
    "- The last turn's assistant message is preserved rather than summarized: `preservedSegment` names it",
    "  (head..tail) and the summary as anchor. It is not copied after the boundary, but the next request sends",
    "  summary, that assistant message, then the new prompt (see its `api-request` tail blobs).",
    "- From the compaction on, records carry a `slug` field (user, assistant, attachment, system), and the",
    "  post-compaction run ends with a `prompt_snapshot` attachment after the last assistant (the only fixture",
    "  whose newest tree entry is not a user/assistant record). The summary's `api-request-blob` has a string",
    "  `content`.",
    "- Record types the 2.1.328 binary itself knows (its transcript-loading table, read from the binary's JS):",
    "  user, assistant, system, attachment, progress, file-history-snapshot, file-history-delta, last-prompt,",
    "  continued-in, resume-head-vouch, content-replacement, data-flow-records, data-flow-incomplete,",
    "  derived-from, api-request-shape, api-request-blob, api-request, api-request-resumed, fork-context-ref,",
    "  frame-link, summary, custom-title, ended-by-model, ai-title, tag, relocated, agent-name, agent-color,",
    "  agent-setting, pr-link, artifact-comment-monitor, artifact-autoreact-ledger, bridge-session,",
    "  history-suppression, attribution-snapshot, mode, permission-mode, isolation-latch, session-owner,",
    "  dev-mods, memory-mode, atis-latch, tools-used, worktree-state, cost-state, queue-operation, observer-ref.",
    "",
  ],
  "1.0.128": [
    "## Notes",
    "",
    "- The last 1.0.x release: no native binary, `cli.js` runs under node; default model",
    "  `claude-sonnet-4-20250514`. Transcripts hold only `user`, `assistant`, `system` (compaction) and `summary`",
    "  records: none of 2.x's attachment, queue-operation, api-request*, last-prompt, cost-state, mode, atis-latch",
    "  or tools-used records. user / assistant records carry parentUuid, isSidechain, userType, cwd, sessionId,",
    '  version, gitBranch (`""` outside a git repo, 2.1.328 writes `HEAD`), type, message, uuid, timestamp;',
    "  assistants add `requestId`, tool results `toolUseResult`. No promptId, permissionMode, promptSource,",
    "  turnOrigin, turnPosition, entrypoint, slug, apiBlockIndex, effort, madeBy ... As in 2.1.328, an answer with",
    "  several content blocks is one assistant record per block, sharing `message.id`.",
    "- Titles: after a turn the binary asks the model for a title (a tool-less request whose user text is",
    "  `Please write a 5-10 word title for the following conversation: ...`; the fake answers `Fixture session`)",
    "  and appends `{type: summary, summary, leafUuid}`. Each `-p` run first opens a fresh session id, so these",
    "  summary records land partly in the session file and partly in files of their own that hold nothing but",
    "  summary records (kept under `<scenario>/other-sessions/`); its loader maps them to chains by leafUuid.",
    "- `/compact`: the summarization request carries one tool. The `compact_boundary` has parentUuid null,",
    "  `logicalParentUuid`, and `compactMetadata` {trigger `manual`, preTokens} only (no preservedSegment: the",
    "  whole history is summarized). The summary record reads `This session is being continued from a previous",
    "  conversation that ran out of context. The conversation is summarized below:\\n<summary>`; the caveat is",
    "  `Caveat: The messages below were generated by the user while running local commands...` (isMeta). The",
    "  next `-p --resume` run first adds a synthetic assistant `No response requested.` (model `<synthetic>`,",
    "  no requestId) after the `<local-command-stdout>` record, then the new prompt.",
    "- Subagents (`Task`) run synchronously inside the session file as `isSidechain: true` records; there is no",
    "  `subagents/` directory and no task notification.",
    "- SIGINT in print mode is not handled: the file ends with the orphan tool_use exactly as with SIGKILL.",
    "- `--resume-session-at` (hidden) takes an assistant's API `message.id`, not a uuid.",
    "- Buckets (buckets.observed.json): the same character rule as 2.1.328 up to 200 characters, but no cut and",
    "  hash beyond: a 201-character cwd gets a 201-character bucket, and a cwd whose bucket name would exceed",
    "  255 bytes makes the binary exit 1 without output and write nothing.",
    "- Record types the 1.0.128 loader knows (read from cli.js): user, assistant, attachment, system (the uuid",
    "  tree), summary (by leafUuid), checkpoint, file-history-snapshot.",
    "",
  ],
};

// ---------- main ----------

interface CliOptions {
  version?: string;
  only?: Set<string>;
  keepTmp: boolean;
  /** Run the bucket probe: by default only on a full capture, so `--only` touches nothing else. */
  buckets?: boolean;
}

function parseArgs(argv: string[]): CliOptions {
  const opts: CliOptions = { keepTmp: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--version") opts.version = argv[++i];
    else if (a === "--only") opts.only = new Set((argv[++i] ?? "").split(","));
    else if (a === "--keep-tmp") opts.keepTmp = true;
    else if (a === "--buckets") opts.buckets = true;
    else if (a === "--no-buckets") opts.buckets = false;
    else throw new Error(`unknown argument ${a}`);
  }
  if (opts.version !== undefined && !/^\d+\.\d+\.\d+$/.test(opts.version)) {
    throw new Error(`--version needs a release such as 2.1.328, got ${JSON.stringify(opts.version)}`);
  }
  const unknown = [...(opts.only ?? [])].filter((n) => !SCENARIOS.some((s) => s.name === n));
  if (unknown.length > 0) throw new Error(`unknown scenario(s) ${unknown.join(", ")}`);
  return opts;
}

async function main(argv: string[]): Promise<void> {
  const opts = parseArgs(argv);
  const t0 = Date.now();
  const pinned = pinnedVersion("claude-code");
  const version = opts.version ?? pinned;
  const bin = await installHarness("claude-code", version);
  const outDir = join(REPO, "fixtures", "claude-code", version);
  mkdirSync(outDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), "sb-claude-capture-"));
  const captured: Captured[] = [];
  try {
    for (const sc of SCENARIOS.filter((s) => opts.only === undefined || opts.only.has(s.name))) {
      const c = await captureScenario(sc, version, bin, scratch, outDir);
      console.log(`${sc.name}: ${c.files.length} file(s), ${c.ms} ms`);
      captured.push(c);
    }
    if (opts.buckets ?? opts.only === undefined) {
      writeBucketObservations(outDir, await observeBuckets(bin), version === pinned);
    }
  } finally {
    if (!opts.keepTmp) rmSync(scratch, { recursive: true, force: true });
    else console.log(`kept ${scratch}`);
  }
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  const partial = opts.only === undefined ? "" : "; the other scenarios' files are from earlier runs";
  const lastRun = `${captured.map((c) => c.name).join(", ")} in ${secs} s (${
    new Date().toISOString().slice(0, 10)
  }${partial})`;
  writeFileSync(join(outDir, "README.md"), readme(version, bin, outDir, lastRun));
  console.log(`done in ${secs} s -> ${outDir}`);
}

/** A mismatch fails the pinned version (the reader must follow it); for other versions it is a finding. */
function writeBucketObservations(outDir: string, obs: BucketObservation[], strict: boolean): void {
  writeFileSync(join(outDir, "buckets.observed.json"), JSON.stringify(obs, null, 2) + "\n");
  for (const o of obs) {
    console.log(`bucket ${o.match ? "ok " : "BAD"} ${o.cwd} -> ${o.bucket}${o.error ? ` (${o.error})` : ""}`);
  }
  if (obs.some((o) => !o.match)) {
    const msg = "bucket rule does not match the binary; see buckets.observed.json";
    if (strict) throw new Error(msg);
    console.warn(msg);
  }
}

if (import.meta.main) {
  main(process.argv.slice(2)).catch((err: unknown) => {
    console.error(err instanceof Error ? err.stack ?? err.message : String(err));
    process.exit(1);
  });
}
