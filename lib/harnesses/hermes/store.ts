/**
 * Hermes's store: everything that finds, reads or writes `state.db` (and its legacy files), around the pure
 * codec (codec.ts).
 *
 *   list    list.ts      sessions of the home and of every profile (profiles.ts), from their state.db
 *   load    read.ts      a session's rows (source.ts: a database, an export line, a snapshot, a transcript),
 *                        decoded by the codec; a large database session's live thread streamed
 *   render  render.ts    a `sessions export` line, with the model the target's config.yaml routes to
 *   plan    register.ts  the rows fitted to the database's schema generation (database.ts), as a plan value
 *                        whose commit() inserts them in one transaction (refusals: ../refuse.ts)
 */
export { listHermes } from "./list.ts";
export { activeHome, configPath, hermesHomes, stateDbPath } from "./profiles.ts";
export { openHermesSession, readHermesSession } from "./read.ts";
export { loadSource, sameHarnessSource } from "./source.ts";
export { renderHermes } from "./render.ts";
export { planHermes } from "./register.ts";
import { dirname } from "node:path";
import type { StoreAccess } from "../types.ts";
import { openHermesSession, readHermesSession } from "./read.ts";
import { renderHermes } from "./render.ts";
import { planHermes } from "./register.ts";
import { configuredHermesModel } from "./config.ts";
import { gatewayRefusal } from "./gateway.ts";
export { configuredHermesModel };

/** What the descriptor's store loads on first use (lib/harnesses/lazy-store.ts). */
export const access: StoreAccess = {
  read: readHermesSession,
  open: openHermesSession,
  render: renderHermes,
  plan: planHermes,
  configuredModel: configuredHermesModel,
  // An undo writes state.db as a handoff does: never beside a running gateway.
  soleWriter: (database, env) => gatewayRefusal(dirname(database), env, "undo"),
};
