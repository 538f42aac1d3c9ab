/**
 * Claude Code's interactive TUI driven like a person would: prompts typed into the real program in a tmux
 * pane, each answer awaited in the transcript the program writes (what it recorded is what a handoff reads),
 * a long shell call cancelled with Esc while words are queued, and the TUI left with `/exit`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { bucketName } from "../bucket.ts";
import { isObject, type Json } from "../../../io/json.ts";
import { type SeedingTui, startTmux, waitUntil } from "../../../certify-kit/tmux.ts";
import { claudeConfigDir, FAKE_API_KEY } from "./run.ts";

export interface ClaudeTuiOptions {
  bin: string;
  home: string;
  cwd: string;
  version: string;
  env: Record<string, string>;
  /** Commands the Bash tool may run without asking (`--allowedTools Bash(<command>)`). */
  allowedCommands: string[];
  /** The API key the TUI runs with (default: the env's): approved once, as a person does on first start. */
  apiKey?: string;
}

const TURN_TIMEOUT_MS = 90_000;
/** Claude Code asking whether a tool call may run (its first choice, under the cursor, is "Yes"). */
const PERMISSION_PROMPT = /Do you want to proceed\?/;
/** Shown under a tool call before its permission prompt is drawn. */
const WAITING_FOR_PERMISSION = /Waiting for permission/;
/** The status line while a turn runs. */
const BUSY = /esc to interrupt/;

/**
 * The state a person's first interactive start leaves behind: onboarding done, the folder trusted, the API
 * key approved. Without it the TUI stops at those dialogs instead of reading a prompt.
 */
export function markInteractiveReady(home: string, cwd: string, apiKey = FAKE_API_KEY): void {
  mkdirSync(claudeConfigDir(home), { recursive: true });
  const path = join(claudeConfigDir(home), ".claude.json");
  const state: Json = existsSync(path) ? JSON.parse(readFileSync(path, "utf8")) as Json : {};
  const projects = isObject(state.projects) ? state.projects : {};
  const project = isObject(projects[realpathSync(cwd)]) ? projects[realpathSync(cwd)] as Json : {};
  writeFileSync(
    path,
    JSON.stringify({
      ...state,
      hasCompletedOnboarding: true,
      projects: { ...projects, [realpathSync(cwd)]: { ...project, hasTrustDialogAccepted: true } },
      customApiKeyResponses: { approved: [apiKey.slice(-20)], rejected: [] },
    }) + "\n",
  );
}

/** Claude Code's TUI: its interruption is seen in the transcript, whatever was queued. */
export interface ClaudeTui extends SeedingTui {
  waitForInterruption(): Promise<void>;
}

export async function startClaudeTui(opts: ClaudeTuiOptions): Promise<ClaudeTui> {
  markInteractiveReady(opts.home, opts.cwd, opts.apiKey ?? opts.env.ANTHROPIC_API_KEY);
  const bucket = join(
    claudeConfigDir(opts.home),
    "projects",
    bucketName(realpathSync(opts.cwd), opts.version),
  );
  const before = new Set(listSessions(bucket));
  const rules = opts.allowedCommands.flatMap(bashRules);
  // Auto mode (2.1.x's default) sends some allowed commands to a server-side safety check as well, which a fake
  // server cannot answer: the TUI then stops at a dialog. The default mode asks only about what no rule allows.
  const args = ["--permission-mode", "default", ...(rules.length ? ["--allowedTools", ...rules] : [])];
  const pane = startTmux({ command: opts.bin, args, cwd: opts.cwd, env: opts.env });
  try {
    await pane.waitForScreen(/❯/, "Claude Code's prompt box", TURN_TIMEOUT_MS);
  } catch (error) {
    pane.close();
    throw error;
  }

  let id: string | undefined;
  const transcript = (): Json[] => {
    id ??= listSessions(bucket).find((s) => !before.has(s));
    if (id === undefined) return [];
    return readRecords(join(bucket, `${id}.jsonl`));
  };
  const submit = (prompt: string) => pane.submit(prompt);

  return {
    pane,
    submit,
    async ask(prompt) {
      const recordedBefore = transcript().length;
      await submit(prompt);
      return await waitUntil(
        () => finalAnswerAfter(transcript().slice(recordedBefore), prompt),
        `Claude Code's answer to "${prompt.slice(0, 40)}"`,
        TURN_TIMEOUT_MS,
        () => pane.screen().split("\n").filter((l) => l.trim()).slice(-4).join(" | "),
      );
    },
    async waitForRunningCommand(command) {
      await waitUntil(
        () => {
          const screen = pane.screen();
          // A command that needs more than the rules allow (e.g. reading /dev) is asked about: a person says yes.
          if (PERMISSION_PROMPT.test(screen)) {
            pane.press("Enter");
            return undefined;
          }
          const call = bashCall(transcript(), command);
          // Claude Code refuses some commands outright (a leading long `sleep`); then nothing will ever run.
          if (call?.result !== undefined) {
            throw new Error(`Claude Code did not run ${command}: ${call.result}`);
          }
          return call && BUSY.test(screen) && !WAITING_FOR_PERMISSION.test(screen) ? true : undefined;
        },
        `a running Bash call to ${command}`,
        TURN_TIMEOUT_MS,
      );
    },
    async waitForQueued(text) {
      await waitUntil(
        () => (transcript().some((r) =>
            r.type === "queue-operation" && r.operation === "enqueue" &&
            typeof r.content === "string" && r.content.includes(text)
          )
          ? true
          : undefined),
        "the queued words in the transcript",
        TURN_TIMEOUT_MS,
      );
    },
    async waitForInterruption() {
      await waitUntil(
        () => (transcript().some((r) => r.type === "user" && blocksOf(r).some(isInterruption))
          ? true
          : undefined),
        "the interruption in the transcript",
        TURN_TIMEOUT_MS,
      );
    },
    sessionId() {
      transcript();
      if (id === undefined) throw new Error("Claude Code recorded no session");
      return id;
    },
    async exit() {
      // A person clears whatever is left in the box first (Ctrl-U), then types the command.
      pane.press("C-u");
      pane.type("/exit");
      await pane.waitForScreen(/\/exit/, "the /exit command in the prompt box", 10_000);
      pane.press("Enter");
      await pane.waitForExit(30_000);
    },
    close: () => pane.close(),
  };
}

