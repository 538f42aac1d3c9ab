/**
 * Sessions the real Copilot CLI wrote, one per captured version, copied once from fixtures/ (each names its
 * fixture in `source`), so the binary carries no test fixture: what `certify --structure-only` replays. The
 * sample is a session typed in the TUI: two prompts, the second running each of Copilot's own tools.
 */
import captured from "./samples.json" with { type: "json" };
import type { Sample } from "../../samples.ts";

export const samples: readonly Sample[] = captured;
