/**
 * OpenCode's interactive TUI driven like a person would: `opencode` in a tmux pane, prompts typed into its input
 * box, each answer awaited in opencode.db (what it recorded is what a handoff reads) and on the screen (the agent
 * idle again), a long shell call interrupted with Esc while words typed meanwhile wait as QUEUED, and the TUI left
 * with `/exit`. As 1.18.33 draws it: the status line offers "esc interrupt" only while the agent works, and the
 * first Esc only arms the interrupt ("esc again to interrupt"); the second aborts the turn, recorded as an
 * assistant message ending in `MessageAbortedError`. Words queued then stay in the session, unanswered: they
 * reach the model with the next prompt.
 */
import { quitBy, type SeedingTui, startTmux } from "../../../certify-kit/tmux.ts";
import { storeWatch } from "../../../certify-kit/store-watch.ts";
import { mainSessions, messageText, type RecordedMessage, recordedMessages } from "./recorded.ts";

export interface OpencodeTuiOptions {
  bin: string;
  /** The opencode.db the TUI records into (env must name its data folder). */
  database: string;
  cwd: string;
  env: Record<string, string>;
}

const TURN_TIMEOUT_MS = 90_000;
/** The empty input box of a new session, shown once OpenCode has started. */
const READY = (s: string) => s.includes("Ask anything");
/** While the agent works, the status line offers Esc to interrupt it. */
const BUSY = (s: string) => /esc (again to )?interrupt/.test(s);
const ABORTED = "MessageAbortedError";

/** OpenCode's TUI: what every seeding TUI does, and the two presses of Esc that interrupt a running turn. */
export interface OpencodeTui extends SeedingTui {
  /** Presses Esc, waits until the TUI asks for it again, and presses it again. */
  interrupt(): Promise<void>;
}

export async function startOpencodeTui(opts: OpencodeTuiOptions): Promise<OpencodeTui> {
  const before = new Set(mainSessions(opts.database));
  const pane = startTmux({
    command: opts.bin,
    args: [],
    cwd: opts.cwd,
    env: { ...opts.env, TERM: "xterm-256color" },
  });
  try {
    await pane.waitForScreen(READY, "OpenCode's input box", TURN_TIMEOUT_MS);
  } catch (error) {
    pane.close();
    throw error;
  }

  let session: string | undefined;
  const messages = (): RecordedMessage[] => {
    session ??= mainSessions(opts.database).find((id) => !before.has(id));
    return session ? recordedMessages(opts.database, session) : [];
  };
  const { recorded, ask } = storeWatch(pane, {
    who: "OpenCode",
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
        (all) =>
          all.some((m) =>
              m.parts.some((p) => p.call?.status === "running" && p.call.command.includes(command))
            )
            ? true
            : undefined,
        `a running shell call to ${command}`,
        true,
      );
    },
    async waitForQueued(text) {
      await pane.waitForScreen(
        (s) => s.includes("QUEUED") && s.includes(text.slice(0, 40)),
        "the queued words on screen",
        TURN_TIMEOUT_MS,
      );
    },
    async interrupt() {
      pane.press("Escape");
      await pane.waitForScreen((s) => s.includes("esc again to interrupt"), "OpenCode to ask for Esc again");
      pane.press("Escape");
    },
    async waitForInterruption(queued) {
      await recorded((all) => {
        const aborted = all.findIndex((m) => m.role === "assistant" && m.error === ABORTED);
        return aborted >= 0 &&
            all.slice(aborted + 1).some((m) => m.role === "user" && messageText(m).includes(queued))
          ? true
          : undefined;
      }, "the interrupted turn recorded, the queued words after it");
    },
    sessionId() {
      messages();
      if (!session) throw new Error("OpenCode recorded no session");
      return session;
    },
    exit: () => quitBy(pane, "/exit", TURN_TIMEOUT_MS),
    close: () => pane.close(),
  };
}

/**
 * The answer of the turn whose user message holds `prompt`, once that turn has ended: the last message is an
 * assistant's, finished and not about to call tools (a tool turn's first message holds only the call); the
 * words of the last assistant message after the prompt that has any.
 */
function answerAfter(messages: RecordedMessage[], prompt: string): string | undefined {
  const asked = messages.findIndex((m) => m.role === "user" && messageText(m).includes(prompt));
  const last = messages.at(-1);
  if (asked < 0 || last?.role !== "assistant" || !last.completed || last.finish === "tool-calls") {
    return undefined;
  }
  const answer = messages.slice(asked + 1).findLast((m) => m.role === "assistant" && messageText(m).trim());
  return answer && messageText(answer).trim();
}
