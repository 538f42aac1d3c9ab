/**
 * Copilot CLI's interactive TUI driven like a person would: `copilot --allow-all-tools` in a tmux pane (tools
 * run unasked, as the one-shot seeding allows them), the folder-trust question answered "Yes" (this session
 * only: nothing is remembered in config.json), prompts typed into its input box, each answer awaited in the
 * session's events.jsonl (what it recorded is what a handoff reads) and on the screen (the input box idle
 * again), and the TUI left with `/exit`.
 *
 * As 1.0.102 behaves (seen live): Enter while the agent works sends the words at once ("steering"), and while a
 * shell call runs that moves the call to the background and completes it; Ctrl+Q instead enqueues them (the
 * status line offers it as "enqueue" wherever the kitty keyboard protocol is off, as in tmux), shown under
 * "Queued (1)" and recorded only when sent, with delivery "queued". Esc arms the interrupt ("esc again to
 * interrupt"), a second Esc aborts the turn: the running call stays without a result, an `abort` event is
 * recorded, and the queued words then go out as a turn of their own.
 */
import { quitBy, type SeedingTui, startTmux } from "../../../certify-kit/tmux.ts";
import { storeWatch } from "../../../certify-kit/store-watch.ts";
import {
  answerAfter,
  type RecordedEvent,
  recordedEvents,
  recordedSessions,
  runningCall,
} from "./recorded.ts";
import { OFFLINE_FLAGS } from "./run.ts";

export interface CopilotTuiOptions {
  bin: string;
  /** The COPILOT_HOME the TUI records into (env must name it). */
  copilotHome: string;
  cwd: string;
  env: Record<string, string>;
}

const TURN_TIMEOUT_MS = 90_000;
/** The footer under an idle input box. */
const READY = (s: string) => s.includes("/ commands · ? help");
/** What the TUI asks first in a folder nobody trusted yet. */
const TRUST = (s: string) => s.includes("Confirm folder trust") && s.includes("Do you trust the files");
/** While the agent works (or waits for a shell), the status line offers two presses of Esc to interrupt. */
const BUSY = (s: string) => /esc (esc|again to) interrupt/.test(s);
/** The key that enqueues the typed words while the agent works (Ctrl+Enter where the kitty protocol is on). */
const ENQUEUE_KEY = "C-q";

/** Copilot's TUI: what every seeding TUI does, enqueuing words while busy, and the two presses of Esc. */
export interface CopilotTui extends SeedingTui {
  /** Types words and enqueues them (Ctrl+Q), as a person does who wants them sent after the running turn. */
  enqueue(text: string): Promise<void>;
  /** Presses Esc, waits until the TUI asks for it again, and presses it again. */
  interrupt(): Promise<void>;
}

