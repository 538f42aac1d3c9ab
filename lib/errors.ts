/**
 * The two kinds of failure the CLI distinguishes. Every error that reaches the user is one of these, so the
 * entry point can map it to one stderr line and a documented exit code without guessing.
 */

/** Bad usage or bad input: unknown flag, malformed file, unsafe id. Exit code 2. */
export class InputError extends Error {
  override name = "InputError";
  /** The CLI's exit code for it (library callers may use it the same way). */
  readonly exitCode = 2;
}

/** A well-formed request we will not or could not carry out: target exists, store refuses. Exit code 1. */
export class RefusedError extends Error {
  override name = "RefusedError";
  /** The CLI's exit code for it (library callers may use it the same way). */
  readonly exitCode = 1;
}

/** A termination signal (Ctrl-C, kill) stopped a write before it was committed; everything was rolled back. */
export class InterruptedError extends Error {
  override name = "InterruptedError";
  constructor(readonly signal: InterruptSignal) {
    super(`interrupted by ${signal}: nothing was changed`);
  }
}

export type InterruptSignal = "SIGINT" | "SIGTERM" | "SIGHUP";

/** The shell's convention: 128 plus the signal's number. */
export const SIGNAL_EXIT: Record<InterruptSignal, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

export const EXIT_OK = 0;
export const EXIT_REFUSED = 1;
export const EXIT_INPUT = 2;

export function exitCodeFor(error: unknown): number {
  if (error instanceof InterruptedError) return SIGNAL_EXIT[error.signal];
  return error instanceof InputError ? EXIT_INPUT : EXIT_REFUSED;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
