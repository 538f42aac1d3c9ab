/** What a command reports when a termination signal arrived after its changes were committed. */
import { receivedSignal } from "../io/interrupt.ts";
import { SIGNAL_EXIT } from "../errors.ts";
import type { Output } from "./output.ts";

/** The exit code to use: the command's own, or the signal's when one arrived after the commit. */
export function exitAfterSignals(code: number, what: string, output: Output): number {
  const signal = receivedSignal();
  if (!signal) return code;
  output.err(`session-bridge: ${signal} arrived after the ${what} was committed: it is complete`);
  return SIGNAL_EXIT[signal];
}
