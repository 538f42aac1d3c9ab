/**
 * How far a long step has got (reading a transcript, writing a file, backing up or registering in a store).
 * Lower layers say what they do and how far they are; the front end decides whether and how it is shown (the
 * CLI on a terminal's stderr only, the TUI on its status line: lib/io/progress-display.ts), and library
 * callers may listen or not. With no listener, a step costs nothing.
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

let listener: ProgressListener | undefined;

/**
 * Installs the listener (one per process, as the CLI runs one command); `undefined` removes it. Returns the
 * one it replaces, for a caller that shows progress for a while (the TUI) to put back.
 */
export function onProgress(handler: ProgressListener | undefined): ProgressListener | undefined {
  const previous = listener;
  listener = handler;
  return previous;
}

export interface ProgressStep {
  /** `done` so far (of `total`, when it became known). */
  advance(done: number, total?: number): void;
  finish(): void;
}

const SILENT: ProgressStep = { advance() {}, finish() {} };

/** Starts a step; its updates go to the listener installed now. */
export function startProgress(what: string, unit: ProgressUnit, total?: number): ProgressStep {
  const to = listener;
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
