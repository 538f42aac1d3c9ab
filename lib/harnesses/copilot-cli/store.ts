/**
 * Copilot CLI's store: everything that finds, reads or writes its session folders, around the pure codec.
 *
 *   list    list.ts      every session folder, named, placed and dated as Copilot's session list shows them
 *   read    read.ts      a session's events.jsonl (and its workspace.yaml), decoded (decode.ts)
 *   render  (writer)     the IR as the events 1.0.102 writes
 *   plan    (writer)     the session folder and the index rows, as a plan value whose commit() publishes them
 */
import type { StoreAccess } from "../types.ts";
import { RefusedError } from "../../errors.ts";
import { readCopilotSession } from "./read.ts";

/** Until the writer lands: a clear refusal, never a half-written session. */
const notYet = (what: string) => () => {
  throw new RefusedError(`GitHub Copilot CLI: ${what} is not built yet`);
};

/** What the descriptor's store loads on first use (lib/harnesses/lazy-store.ts). */
export const access: StoreAccess = {
  read: readCopilotSession,
  render: notYet("writing a session"),
  plan: notYet("a handoff into it"),
  configuredModel: () => undefined,
};
