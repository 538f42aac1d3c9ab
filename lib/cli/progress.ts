/**
 * Progress of long steps on a terminal's stderr (what lib/io/progress-display.ts says to show): one line,
 * redrawn in place (also between the step's own updates, its time passing), cleared when its step ends.
 */
import {
  type ProgressDisplay,
  type ProgressTracker,
  progressTracker,
  type Ticker,
} from "../io/progress-display.ts";

const CLEAR = "\r\u001b[K";

/**
 * Draws the steps on `write` (stderr); `now` is the clock in milliseconds; `ticker`, when given, redraws the
 * latest step between its updates (TIMER_TICKER for a person watching).
 */
export function progressRenderer(
  display: ProgressDisplay,
  write: (text: string) => void,
  now?: () => number,
  ticker?: Ticker,
): ProgressTracker {
  return progressTracker(
    display,
    (line) => write(line === undefined ? CLEAR : `${CLEAR}${line}`),
    now,
    ticker,
  );
}