/**
 * `Bash(<command>)` rules that let `command` run without asking: Claude Code checks each part of a compound
 * command (`a; b`, `a && b`, `a | b`) against the rules on its own.
 */
export function bashRules(command: string): string[] {
  // Split on the operators alone (whitespace around them goes with the trim): `\s*` in front of the operator
  // would be retried from every space of a long run.
  const parts = command.split(/;|&&|\|\||\|/).map((p) => p.trim()).filter((p) => p !== "");
  return [...new Set([command, ...parts])].map((p) => `Bash(${p})`);
}

function listSessions(bucket: string): string[] {
  if (!existsSync(bucket)) return [];
  return readdirSync(bucket).filter((f) => f.endsWith(".jsonl")).map((f) => f.slice(0, -".jsonl".length));
}

/** The transcript's complete lines (the program may be mid-append on the last one). */
function readRecords(path: string): Json[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").flatMap((line) => {
    try {
      const value: unknown = JSON.parse(line);
      return isObject(value) ? [value] : [];
    } catch {
      return [];
    }
  });
}

function messageOf(record: Json): Json {
  return isObject(record.message) ? record.message : {};
}

function blocksOf(record: Json): Json[] {
  const content = messageOf(record).content;
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isObject) : [];
}

/** The text of the first assistant message that ends the turn begun by `prompt`. */
function finalAnswerAfter(records: Json[], prompt: string): string | undefined {
  const asked = records.findIndex((r) =>
    r.type === "user" && blocksOf(r).some((b) => typeof b.text === "string" && b.text.includes(prompt))
  );
  if (asked === -1) return undefined;
  const done = records.slice(asked + 1).find((r) =>
    r.type === "assistant" && messageOf(r).stop_reason === "end_turn"
  );
  if (done === undefined) return undefined;
  return blocksOf(done).flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : []))
    .join("\n");
}

/** Claude Code's own record of an interrupted turn: a text marker, or the cancelled call's error result. */
function isInterruption(block: Json): boolean {
  const text = block.type === "text" ? block.text : block.type === "tool_result" ? block.content : undefined;
  const flat = typeof text === "string" ? text : JSON.stringify(text ?? "");
  return /interrupted by user|Interrupted by user/.test(flat);
}

/**
 * The Bash tool_use running `command`, with the text of its result once there is one. (Claude Code refuses a
 * command that begins with a long `sleep`, answering at once with an error: use e.g. `echo x && sleep 600`.)
 */
function bashCall(records: Json[], command: string): { result?: string } | undefined {
  const call = records.flatMap(blocksOf).find((b) =>
    b.type === "tool_use" && b.name === "Bash" && isObject(b.input) && b.input.command === command
  );
  if (call === undefined) return undefined;
  const result = records.flatMap(blocksOf).find((b) => b.type === "tool_result" && b.tool_use_id === call.id);
  if (result === undefined) return {};
  return { result: typeof result.content === "string" ? result.content : JSON.stringify(result.content) };
}
