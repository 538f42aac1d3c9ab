/**
 * Gemini CLI's store: everything that finds, reads or writes its session files, around the pure codec
 * (codec.ts).
 *
 *   list    list.ts      every project folder's session files, titled and dated as the CLI lists them
 *   read    read.ts      a log (or legacy .json) and its subagents' logs into the codec, a large log's live
 *                        thread streamed (streamed.ts)
 *   render  render.ts    the IR as the records 0.61.0 writes (encode.ts), a Gemini source copied (copy.ts)
 *   plan    register.ts  the session file under the directory's project slug, the project registered
 *                        (projects.ts), as a plan value whose commit() publishes them
 */
export { listGemini } from "./list.ts";
export { sessionFiles, subagentFiles } from "./locate.ts";
export { openGeminiSession, readGeminiSession } from "./read.ts";
export { renderGemini } from "./render.ts";
export { planGemini } from "./register.ts";
import type { StoreAccess } from "../types.ts";
import { openGeminiSession, readGeminiSession } from "./read.ts";
import { renderGemini } from "./render.ts";
import { planGemini } from "./register.ts";
import { configuredGeminiModel } from "./settings.ts";
export { configuredGeminiModel };

/** What the descriptor's store loads on first use (lib/harnesses/lazy-store.ts). */
export const access: StoreAccess = {
  read: readGeminiSession,
  open: openGeminiSession,
  render: renderGemini,
  plan: planGemini,
  configuredModel: configuredGeminiModel,
};
