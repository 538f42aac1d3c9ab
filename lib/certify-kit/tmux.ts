/**
 * Drives an interactive harness TUI the way a person does: in a tmux pane on a private tmux server (its own
 * socket, so closing it touches no other tmux), typing text, pressing keys, reading the screen. Every harness
 * driver's `seedInteractive` / `seedInterrupted` uses this one module.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface TmuxStart {
  /** The program to run in the pane and its arguments (no shell in between). */
  command: string;
  args: string[];
  cwd: string;
  /** The program's whole environment (tmux's own server environment does not leak into it). */
  env: Record<string, string>;
  /** Pane size; wide enough by default that prompts and answers are not wrapped mid-word. */
  columns?: number;
  rows?: number;
}

/** A key name tmux understands (`Enter`, `Escape`, `C-c`, `Up`, `BSpace`, ...). */
export type TmuxKey = string;

export interface TmuxPane {
  /** Types text literally (no key names are interpreted). */
  type(text: string): void;
  /** Presses keys, in order. */
  press(...keys: TmuxKey[]): void;
  /**
   * Types a prompt and presses Enter once its words show: sent in the same burst, a TUI may take the Enter as
   * part of a paste and leave the prompt unsent.
   */
  submit(prompt: string): Promise<void>;
  /** The visible screen, as plain text. */
  screen(): string;
  /** Everything the pane has shown, the lines scrolled off the top included, as plain text. */
  history(): string;
  /** Whether the program in the pane has exited (the pane stays, so its last screen can be read). */
  exited(): boolean;
  /** Waits until `test` holds on the screen (a pattern, or a function of the screen), or throws after timeout. */
  waitForScreen(
    test: RegExp | ((screen: string) => boolean),
    what: string,
    timeoutMs?: number,
  ): Promise<string>;
  /** Waits until the program has exited, or throws after timeout. */
  waitForExit(timeoutMs?: number): Promise<void>;
  /** Stops this private tmux server (and so the program, if still running) and removes its socket. */
  close(): void;
}

const POLL_MS = 200;
const DEFAULT_TIMEOUT_MS = 60_000;

/** Polls `check` until it returns a value other than undefined, or throws naming `what` after the timeout. */
export async function waitUntil<T>(
  check: () => T | undefined,
  what: string,
  timeoutMs = DEFAULT_TIMEOUT_MS,
  describe: () => string = () => "",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) {
      const detail = describe();
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail ? `: ${detail}` : ""}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export function startTmux(opts: TmuxStart): TmuxPane {
  // A short private folder: a unix socket path must stay under ~100 bytes.
  const dir = mkdtempSync(join(tmpdir(), "sb-tmux-"));
  const socket = join(dir, "s");
  const target = "tui:0.0";
  const tmux = (...args: string[]): string => {
    const r = spawnSync("tmux", ["-S", socket, ...args], { encoding: "utf8", env: tmuxEnv(opts.env) });
    if (r.error) throw new Error(`tmux ${args[0]}: ${r.error.message}`);
    if (r.status !== 0) throw new Error(`tmux ${args[0]} failed: ${r.stderr.trim()}`);
    return r.stdout;
  };
  // `-f /dev/null`: no user tmux.conf. `env -i` so the program gets exactly `opts.env`.
  tmux(
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    "tui",
    "-x",
    String(opts.columns ?? 200),
    "-y",
    String(opts.rows ?? 50),
    "-c",
    opts.cwd,
    "env",
    "-i",
    ...Object.entries(opts.env).map(([k, v]) => `${k}=${v}`),
    opts.command,
    ...opts.args,
  );
  // Keep the pane after the program exits, so its exit and last screen can be read.
  tmux("set-option", "-t", "tui", "remain-on-exit", "on");
  let closed = false;

  const pane: TmuxPane = {
    type: (text) => void tmux("send-keys", "-t", target, "-l", text),
    press: (...keys) => {
      for (const key of keys) tmux("send-keys", "-t", target, key);
    },
    submit: async (prompt) => {
      pane.type(prompt);
      await pane.waitForScreen((s) => s.includes(prompt.slice(0, 40)), "the typed prompt on screen", 10_000);
      pane.press("Enter");
    },
    screen: () => tmux("capture-pane", "-p", "-t", target),
    history: () => tmux("capture-pane", "-p", "-S", "-", "-t", target),
    exited: () => tmux("display-message", "-p", "-t", target, "#{pane_dead}").trim() === "1",
    waitForScreen: (test, what, timeoutMs) =>
      waitUntil(
        () => {
          const screen = pane.screen();
          return (typeof test === "function" ? test(screen) : test.test(screen)) ? screen : undefined;
        },
        what,
        timeoutMs,
        () => lastLines(pane.screen()),
      ),
    waitForExit: async (timeoutMs) => {
      await waitUntil(
        () => pane.exited() || undefined,
        "the program to exit",
        timeoutMs,
        () => lastLines(pane.screen()),
      );
    },
    close: () => {
      if (closed) return;
      closed = true;
      spawnSync("tmux", ["-S", socket, "kill-server"], { env: tmuxEnv(opts.env) });
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return pane;
}

/** Leaves a TUI as a person does, by its own command (`/quit`, `/exit`), and waits for it to end. */
export async function quitBy(pane: TmuxPane, command: string, timeoutMs: number): Promise<void> {
  await pane.submit(command);
  await pane.waitForExit(timeoutMs);
  pane.close();
}

/** tmux itself needs only a PATH and a terminal type; never the caller's TMUX (it would nest). */
function tmuxEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: env.PATH ?? "/usr/local/bin:/usr/bin:/bin", TERM: "xterm-256color", LANG: "C.UTF-8" };
}

/** The screen's last non-empty lines, for a one-line timeout reason. */
function lastLines(screen: string, n = 6): string {
  return screen.split("\n").map((l) => l.trimEnd()).filter((l) => l !== "").slice(-n).join(" | ");
}

/**
 * A harness's interactive TUI driven in a tmux pane to seed a session as a person types it: what certify's
 * interactive and interrupted seedings ask of every driver whose TUI records as it goes.
 */
export interface SeedingTui {
  pane: TmuxPane;
  /** Types a prompt, submits it, and waits for its turn's answer in the session's store; returns the answer. */
  ask(prompt: string): Promise<string>;
  /** Types a prompt and submits it without waiting (e.g. while the agent is busy: the TUI queues it). */
  submit(prompt: string): Promise<void>;
  /** Waits until a shell call running `command` shows (on screen or in the store) with no result yet. */
  waitForRunningCommand(command: string): Promise<void>;
  /** Waits until `text` shows as queued (typed while the agent was busy). */
  waitForQueued(text: string): Promise<void>;
  /** Waits until the running turn is recorded as interrupted (and the `queued` words, sent after it, answered). */
  waitForInterruption(queued: string): Promise<void>;
  /** The session the TUI records into (known once its first prompt is recorded). */
  sessionId(): string;
  /** Leaves the TUI as a person does and waits for the program to end. */
  exit(): Promise<void>;
  close(): void;
}
