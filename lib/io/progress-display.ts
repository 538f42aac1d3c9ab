/**
 * Which long step a person sees, and as what line: what it does, how far it is and how long it has taken. A
 * step shows only once it has run `afterMs` (a second on a real terminal: short steps stay silent), at most
 * ten redraws a second per step, and nothing once it ends. The CLI draws the line on stderr
 * (lib/cli/progress.ts), the TUI in its status line.
 */
import type { ProgressListener, ProgressUpdate } from "./progress.ts";
import { terminalField } from "./control-characters.ts";

const REDRAW_MS = 100;

/** A step shows its progress once it has run this long, for a person: a quicker one shows nothing. */
export const SHOWN_AFTER_MS = 1000;

export interface ProgressDisplay {
  /** How long a step runs before it is shown. */
  afterMs: number;
}

export interface ProgressTracker {
  listener: ProgressListener;
  /** Drops the line shown for a step that has not finished (before an error or notice takes its place). */
  clear(): void;
  /**
   * Redraws the latest step with the time it has taken, if it is due: a step that works long between two
   * updates (one big statement in a store) still shows it is at work, and what it is.
   */
  tick(): void;
}

/** Calls `tick` every so often until the returned function is called. */
export type Ticker = (tick: () => void) => () => void;

/** What ticks the tracker while a step runs: a timer that keeps no process alive. */
export const TIMER_TICKER: Ticker = (tick) => {
  // node:timers' own (under Deno too, where it can be unref'd); loaded here, not at start-up.
  const { setInterval, clearInterval } = process.getBuiltinModule("node:timers");
  const timer = setInterval(tick, 250);
  timer.unref();
  return () => clearInterval(timer);
};

/**
 * Tells `show` the line to show, or undefined when there is none any more; `now` is the clock in
 * milliseconds. Steps may overlap (a copy reads its source while it writes the target): the line shows the
 * one that reported last.
 */
export function progressTracker(
  display: ProgressDisplay,
  show: (line: string | undefined) => void,
  now: () => number = () => performance.now(),
  ticker?: Ticker,
): ProgressTracker {
  const steps = new Map<string, { since: number; drawn: number; last: ProgressUpdate }>();
  /** The step whose line is shown, if any, and the one that reported last. */
  let shown: string | undefined;
  let latest: string | undefined;
  let stopTicking: (() => void) | undefined;
  const clear = () => {
    if (shown !== undefined) show(undefined);
    shown = undefined;
  };
  const draw = (what: string) => {
    const step = steps.get(what);
    const at = now();
    if (!step || at - step.since < display.afterMs || at - step.drawn < REDRAW_MS) return;
    step.drawn = at;
    shown = what;
    show(progressLine(step.last, at - step.since));
  };
  const listener = (update: ProgressUpdate) => {
    if (update.finished) {
      steps.delete(update.what);
      if (!steps.size) {
        stopTicking?.();
        stopTicking = undefined;
      }
      // Only the shown step's end takes its line away: a quick step that overlapped it was never shown.
      return update.what === shown ? clear() : undefined;
    }
    const step = steps.get(update.what);
    if (step) step.last = update;
    else steps.set(update.what, { since: now(), drawn: -Infinity, last: update });
    latest = update.what;
    if (ticker && !stopTicking) stopTicking = ticker(() => latest !== undefined && draw(latest));
    draw(update.what);
  };
  return {
    listener,
    clear: () => {
      stopTicking?.();
      stopTicking = undefined;
      clear();
    },
    tick: () => latest !== undefined && steps.has(latest) ? draw(latest) : undefined,
  };
}

/** `reading /x/s.jsonl: 35.0 of 70.0 MB (50%), 1.4 s`. */
export function progressLine(update: ProgressUpdate, elapsedMs: number): string {
  const amount = (n: number) => update.unit === "bytes" ? (n / 1048576).toFixed(1) : String(n);
  const unit = update.unit === "bytes" ? "MB" : update.unit;
  const far = update.total === undefined
    ? `${amount(update.done)} ${unit}`
    : `${amount(update.done)} of ${amount(update.total)} ${unit} (${
      Math.floor(update.done * 100 / Math.max(update.total, 1))
    }%)`;
  return `${terminalField(update.what)}: ${far}, ${(elapsedMs / 1000).toFixed(1)} s`;
}
