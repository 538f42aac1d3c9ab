/**
 * Sessions the real Gemini CLI wrote, one per captured version, copied once from fixtures/ (each names its
 * fixture in `source`), so the binary carries no test fixture: what `certify --structure-only` replays.
 */
import captured from "./samples.json" with { type: "json" };
import type { Sample } from "../../samples.ts";

export const samples: readonly Sample[] = captured;
