/**
 * Pi's interactive TUI driven like a person would: `pi` in a tmux pane, prompts typed into its editor, each answer
 * awaited in the session file Pi appends to (what it recorded is what a handoff reads) and on the screen (the
 * footer's "Working..." gone), and the TUI left with `/quit`. As 0.73.1 behaves (interactive-mode.js): words
 * submitted while the agent works are queued as a steering message ("Steering: ..." under the editor), delivered
 * once the running tool call returns; Escape aborts the turn (the bash call's result "Command aborted", then an
 * empty assistant message with stopReason `aborted`) and puts the queued words back into the editor, unsent, for
 * the person to send or change. The driver sends them, as typed.
 */
import { quitBy, type SeedingTui, startTmux } from "../../../certify-kit/tmux.ts";
import { storeWatch } from "../../../certify-kit/store-watch.ts";
import { type RecordedMessage, recordedMessages, sessionFiles, sessionIdOf } from "./recorded.ts";

export interface PiTuiOptions {
  bin: string;
  /** The agent folder the TUI records into (env must name it in PI_CODING_AGENT_DIR). */
  agent: string;
  /** The model the footer names once Pi is ready. */
  model: string;
  cwd: string;
  env: Record<string, string>;
}

const TURN_TIMEOUT_MS = 90_000;
/** While the agent works, the footer's spinner says so. */
const BUSY = (s: string) => s.includes("Working...");
const STEERING = "Steering:";

/** Pi's TUI: what every seeding TUI does, and Escape, after which the queued words are sent again. */
export interface PiTui extends SeedingTui {
  /** Presses Escape while a call runs, waits for the abort and the queued words back in the editor, sends them. */
  interrupt(queued: string): Promise<void>;
}

export async function startPiTui(opts: PiTuiOptions): Promise<PiTui> {
  const before = new Set(sessionFiles(opts.agent));
  const pane = startTmux({
    command: opts.bin,
    args: [],
    cwd: opts.cwd,
    env: { ...opts.env, TERM: "xterm-256color" },
  });
  const ready = (s: string) => s.includes(opts.model) && !BUSY(s);
  try {
    await pane.waitForScreen(ready, "Pi's editor", TURN_TIMEOUT_MS);
  } catch (error) {
    pane.close();
    throw error;
  }

  let path: string | undefined;
  const messages = (): RecordedMessage[] => {
    path ??= sessionFiles(opts.agent).find((f) => !before.has(f));
    return path ? recordedMessages(path) : [];
  };
  const { recorded, ask } = storeWatch(pane, {
    who: "Pi",
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
      await recorded(
        (all) => {
          const last = all.at(-1);
          return last?.role === "assistant" && last.commands.some((c) => c.includes(command))
            ? true
            : undefined;
        },
        `a running bash call to ${command}`,
        true,
      );
    },
    async waitForQueued(text) {
      await pane.waitForScreen(
        (s) => s.includes(STEERING) && s.includes(text.slice(0, 40)),
        "the queued words on screen",
        TURN_TIMEOUT_MS,
      );
    },
    async interrupt(queued) {
      pane.press("Escape");
      await recorded(
        (all) => all.some((m) => m.role === "assistant" && m.stopReason === "aborted") ? true : undefined,
        "the aborted turn recorded",
      );
      await pane.waitForScreen(
        (s) => !s.includes(STEERING) && s.includes(queued.slice(0, 40)),
        "the queued words back in the editor",
        TURN_TIMEOUT_MS,
      );
      pane.press("Enter");
    },
    async waitForInterruption(queued) {
      await recorded((all) => {
        const aborted = all.findIndex((m) => m.role === "assistant" && m.stopReason === "aborted");
        return aborted >= 0 ? answerAfter(all.slice(aborted + 1), queued) : undefined;
      }, "the aborted turn recorded, the queued words after it answered");
    },
    sessionId() {
      messages();
      const id = path ? sessionIdOf(path) : undefined;
      if (!id) throw new Error("Pi recorded no session");
      return id;
    },
    exit: () => quitBy(pane, "/quit", TURN_TIMEOUT_MS),
    close: () => pane.close(),
  };
}

/**
 * The answer of the turn whose user message holds `prompt`, once that turn has ended: the last message is an
 * assistant's that stopped without calling a tool; the words of the last assistant message after the prompt
 * that has any.
 */
function answerAfter(messages: RecordedMessage[], prompt: string): string | undefined {
  const asked = messages.findIndex((m) => m.role === "user" && m.text.includes(prompt));
  const last = messages.at(-1);
  if (asked < 0 || last?.role !== "assistant" || last.stopReason === "toolUse") return undefined;
  const answer = messages.slice(asked + 1).findLast((m) => m.role === "assistant" && m.text.trim());
  return answer && answer.text.trim();
}
