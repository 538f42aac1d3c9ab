/**
 * Pi's store: everything that finds, reads or writes its session files, around the pure codec (codec.ts).
 *
 *   list    list.ts      every project folder's session files, titled and dated as `pi -r` lists them
 *   read    read.ts      a session file's tree, its live branch decoded (decode.ts)
 *   render  (writer)     the IR as the entries 0.73.1 writes
 *   plan    (writer)     the session file under the directory's project folder, as a plan value
 */
import type { StoreAccess } from "../types.ts";
import { InputError } from "../../errors.ts";
import { readPiSession } from "./read.ts";

const notYet = (what: string) => (): never => {
  throw new InputError(`Pi: ${what} is not built yet`);
};

/** What the descriptor's store loads on first use (lib/harnesses/lazy-store.ts). */
export const access: StoreAccess = {
  read: readPiSession,
  render: notYet("rendering a session"),
  plan: notYet("a handoff into Pi"),
  configuredModel: () => undefined,
};
