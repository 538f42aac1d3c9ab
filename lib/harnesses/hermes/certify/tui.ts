/**
 * The interactive `hermes` TUI (prompt_toolkit, 0.19.0) driven through tmux the way a person uses it: wait for
 * the prompt, type, press Enter, watch the answer arrive. Hermes shows its state in the input line: `❯` when it
 * waits for the person, `⚕ ❯` while the agent works (and then Enter interrupts, `msg=interrupt`). Ctrl+C
 * cancels the running turn and keeps whatever was typed in the input line. The session id is in the banner.
 */
import { startTmux, type TmuxPane } from "../../../certify-kit/tmux.ts";

/** `Session: 20261201_023017_1cc147` in the welcome banner. */
const SESSION_LINE = /Session:\s+(\d{8}_\d{6}_[0-9a-f]{6})/;
const TURN_TIMEOUT_MS = 120_000;

export interface HermesTui {
  pane: TmuxPane;
  /** The id Hermes shows in its banner (the session the typed turns go to). */
  sessionId: string;
  /** Types a prompt, presses Enter, and waits until Hermes has answered and waits for input again. */
  submit(prompt: string): Promise<void>;
  /**
   * Types `prompt` (its shell call runs `command`), waits until that command is running, types `queued`
   * while it runs, presses Ctrl+C (Hermes cancels the call; the words stay in the input line), then presses
   * Enter to send them, and waits for the answer.
   */
  interruptWithQueued(prompt: string, command: string, queued: string): Promise<void>;
  /** Leaves the TUI with `/exit`, as a person does, and waits for Hermes to exit. */
  exit(): Promise<void>;
  close(): void;
}

/** The input line's state, from the screen's last lines. */
export function inputState(screen: string): "idle" | "busy" | "unknown" {
  const lines = screen.split("\n").map((l) => l.trimEnd()).filter((l) => l.trim() !== "");
  const input = lines.slice(-4).find((l) => /^(⚕ )?❯/.test(l.trimStart()));
  if (!input) return "unknown";
  return input.trimStart().startsWith("⚕") ? "busy" : "idle";
}

/** The first words of a prompt as Hermes echoes it (`● <prompt>`), short enough never to wrap. */
const echoOf = (prompt: string): string => `● ${prompt.slice(0, 40)}`;

export async function openHermesTui(
  exe: string,
  opts: { cwd: string; env: Record<string, string>; args?: string[] },
): Promise<HermesTui> {
  // A TUI needs a real terminal type; NO_COLOR and TERM=dumb (one-shot runs) would change what it draws.
  const { NO_COLOR: _noColor, ...env } = opts.env;
  const pane = startTmux({
    command: exe,
    args: opts.args ?? [],
    cwd: opts.cwd,
    env: { ...env, TERM: "xterm-256color" },
  });
  try {
    const banner = await pane.waitForScreen(
      (s) => SESSION_LINE.test(s) && inputState(s) === "idle",
      "the Hermes TUI to show its prompt",
      TURN_TIMEOUT_MS,
    );
    const sessionId = SESSION_LINE.exec(banner)![1]!;
    const waitIdleAfter = async (echo: string, what: string) => {
      await pane.waitForScreen((s) => s.includes(echo) && inputState(s) === "idle", what, TURN_TIMEOUT_MS);
    };
    return {
      pane,
      sessionId,
      async submit(prompt) {
        pane.type(prompt);
        pane.press("Enter");
        await waitIdleAfter(echoOf(prompt), `Hermes to answer ${JSON.stringify(prompt.slice(0, 40))}`);
      },
      async interruptWithQueued(prompt, command, queued) {
        pane.type(prompt);
        pane.press("Enter");
        // The terminal tool's live line: `💻 <first command> [+ N command]  (  1.2s)` while it runs.
        const running = `💻 ${command.split(/[;&|]/)[0]!.trim().slice(0, 16)}`;
        await pane.waitForScreen(
          (s) => s.includes(running) && inputState(s) === "busy",
          `the shell call ${JSON.stringify(command)} to be running`,
          TURN_TIMEOUT_MS,
        );
        pane.type(queued);
        await pane.waitForScreen((s) => s.includes(queued.slice(0, 40)), "the typed words to show");
        pane.press("C-c");
        await pane.waitForScreen(
          (s) => inputState(s) === "idle",
          "Hermes to cancel the running call",
          TURN_TIMEOUT_MS,
        );
        pane.press("Enter");
        await waitIdleAfter(echoOf(queued), "Hermes to answer the words typed while it ran");
      },
      async exit() {
        pane.type("/exit");
        pane.press("Enter");
        await pane.waitForExit(TURN_TIMEOUT_MS);
      },
      close: () => pane.close(),
    };
  } catch (e) {
    pane.close();
    throw e;
  }
}
