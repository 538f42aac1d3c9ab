/**
 * The rows of a certify run's report: which binaries ran, which routes, and how each fared. The drivers'
 * contract (modes, sentinels' shapes, the harness under test) is lib/certify-kit/driver.ts.
 */
import type { HarnessId, Mode } from "../certify-kit/driver.ts";

/** A harness binary certify will run, and the version it reports. */
export interface HarnessBinary {
  id: HarnessId;
  bin: string;
  version: string;
}

/**
 * How the source session is seeded, as people make sessions: one-shot runs (`-p`, `exec`, `-q`), typed into
 * the interactive TUI, or typed and interrupted (a long tool call cancelled, a message queued meanwhile).
 */
export type SeedStyle = "exec" | "interactive" | "interrupted";
export const SEED_STYLES: readonly SeedStyle[] = ["exec", "interactive", "interrupted"];

/**
 * One route through the matrix: a session seeded in `hops[0]` in `style`, handed to each later hop in turn
 * and resumed there with a new typed turn before it is handed on (A → B, or A → B → C: handed off twice).
 */
export interface Route {
  style: SeedStyle;
  hops: HarnessId[];
}

export type Outcome = "pass" | "fail" | "skip";

/** One row of the report: a route up to one of its stops (A → B, then A → B → C). */
export interface PairResult {
  style: SeedStyle;
  /** The harnesses in hop order, ending at the one resumed for this row. */
  hops: HarnessId[];
  mode: Mode;
  /** Version of each harness in the row. */
  versions: Partial<Record<HarnessId, string>>;
  outcome: Outcome;
  /** Why it failed or was skipped; each names what is missing. */
  reasons: string[];
  /** Findings that did not fail the row (drift under --allow-drift). */
  notes: string[];
  seconds: number;
}

/** What a certify run found: every row, and whether all passed. */
export interface CertifyReport {
  ok: boolean;
  mode: Mode;
  harnesses: HarnessBinary[];
  results: PairResult[];
  seconds: number;
}
