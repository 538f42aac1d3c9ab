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

/**
 * The disk (or the user's quota) ran out while writing `where`. What was being written is rolled back by the
 * ordinary failure paths (the transaction, the temp file), so the message says only what is wrong. Exit code 1.
 */
export class DiskFullError extends RefusedError {
  override name = "DiskFullError";
  constructor(readonly where: string) {
    super(`the disk is full: no space left to write ${where}`);
  }
}

/** ENOSPC and EDQUOT from a file write: the disk is full. */
export function isDiskFull(error: unknown): boolean {
  const code = errnoCode(error);
  return code === "ENOSPC" || code === "EDQUOT";
}

/**
 * The error's errno name (ENOSPC, EFBIG, ...): Node and Bun set `code`; Deno's node:fs throws a write on a
 * descriptor as a bare "File too large (os error 27)", the system's own words, known here for these three.
 */
export function errnoCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  const words = /^(.+) \(os error \d+\)$/.exec(messageOf(error))?.[1];
  return words === undefined ? undefined : OS_WORDS[words];
}

const OS_WORDS: Record<string, string> = {
  "File too large": "EFBIG",
  "No space left on device": "ENOSPC",
  "Disk quota exceeded": "EDQUOT",
};

/**
 * A write past the size limit the process was given (`ulimit -f`; the write fails with EFBIG once SIGXFSZ is
 * ignored, as Bun does). Like a full disk, rolled back by the ordinary failure paths. Exit code 1.
 */
export class FileTooLargeError extends RefusedError {
  override name = "FileTooLargeError";
  constructor(readonly where: string) {
    super(`${where}: the file would be larger than the limit allowed (ulimit -f)`);
  }
}

/**
 * What a failed write of `where` tells the user: a full disk or a size limit says so, naming the file (a write
 * on an open file's descriptor names none); anything else passes unchanged.
 */
export function writeFailure(error: unknown, where: string): unknown {
  if (isDiskFull(error)) return new DiskFullError(where);
  if (errnoCode(error) === "EFBIG") return new FileTooLargeError(where);
  return error;
}

/**
 * The one place an error nobody classified becomes what the user reads: a failure of the file system carries
 * the path it was about (EISDIR, ENOSPC, EACCES, ...), so it is named; anything else passes unchanged.
 */
export function classified(error: unknown): unknown {
  if (error instanceof InputError || error instanceof RefusedError || error instanceof InterruptedError) {
    return error;
  }
  const { path } = (error ?? {}) as { path?: unknown };
  const code = errnoCode(error);
  const where = typeof path === "string" ? path : undefined;
  if (isDiskFull(error) || code === "EFBIG") return writeFailure(error, where ?? "a file");
  if (code === "EISDIR" && where) return new InputError(`${where}: is a directory, not a file`);
  if (code === "ENOTDIR" && where) return new InputError(`${where}: a part of this path is not a directory`);
  if (code === "ELOOP" && where) return new LinkLoopError(where);
  if ((code === "EACCES" || code === "EPERM") && where) return new PermissionError(where);
  return error;
}

/**
 * A path that cannot be followed: a symbolic link on the way to it leads back to itself (ELOOP). Bad input,
 * like a folder where a file should be; `path` is what was followed (the link itself when a walk met it).
 */
export class LinkLoopError extends InputError {
  override name = "LinkLoopError";
  constructor(readonly path: string) {
    super(`${path}: too many symbolic links to follow (a link on the way leads back to itself)`);
  }
}

/** This user may not read or pass through `path` (EACCES, EPERM): a refusal naming it. */
export class PermissionError extends RefusedError {
  override name = "PermissionError";
  constructor(readonly path: string) {
    super(`${path}: permission denied`);
  }
}

/** What a file system error means, in words (a full disk says so). */
export function fileSystemReason(error: unknown): string {
  const code = errnoCode(error);
  const reasons: Record<string, string> = {
    ENOSPC: "the disk is full",
    EDQUOT: "the disk quota is used up",
    EROFS: "the file system is read-only",
    EACCES: "permission denied",
    EPERM: "permission denied",
    ENOTDIR: "a file is where a folder should be",
    EEXIST: "a file is where a folder should be",
    EISDIR: "a folder is where a file should be",
    EFBIG: "the file would be larger than the limit allowed (ulimit -f)",
  };
  return (code && reasons[code]) ?? messageOf(error);
}

/**
 * `<file>: <what happened>` for a file system failure: the path the error carries, else `file` (a write on an
 * open file carries none: "EFBIG: file too large, write").
 */
export function fileFailure(error: unknown, file: string): string {
  const own = (error as { path?: unknown } | null)?.path;
  return `${typeof own === "string" ? own : file}: ${fileSystemReason(error)}`;
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
