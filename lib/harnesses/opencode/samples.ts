/**
 * Sessions the real OpenCode wrote, one per captured version, copied once from fixtures/ (each names its fixture
 * in `source`), so the binary carries no test fixture: what `certify --structure-only` replays. OpenCode keeps
 * sessions as database rows; the sample is the file its own `opencode export` printed of one, which the reader
 * reads as it reads the rows.
 */
import captured from "./samples.json" with { type: "json" };
import type { Sample } from "../../samples.ts";

export const samples: readonly Sample[] = captured;
