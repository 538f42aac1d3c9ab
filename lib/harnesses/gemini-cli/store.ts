/**
 * Gemini CLI's store: everything that finds or reads its session files, around the pure codec (codec.ts).
 *
 *   list    list.ts    every project folder's session files, titled and dated as the CLI lists them
 *   read    read.ts    a log (or legacy .json) and its subagents' logs into the codec
 *   render, plan       the writer's (h-gwrite): stubs until it lands
 */
import type { StoreAccess } from "../types.ts";
import { readGeminiSession } from "./read.ts";
export { listGemini } from "./list.ts";
export { readGeminiSession };

/** STUB (h-gread): the writer side (render, plan) is h-gwrite's; they refuse until it lands. */
const writerNotYet = (what: string) => (): never => {
  throw new Error(`gemini-cli: ${what} not yet built (writer side)`);
};

/** What the descriptor's store loads on first use (lib/harnesses/lazy-store.ts). */
export const access: StoreAccess = {
  read: readGeminiSession,
  render: writerNotYet("render"),
  plan: writerNotYet("plan"),
  // Gemini CLI's settings.json names a model under `model.name`; the writer reads it when it plans.
  configuredModel: () => undefined,
};