export async function startCopilotTui(opts: CopilotTuiOptions): Promise<CopilotTui> {
  const before = new Set(recordedSessions(opts.copilotHome));
  const pane = startTmux({
    command: opts.bin,
    args: [...OFFLINE_FLAGS, "--allow-all-tools"],
    cwd: opts.cwd,
    env: { ...opts.env, TERM: "xterm-256color" },
  });
  try {
    const first = await pane.waitForScreen(
      (s) => TRUST(s) || READY(s),
      "Copilot's input box",
      TURN_TIMEOUT_MS,
    );
    if (TRUST(first)) {
      // The first choice, already selected: "Yes" for this session.
      pane.press("Enter");
      await pane.waitForScreen((s) => READY(s) && !TRUST(s), "the input box after the trust question");
    }
  } catch (error) {
    pane.close();
    throw error;
  }

  let session: string | undefined;
  const events = (): RecordedEvent[] => {
    session ??= recordedSessions(opts.copilotHome).find((id) => !before.has(id));
    return session ? recordedEvents(opts.copilotHome, session) : [];
  };
  const { recorded, ask } = storeWatch(pane, {
    who: "Copilot",
    messages: events,
    busy: BUSY,
    ready: READY,
    answerAfter,
    timeoutMs: TURN_TIMEOUT_MS,
  });

  return {
    pane,
    submit: (prompt) => pane.submit(prompt),
    ask,
    async enqueue(text) {
      pane.type(text);
      await pane.waitForScreen((s) => s.includes(text.slice(0, 40)), "the typed words on screen", 10_000);
      pane.press(ENQUEUE_KEY);
    },
    async waitForRunningCommand(command) {
      await recorded(
        (all) => runningCall(all, command) || undefined,
        `a running shell call to ${command}`,
        true,
      );
    },
    async waitForQueued(text) {
      await pane.waitForScreen(
        (s) => /Queued \(\d+\)/.test(s) && s.includes(text.slice(0, 40)),
        "the queued words on screen",
        TURN_TIMEOUT_MS,
      );
    },
    async interrupt() {
      pane.press("Escape");
      await pane.waitForScreen((s) => s.includes("esc again to interrupt"), "Copilot to ask for Esc again");
      pane.press("Escape");
    },
    async waitForInterruption(queued) {
      await recorded((all) => {
        const aborted = all.findIndex((e) => e.type === "abort");
        return aborted >= 0 ? answerAfter(all.slice(aborted + 1), queued) : undefined;
      }, "the aborted turn recorded and the queued words answered");
    },
    sessionId() {
      events();
      if (!session) throw new Error("Copilot CLI recorded no session");
      return session;
    },
    exit: () => quitBy(pane, "/exit", TURN_TIMEOUT_MS),
    close: () => pane.close(),
  };
}

/** A session's row in the Sessions tab: `❯` on the selected one, `●` on the session this TUI runs, else `○`. */
const SESSION_ROW = /^\s*(?:❯\s*)?([○●])\s/;

/**
 * Whether Copilot's own session list shows the session: the TUI's Sessions tab (Tab from the start screen),
 * searched for the id (`/`, then the id: the search matches ids, 1.0.102). Found is one row, of a session
 * other than the one the listing TUI itself started (marked `●`); "No matching sessions" is not found. That
 * TUI records nothing (no prompt) and is left with Esc and `/exit`.
 */
export async function listedInSessionsTab(opts: CopilotTuiOptions, sessionId: string): Promise<boolean> {
  const pane = startTmux({
    command: opts.bin,
    args: OFFLINE_FLAGS,
    cwd: opts.cwd,
    env: { ...opts.env, TERM: "xterm-256color" },
  });
  try {
    const first = await pane.waitForScreen(
      (s) => TRUST(s) || READY(s),
      "Copilot's input box",
      TURN_TIMEOUT_MS,
    );
    if (TRUST(first)) {
      pane.press("Enter");
      await pane.waitForScreen((s) => READY(s) && !TRUST(s), "the input box after the trust question");
    }
    pane.press("Tab");
    // The list takes keys once its footer offers them; "/" opens the search box. 1.0.102 heads its columns
    // (Session, Status, Modified, ...); 1.0.92 shows each session as two lines (its name, its folder), unheaded.
    await pane.waitForScreen(
      (s) => s.includes("/ search") && (/Session\s+Status\s+Modified/.test(s) || rowsOf(s).length > 0),
      "the Sessions tab",
    );
    pane.type("/");
    // Both filter as the id is typed: 1.0.102 shows `Search: <id>`, 1.0.92 `search: <id>` and its footer
    // `enter search · esc cancel`.
    await pane.waitForScreen(
      (s) => s.includes("Search:") || s.includes("enter search"),
      "the search box of the Sessions tab",
    );
    pane.type(sessionId);
    const screen = await pane.waitForScreen(
      (s) =>
        (s.includes(`Search: ${sessionId}`) || s.includes(`search: ${sessionId}`)) &&
        (s.includes("No matching sessions") || rowsOf(s).length === 1),
      "the Sessions tab searched for the session",
    );
    return !screen.includes("No matching sessions") && rowsOf(screen)[0] === "○";
  } finally {
    pane.close();
  }
}

function rowsOf(screen: string): string[] {
  return screen.split("\n").flatMap((line) => SESSION_ROW.exec(line)?.[1] ?? []);
}
