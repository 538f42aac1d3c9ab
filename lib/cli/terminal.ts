/**
 * Whether a person is at the other end, and a way to ask them. A command that would act on a guess (`undo`
 * without an operation picks the newest) asks first when stdin and stdout are both terminals, and otherwise
 * demands to be told. The entry point brings the process's terminal; an in-process run (a test, a program
 * driving the CLI) has none unless it passes one.
 */
import { writeSync } from "node:fs";
import { terminalText } from "../io/control-characters.ts";

export interface Terminal {
  /** stdin and stdout are both terminals: someone can read a question and answer it. */
  interactive: boolean;
  /** Shows `question` (no newline after it) and resolves with the line typed, or null at end of input. */
  ask(question: string): Promise<string | null>;
}

/** No one to ask: scripts, pipes, CI, in-process runs. */
export const NO_TERMINAL: Terminal = { interactive: false, ask: () => Promise.resolve(null) };

/** This process's terminal, if stdin and stdout both are one. */
export function processTerminal(): Terminal {
  if (!process.stdin.isTTY || !process.stdout.isTTY) return NO_TERMINAL;
  return { interactive: true, ask: askOnStdin };
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
