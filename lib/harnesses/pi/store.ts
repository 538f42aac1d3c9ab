/**
 * Pi's store: everything that finds, reads or writes its session files, around the pure codec (codec.ts).
 *
 *   list    list.ts      every project folder's session files, titled and dated as `pi -r` lists them
 *   read    read.ts      a session file's tree, its live branch decoded (decode.ts); streamed when it is large
 *   render  render.ts    the IR as the entries 0.73.1 writes (encode.ts)
 *   plan    register.ts  the session file under the directory's project folder, as a plan value whose
 *                        commit() publishes it
 *   model   settings.ts  the model Pi's settings name (defaultProvider/defaultModel)
 */
export { listPi } from "./list.ts";
export { openPiSession, readPiSession } from "./read.ts";
export { renderPi } from "./render.ts";
export { planPi } from "./register.ts";
import type { StoreAccess } from "../types.ts";
import { openPiSession, readPiSession } from "./read.ts";
import { renderPi } from "./render.ts";
import { planPi } from "./register.ts";
import { configuredPiModel } from "./settings.ts";

/** What the descriptor's store loads on first use (lib/harnesses/lazy-store.ts). */
export const access: StoreAccess = {
  read: readPiSession,
  open: openPiSession,
  render: renderPi,
  plan: planPi,
  configuredModel: configuredPiModel,
};
