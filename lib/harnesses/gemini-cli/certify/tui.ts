/**
 * Gemini CLI's interactive TUI driven like a person would: `gemini --approval-mode yolo` in a tmux pane (tools
 * run unasked, as the one-shot seeding allows them), prompts typed into its input box, each answer awaited in
 * the session file the CLI writes (what it recorded is what a handoff reads) and on the screen (the agent idle
 * again), a long shell call cancelled with Esc while words are queued, and the TUI left with `/quit`.
 */
import { quitBy, type SeedingTui, startTmux } from "../../../certify-kit/tmux.ts";
import { storeWatch } from "../../../certify-kit/store-watch.ts";
import { type RecordedMessage, recordedMessages, sessionIdOf } from "./recorded.ts";
import { sessionFiles } from "../locate.ts";
import { contentText } from "../parts.ts";

export interface GeminiTuiOptions {
  bin: string;
  /** The `.gemini` store the TUI records into (env must name its home). */
  store: string;
  cwd: string;
  env: Record<string, string>;
}

const TURN_TIMEOUT_MS = 90_000;
/** The input box is there, and prompts are no longer only queued behind the start-up. */
const READY = (s: string) => s.includes("Type your message") && !s.includes("Initializing");
/** While the agent works, the status line offers Esc to cancel. */
const BUSY = (s: string) => s.includes("esc to cancel");

/** Gemini CLI's TUI: ask waits for the answer in the session file; exit is `/quit`. */
export type GeminiTui = SeedingTui;

export async function startGeminiTui(opts: GeminiTuiOptions): Promise<GeminiTui> {
  const before = new Set(sessionFiles(opts.store));
  const pane = startTmux({
    command: opts.bin,
    args: ["--approval-mode", "yolo"],
    cwd: opts.cwd,
    env: { ...opts.env, TERM: "xterm-256color" },
  });
  try {
    await pane.waitForScreen(READY, "Gemini CLI's input box", TURN_TIMEOUT_MS);
  } catch (error) {
    pane.close();
    throw error;
  }

  let path: string | undefined;
  const messages = (): RecordedMessage[] => {
    path ??= sessionFiles(opts.store).find((f) => !before.has(f));
    return path ? recordedMessages(path) : [];
  };
  const { recorded: settled, ask } = storeWatch(pane, {
    who: "Gemini",
    messages,
    busy: BUSY,
    answerAfter,
    timeoutMs: TURN_TIMEOUT_MS,
  });

  return {
    pane,
    submit: (prompt) => pane.submit(prompt),
    ask,
    async waitForRunningCommand(command) {
      await pane.waitForScreen(
        (s) => BUSY(s) && s.split("\n").some((l) => l.includes("Shell") && l.includes(command.slice(0, 40))),
        `a running shell call to ${command}`,
        TURN_TIMEOUT_MS,
      );
    },
    async waitForQueued(text) {
      await pane.waitForScreen(
        (s) => s.includes("Queued") && s.includes(text.slice(0, 40)),
        "the queued words on screen",
        TURN_TIMEOUT_MS,
      );
    },
    async waitForInterruption(queued) {
      await settled((all) => {
        const cancelled = all.findIndex((m) => m.toolCalls.some((c) => c.status === "cancelled"));
        return cancelled >= 0 ? answerAfter(all.slice(cancelled), queued) : undefined;
      }, "the cancelled call recorded and the queued words answered");
    },
    sessionId() {
      messages();
      const id = path ? sessionIdOf(path) : undefined;
      if (!id) throw new Error("Gemini CLI recorded no session");
      return id;
    },
    exit: () => quitBy(pane, "/quit", TURN_TIMEOUT_MS),
    close: () => pane.close(),
  };
}

/**
 * The answer of the turn whose user message holds `prompt`: the model's text in the last `gemini` message
 * after it, once one with text is recorded (a tool turn's first message holds only the call).
 */
function answerAfter(messages: RecordedMessage[], prompt: string): string | undefined {
  const asked = messages.findIndex((m) => m.type === "user" && contentText(m.content).includes(prompt));
  if (asked < 0) return undefined;
  const answers = messages.slice(asked + 1).filter((m) =>
    m.type === "gemini" && contentText(m.content).trim()
  );
  return answers.at(-1) === undefined ? undefined : contentText(answers.at(-1)!.content).trim();
}
