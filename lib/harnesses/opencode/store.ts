/**
 * OpenCode's store: everything that finds, reads or writes `opencode.db`, around the pure codec (codec.ts).
 *
 *   list    list.ts      every conversation of the database, titled and dated as OpenCode lists them
 *   read    read.ts      a session's rows (rows.ts), decoded (decode.ts)
 *   render  render.ts    the same rows as the file `opencode export` prints and `opencode import` reads
 *   plan    register.ts  the rows (encode.ts) for the database's schema, as a plan value whose commit() inserts
 *                        them in one transaction
 */
export { listOpenCode } from "./list.ts";
export { readOpenCodeSession } from "./read.ts";
export { planOpenCode } from "./register.ts";
export { renderOpenCode } from "./render.ts";
import type { StoreAccess } from "../types.ts";
import { openOpenCodeSession, readOpenCodeSession } from "./read.ts";
import { planOpenCode } from "./register.ts";
import { renderOpenCode } from "./render.ts";
import { configuredOpenCodeModel } from "./config.ts";

/** What the descriptor's store loads on first use (lib/harnesses/lazy-store.ts). */
export const access: StoreAccess = {
  read: readOpenCodeSession,
  open: openOpenCodeSession,
  render: renderOpenCode,
  plan: planOpenCode,
  configuredModel: configuredOpenCodeModel,
};
