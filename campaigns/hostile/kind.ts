/** What every hostile campaign is: cases run one by one in a fresh world, each giving what it found. */
import type { Random } from "../fuzz/random.ts";
import type { Finding } from "./invariants.ts";
import type { Cast } from "./world.ts";

export interface CaseResult {
  /** What the case did, for its report line (`same id into codex`). */
  label: string;
  /** How the command under test ended (`refused`, `landed`), counted in the summary. */
  outcome: string;
  findings: Finding[];
}

export interface CampaignKind {
  /** Why the campaign cannot run on this machine (a case of it is then skipped, not failed); undefined: it can. */
  unavailable(cast: Cast): string | undefined;
  /** How many cases cover each of its placements over `cast`'s harnesses once: its default count. */
  cases(cast: Cast): number;
  /**
   * Case `index` over `cast`'s harnesses, in a fresh private folder `root` (removed after), its choices drawn
   * from `random`.
   */
  run(root: string, cast: Cast, index: number, random: Random): Promise<CaseResult>;
}
