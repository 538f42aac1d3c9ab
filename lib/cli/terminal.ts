/**
 * Whether a person is at the other end, and a way to ask them. A command that would act on a guess (`undo`
 * without an operation picks the newest) asks first when stdin and stdout are both terminals, and otherwise
 * demands to be told. The entry point brings the process's terminal; an in-process run (a test, a program
 * driving the CLI) has none unless it passes one.
 */
import { writeSync } from "node:fs";
import { terminalText } from "../io/control-characters.ts";
import { isTerminal } from "../io/is-terminal.ts";
import { type ProgressDisplay, SHOWN_AFTER_MS } from "../io/progress-display.ts";

export interface Terminal {
  /** stdin and stdout are both terminals: someone can read a question and answer it. */
  interactive: boolean;
  /** Shows `question` (no newline after it) and resolves with the line typed, or null at end of input. */
  ask(question: string): Promise<string | null>;
  /** stderr is a terminal: long steps show their progress there (absent: nothing is shown). */
  progress?: ProgressDisplay;
  /** Which of stdout (1) and stderr (2) is a terminal, where colour may be shown (absent: neither). */
  isTerminal?(fd: 1 | 2): boolean;
  /** stdout's width in columns, when stdout is a terminal. */
  columns?: number;
}

/** No one to ask: scripts, pipes, CI, in-process runs. */
export const NO_TERMINAL: Terminal = { interactive: false, ask: () => Promise.resolve(null) };

/**
 * This process's terminal: someone to ask if stdin and stdout both are one; progress if stderr is one. Asked
 * of the system when a command first wants to know, not before: `--version` never does, `--help` asks for the
 * width. Each descriptor is asked as lib/io/is-terminal.ts asks (a pipe without node:tty), not through
 * process.stdin and process.stdout, whose streams cost Bun some 20 ms to make.
 */
export function processTerminal(): Terminal {
  let found: Terminal | undefined;
  const terminal = () => (found ??= detectTerminal());
  return {
    get interactive() {
      return terminal().interactive;
    },
    ask: (question) => terminal().ask(question),
    get progress() {
      return terminal().progress;
    },
    isTerminal: (fd) => terminal().isTerminal?.(fd) ?? false,
    get columns() {
      return terminal().columns;
    },
  };
}

function detectTerminal(): Terminal {
  // Asked once each: what a descriptor is does not change while the process runs. stdin only matters when
  // stdout is a terminal too (someone to ask).
  const terminals = { 1: isTerminal(1), 2: isTerminal(2) };
  const progress = terminals[2] ? { progress: { afterMs: SHOWN_AFTER_MS } } : {};
  // stdout's stream is made only on a terminal, where its width is wanted (it costs Bun some 20 ms).
  const screen = {
    isTerminal: (fd: 1 | 2) => terminals[fd],
    ...(terminals[1] && process.stdout.columns > 0 ? { columns: process.stdout.columns } : {}),
  };
  if (!terminals[1] || !isTerminal(0)) return { ...NO_TERMINAL, ...progress, ...screen };
  return { interactive: true, ask: askOnStdin, ...progress, ...screen };
}

async function askOnStdin(question: string): Promise<string | null> {
  // Loaded on demand: a question is rare, and start-up pays nothing for it.
  const { createInterface } = await import("node:readline");
  writeSync(1, terminalText(question));
  const lines = createInterface({ input: process.stdin, terminal: false });
  try {
    for await (const line of lines) return line;
    return null;
  } finally {
    lines.close();
  }
}

/** An answer that means yes: `y` or `yes`, in any case; anything else (an empty line, end of input) is no. */
export function isYes(answer: string | null): boolean {
  return answer !== null && /^\s*y(?:es)?\s*$/i.test(answer);
}
