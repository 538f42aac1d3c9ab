/**
 * Named points of a store write where a power cut or a `kill -9` leaves the most to clean up: after the intent is
 * written, after a backup, after a publish's temp file is filled, after a file is published, after rows are
 * committed, after the commit, after the ledger entry; in an undo also after a file is removed and after one is
 * put back from its backup. Nothing happens there in normal runs; the crash tests
 * (tests/crash-recovery.test.ts, campaigns/crash-test.ts) install a hook that kills the process outright at one of
 * them, so recovery is proven against the exact states a kill leaves.
 */
export type CrashPoint =
  | "intent-written"
  | "backup-taken"
  | "temp-written"
  | "chunk-written"
  | "file-published"
  | "rows-committed"
  | "committed"
  | "ledger-written"
  | "file-removed"
  | "file-restored";

let hook: ((point: CrashPoint) => void) | undefined;

export function crashPoint(point: CrashPoint): void {
  hook?.(point);
}

/** Whether a test hook is installed on this thread (a worker writing for it relays its points here). */
export function crashHookInstalled(): boolean {
  return hook !== undefined;
}

/** Installs the test hook (one per thread: a worker thread has its own); `undefined` removes it. */
export function onCrashPoint(handler: ((point: CrashPoint) => void) | undefined): void {
  hook = handler;
}
