/**
 * Writing `convert -o` and `export` files under an intent (lib/store/intent.ts OutputIntent): the file is
 * published whole (lib/io/publish.ts), and a kill while it is filled leaves an intent that tells recovery
 * which hidden temp file is this run's debris, by its process id, so no look-alike file is ever touched.
 */
import { fileSystemReason, RefusedError } from "../errors.ts";
import { newUuid } from "../ids.ts";
import { fileStamp, type OutputIntent, removeIntent, thisProcess, writeIntent } from "../store/intent.ts";

export interface Output {
  command: OutputIntent["command"];
  source: { harness: string; id: string };
  target: { harness: string; id: string; path: string };
  /** Files in session-bridge's own folder written along with it (provenance). */
  sidecars?: string[];
}

/**
 * Runs `work` (publishing the file, and saving its provenance) under the output's intent: written before, removed
 * after, whether `work` succeeds or fails (a failure cleans up after itself; only a kill leaves the intent).
 */
export async function withOutputIntent<T>(
  bridgeHome: string,
  output: Output,
  now: Date,
  work: () => Promise<T>,
): Promise<T> {
  const before = fileStamp(output.target.path);
  const intent: OutputIntent = {
    kind: "output",
    op: newUuid(),
    at: now.toISOString(),
    ...thisProcess(),
    ...output,
    ...(before ? { before } : {}),
  };
  try {
    writeIntent(bridgeHome, intent);
  } catch (error) {
    throw new RefusedError(`cannot write in ${bridgeHome} (${fileSystemReason(error)}); nothing was written`);
  }
  try {
    return await work();
  } finally {
    removeIntent(bridgeHome, intent);
  }
}
