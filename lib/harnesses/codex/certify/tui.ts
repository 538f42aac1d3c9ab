/**
 * Codex's interactive TUI driven like a person would: `codex --no-daemon` in a tmux pane (without it a
 * background app-server outlives the TUI), prompts typed into the composer, each answer awaited in the rollout
 * Codex writes (what it recorded is what a handoff reads), a long shell call cancelled with Esc while words are
 * queued, and the TUI left with `/quit`.
 */
import { existsSync, readFileSync } from "node:fs";
import { isObject, type Json } from "../../../io/json.ts";
import { rolloutFiles } from "../locate.ts";
import { type SeedingTui, startTmux, type TmuxPane, waitUntil } from "../../../certify-kit/tmux.ts";

export interface CodexTuiOptions {
  bin: string;
  /** The CODEX_HOME the TUI runs with (env must name the same). */
  codexHome: string;
  cwd: string;
  env: Record<string, string>;
  /** Resume this thread (`codex resume <id>`): the TUI records into its rollout instead of a new one. */
  resumes?: string;
}

const TURN_TIMEOUT_MS = 90_000;
/** The composer is ready: its placeholder or the shortcut hint under it. */
const COMPOSER = /\? for shortcuts|Ask Codex to do anything/;

export interface CodexTui extends SeedingTui {
  /** The rollout file the TUI records into. */
  rolloutPath(): string;
}

/**
 * Starts the TUI and gets it to its composer the way a person does on a first start: a model upgrade offer is
 * declined (the configured model stays), a folder trust question is answered yes.
 */
export async function startCodexTui(opts: CodexTuiOptions): Promise<CodexTui> {
  const before = new Set(rolloutFiles(opts.codexHome).map((f) => f.path));
  const pane = startTmux({
    command: opts.bin,
    args: ["--no-daemon", ...(opts.resumes ? ["resume", opts.resumes] : [])],
    cwd: opts.cwd,
    env: { ...opts.env, TERM: "xterm-256color" },
  });
  try {
    await reachComposer(pane);
  } catch (error) {
    pane.close();
    throw error;
  }

  let path: string | undefined;
  const records = (): Json[] => {
    path ??= rolloutFiles(opts.codexHome).find((f) =>
      opts.resumes ? f.id === opts.resumes : !before.has(f.path)
    )?.path;
    return path && existsSync(path) ? readRecords(path) : [];
  };
  const lastLines = () => pane.screen().split("\n").filter((l) => l.trim()).slice(-4).join(" | ");
  const submit = (prompt: string) => pane.submit(prompt);

  return {
    pane,
    submit,
    async ask(prompt) {
      const seen = records().length;
      await submit(prompt);
      return await waitUntil(
        () => answerAfter(records().slice(seen), prompt),
        `Codex's answer to "${prompt.slice(0, 40)}"`,
        TURN_TIMEOUT_MS,
        lastLines,
      );
    },
    async waitForRunningCommand(command) {
      await waitUntil(
        () => (runningCall(records(), command) ? true : undefined),
        `a running shell call to ${command}`,
        TURN_TIMEOUT_MS,
        lastLines,
      );
    },
    async waitForQueued(text) {
      await pane.waitForScreen(
        (s) => s.split("\n").some((l) => l.includes("↳") && l.includes(text.slice(0, 40))),
        "the queued words on screen",
        TURN_TIMEOUT_MS,
      );
    },
    async waitForInterruption(queued) {
      await waitUntil(
        () => {
          const all = records();
          const aborted = all.findIndex((r) => eventType(r) === "turn_aborted");
          return aborted >= 0 && answerAfter(all.slice(aborted), queued) !== undefined ? true : undefined;
        },
        "the aborted turn and the queued words answered in the rollout",
        TURN_TIMEOUT_MS,
        lastLines,
      );
    },
    sessionId() {
      records();
      // The 36 characters before `.jsonl`, cut by position (a pattern would be tried from every character).
      const id = path?.endsWith(".jsonl") ? path.slice(-42, -6) : undefined;
      if (!id || !/^[0-9a-f-]{36}$/.test(id)) throw new Error("Codex recorded no thread");
      return id;
    },
    rolloutPath() {
      records();
      if (!path) throw new Error("Codex recorded no thread");
      return path;
    },
    async exit() {
      await submit("/quit");
      await pane.waitForExit(TURN_TIMEOUT_MS);
      pane.close();
    },
    close: () => pane.close(),
  };
}

