/**
 * Codex's store: everything that finds, reads or writes rollouts and the `threads` index, around the pure
 * codec (codec.ts).
 *
 *   list    list.ts      rollouts under `sessions/` and `archived_sessions/`, with what the index says of them
 *   load    read.ts      a rollout streamed into the codec, plus the name only the index keeps
 *   render  render.ts    the Codex to write for detected in the home (target.ts); a Codex source read to copy
 *   plan    register.ts  the rollout's path and its row fitted to the newest `state_N.sqlite`, as a plan value
 *                        whose commit() publishes the file and inserts the row (refusals: ../refuse.ts)
 */
export { indexedName, listCodex } from "./list.ts";
export { newestStateDb, rolloutFiles, rolloutPath } from "./locate.ts";
export { openCodexSession, readCodexSession } from "./read.ts";
export { renderCodex, rolloutLines } from "./render.ts";
export { planCodex } from "./register.ts";
export { defaultTarget, detectTarget } from "./target.ts";
import type { StoreAccess } from "../types.ts";
import { openCodexSession, readCodexSession } from "./read.ts";
import { renderCodex } from "./render.ts";
import { planCodex } from "./register.ts";
import { configuredCodexModel } from "./config.ts";
export { configuredCodexModel };

/** What the descriptor's store loads on first use (lib/harnesses/lazy-store.ts). */
export const access: StoreAccess = {
  read: readCodexSession,
  open: openCodexSession,
  render: renderCodex,
  plan: planCodex,
  configuredModel: configuredCodexModel,
};
