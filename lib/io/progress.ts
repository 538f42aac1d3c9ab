/**
 * How far a long step has got (reading a transcript, writing a file, backing up or registering in a store),
 * and what a person should know while a command waits. Lower layers say what they do and how far they are;
 * the caller of the call decides whether and how it is shown (the CLI on a terminal's stderr only, the TUI on
 * its status line: lib/io/progress-display.ts) by the Feedback it passes down, and library callers may pass
 * none. With no listener, a step costs nothing.
 */

/** What a step counts: bytes of a file, rows of a store, or pages of a database being copied. */
export type ProgressUnit = "bytes" | "rows" | "pages";

export interface ProgressUpdate {
  /** What the step does, with the file or store it works on ("reading /x/s.jsonl"). */
  what: string;
  unit: ProgressUnit;
  /** How much is done, in `unit`. */
  done: number;
  /** How much there is in all, when known. */
  total?: number;
  /** Set on the step's last update. */
  finished?: boolean;
}

export type ProgressListener = (update: ProgressUpdate) => void;

/**
 * What a call tells whoever started it while it works: given with the call (the CLI makes one per command,
 * the TUI its own), never set for the process, so two calls in one process each report to their own caller.
 */
export interface Feedback {
  /** Where long steps report; absent, they cost nothing. */
  progress?: ProgressListener;
  /** Where a wait a person should know about is said (a store locked by a running harness); absent, nowhere. */
  notice?: (line: string) => void;
}

export interface ProgressStep {
  /** `done` so far (of `total`, when it became known). */
  advance(done: number, total?: number): void;
  finish(): void;
}

const SILENT: ProgressStep = { advance() {}, finish() {} };

/** Starts a step; its updates go to `feedback`'s progress listener, if it has one. */
export function startProgress(
  feedback: Feedback | undefined,
  what: string,
  unit: ProgressUnit,
  total?: number,
): ProgressStep {
  const to = feedback?.progress;
  if (!to) return SILENT;
  let last = { what, unit, done: 0, ...(total === undefined ? {} : { total }) };
  to(last);
  let finished = false;
  return {
    advance(done, total = last.total) {
      last = { what, unit, done, ...(total === undefined ? {} : { total }) };
      to(last);
    },
    finish() {
      if (finished) return;
      finished = true;
      to({ ...last, finished: true });
    },
  };
}
