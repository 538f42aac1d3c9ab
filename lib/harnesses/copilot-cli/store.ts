/**
 * Copilot CLI's store: everything that finds, reads or writes its session folders, around the pure codec.
 *
 *   list    list.ts      every session folder, named, placed and dated as Copilot's session list shows them
 *   read    read.ts      a session's events.jsonl (and its workspace.yaml), decoded (decode.ts), its live
 *                        thread streamed once it is large (streamed.ts)
 *   render  render.ts    the IR as the events 1.0.102 writes (encode.ts)
 *   plan    register.ts  the session folder (events.jsonl, workspace.yaml) and the index rows
 *                        (session-index.ts), as a plan value whose commit() publishes them
 */
import type { StoreAccess } from "../types.ts";
export { listCopilot } from "./list.ts";
export { openCopilotSession, readCopilotSession } from "./read.ts";
export { planCopilot } from "./register.ts";
export { renderCopilot } from "./render.ts";
import { openCopilotSession, readCopilotSession } from "./read.ts";
import { renderCopilot } from "./render.ts";
import { planCopilot } from "./register.ts";
import { configuredCopilotModel } from "./settings.ts";

/** What the descriptor's store loads on first use (lib/harnesses/lazy-store.ts). */
export const access: StoreAccess = {
  read: readCopilotSession,
  open: openCopilotSession,
  render: (session, options) => renderCopilot(session, options),
  plan: planCopilot,
  configuredModel: configuredCopilotModel,
};