/**
 * Moves the upgrade offer's selection to "Use existing model". A key pressed while the offer is still opening can
 * be lost (seen under load), so Down is pressed again while option 1 stays selected, never once option 2 is.
 */
async function chooseExistingModel(pane: TmuxPane): Promise<void> {
  let pressedAt = 0;
  await waitUntil(
    () => {
      const screen = pane.screen();
      if (/› 2\. Use existing model/.test(screen)) return true;
      const firstPress = pressedAt === 0;
      if (firstPress || (/› 1\. Try new model/.test(screen) && Date.now() - pressedAt > 2_000)) {
        pane.press("Down");
        pressedAt = Date.now();
      }
      return undefined;
    },
    "the existing model chosen",
    20_000,
    // Each run of whitespace holding a line break (tried once per run: linear in the screen).
    () => pane.screen().replace(/(?<!\s)[^\S\n]*\n\s*/g, " | "),
  );
}

const QUESTION = /Use existing model|trust the (files|contents)|Do you trust/i;

/** The composer with no question over it, for a moment: questions open just after the composer first shows. */
async function reachComposer(pane: TmuxPane): Promise<void> {
  for (let step = 0; step < 6; step++) {
    const screen = await pane.waitForScreen(
      (s) => COMPOSER.test(s) || QUESTION.test(s),
      "Codex's composer",
      TURN_TIMEOUT_MS,
    );
    if (/Use existing model/.test(screen)) {
      // The upgrade offer: keep the configured model (the fake server answers for it). Arrow keys, not the
      // option's digit: a digit some versions do not take would land in the composer.
      await chooseExistingModel(pane);
      pane.press("Enter");
      await pane.waitForScreen((s) => !/Use existing model/.test(s), "the upgrade offer to close", 10_000);
      // Whatever was typed while the offer opened goes with it.
      pane.press("C-u");
      continue;
    }
    if (QUESTION.test(screen)) {
      pane.press("Enter");
      await pane.waitForScreen((s) => !QUESTION.test(s), "the trust question to close", 10_000);
      continue;
    }
    const question = await pane.waitForScreen(QUESTION, "a question after start", 3_000).catch(() =>
      undefined
    );
    if (!question) return;
  }
  throw new Error("Codex's TUI kept asking questions before its composer");
}

function readRecords(path: string): Json[] {
  return readFileSync(path, "utf8").split("\n").flatMap((line) => {
    try {
      const value = JSON.parse(line) as unknown;
      return isObject(value) ? [value] : [];
    } catch {
      // The line Codex is writing right now.
      return [];
    }
  });
}

const payloadOf = (r: Json): Json => (isObject(r.payload) ? r.payload : {});
const eventType = (r: Json) => (r.type === "event_msg" ? payloadOf(r).type : undefined);

function userText(r: Json): string | undefined {
  const p = payloadOf(r);
  if (r.type !== "response_item" || p.type !== "message" || p.role !== "user" || !Array.isArray(p.content)) {
    return undefined;
  }
  return p.content.filter(isObject).map((c) => (typeof c.text === "string" ? c.text : "")).join("\n");
}

/** The answer of the turn that recorded `prompt` as the user's words, once that turn completed. */
function answerAfter(records: Json[], prompt: string): string | undefined {
  const asked = records.findIndex((r) => userText(r)?.includes(prompt));
  if (asked < 0) return undefined;
  const done = records.slice(asked).find((r) => eventType(r) === "task_complete");
  if (!done) return undefined;
  const answer = payloadOf(done).last_agent_message;
  return typeof answer === "string" ? answer : "";
}

/** A shell call (any of Codex's shell tools) whose arguments name `command` and that has no output yet. */
function runningCall(records: Json[], command: string): boolean {
  const outputs = new Set(
    records.map(payloadOf).filter((p) => /_output$/.test(String(p.type))).map((p) => String(p.call_id)),
  );
  return records.map(payloadOf).some((p) =>
    (p.type === "function_call" || p.type === "local_shell_call") &&
    JSON.stringify(p.arguments ?? p.action ?? "").includes(command) && !outputs.has(String(p.call_id))
  );
}
