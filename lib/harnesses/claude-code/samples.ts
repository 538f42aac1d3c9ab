/**
 * Sessions the real Claude Code wrote, one per captured version, copied once from fixtures/ (each names its
 * fixture in `source`), so the binary carries no test fixture: what the demo and `certify --structure-only`
 * replay.
 */
import captured from "./samples.json" with { type: "json" };
import type { Sample } from "../../samples.ts";

export const samples: readonly Sample[] = captured;
