/**
 * Where a long command's time went on its own thread, phase by phase: told as one notice line when
 * SESSION_BRIDGE_DEBUG=1 (a write on a second thread tells its own: lib/store/write-thread.ts). With the two
 * lines a slow conversion or handoff shows which part to look at (issue 34's profile of both threads), with no
 * profiler. Otherwise it does nothing.
 */
import type { Feedback } from "./progress.ts";

export interface PhaseClock {
  /** Ends the phase running since the last mark (or the start): `phase` is what it did. */
  mark(phase: string): void;
  /** Tells the phases marked, in order, with the time each took. */
  tell(): void;
}

const SILENT: PhaseClock = { mark() {}, tell() {} };

export function phaseClock(env: NodeJS.ProcessEnv | undefined, feedback: Feedback | undefined): PhaseClock {
  const notice = feedback?.notice;
  if (env?.SESSION_BRIDGE_DEBUG !== "1" || !notice) return SILENT;
  const phases: string[] = [];
  let since = performance.now();
  return {
    mark(phase) {
      const now = performance.now();
      phases.push(`${phase} ${((now - since) / 1000).toFixed(2)} s`);
      since = now;
    },
    tell() {
      if (phases.length) notice(`this thread: ${phases.join(", ")}`);
    },
  };
}
