/** Where the stores are: what every pipeline request (load, convert, export, handoff) is given by its caller. */
import type { Harness, Homes, ReadOptions } from "../harnesses/types.ts";
import { findHarness, type Registry } from "../harnesses/registry.ts";
import type { BrokenStore } from "../harnesses/stores.ts";
import type { NamedSessions } from "../aliases/named.ts";
import type { ReadLimits } from "../io/jsonl.ts";
import type { Feedback } from "../io/progress.ts";

/** The limits a request carries, as library callers name them (lib/mod.ts). */
export { DEFAULT_READ_LIMITS, type ReadLimits, readLimitsFrom } from "../io/jsonl.ts";
/** What a request may be told while it works, as library callers name it (lib/mod.ts). */
export type { Feedback, ProgressListener, ProgressUpdate } from "../io/progress.ts";

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
  /**
   * This call's entry has recovered what a crash interrupted in `bridgeHome` already (the CLI does, once per
   * command, before any store is read), so a handoff or an undo does not look again. Absent, it recovers first.
   */
  recovered?: boolean;
  /**
   * The longest record and the size from which a session streams, for every session this call reads (the CLI
   * reads them from its environment once, at its entry). Default: DEFAULT_READ_LIMITS.
   */
  limits?: ReadLimits;
  /**
   * Where this call's long steps report how far they are, and a wait a person should know about is said (the
   * CLI: its stderr on a terminal; the TUI: its status line). Default: nowhere.
   */
  feedback?: Feedback;
}

/** The read options a request makes (none given: the store's defaults, nothing reported). */
export const readOptionsOf = (
  { limits, feedback }: Pick<StoresRequest, "limits" | "feedback">,
): ReadOptions => ({
  ...(limits ? { limits } : {}),
  ...(feedback ? { feedback } : {}),
});

/**
 * A harness as a library caller names it: the descriptor itself (what the CLI resolved from its flag, so it is
 * not looked up again), or a name or alias looked up in the registry once, where the request enters.
 */
export type HarnessRef = Harness | string;

export const harnessOf = (registry: Registry, ref: HarnessRef): Harness =>
  typeof ref === "string" ? findHarness(registry, ref) : ref;
