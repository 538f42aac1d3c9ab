/** Where the stores are: what every pipeline request (load, convert, export, handoff) is given by its caller. */
import type { Homes } from "../harnesses/types.ts";
import type { Registry } from "../harnesses/registry.ts";
import type { BrokenStore } from "../harnesses/stores.ts";
import type { NamedSessions } from "../aliases/named.ts";

export interface StoresRequest {
  /** The harnesses known (default: the built-in ones). */
  registry?: Registry;
  /** Every registered harness's home, by harness name. */
  homes: Homes;
  /** session-bridge's own folder: backups, the undo ledger, tool provenance. */
  bridgeHome: string;
  /**
   * Called for each store that could not be searched when it might have changed the answer, as soon as that
   * is known (before anything else happens), so a CLI can warn in order.
   */
  onSkipped?: (store: BrokenStore) => void;
  /** The alias registry and the folder whose names `@NAME` means (default: `@NAME` is refused). */
  named?: NamedSessions;
}
