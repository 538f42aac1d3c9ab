/**
 * Progress of long steps on a terminal's stderr (what lib/io/progress-display.ts says to show): one line,
 * redrawn in place, cleared when its step ends.
 */
import { type ProgressDisplay, type ProgressTracker, progressTracker } from "../io/progress-display.ts";

const CLEAR = "\r\u001b[K";

/** Draws the steps on `write` (stderr); `now` is the clock in milliseconds. */
export function progressRenderer(
  display: ProgressDisplay,
  write: (text: string) => void,
  now?: () => number,
): ProgressTracker {
  return progressTracker(display, (line) => write(line === undefined ? CLEAR : `${CLEAR}${line}`), now);
}
