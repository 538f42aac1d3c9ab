/**
 * Sessions the real Pi wrote, one per captured version, copied once from fixtures/ (each names its fixture in
 * `source`), so the binary carries no test fixture: what `certify --structure-only` replays. The sample is the
 * one-shot session that calls each of Pi's four default tools (bash, read, edit, write), with reasoning.
 */
import captured from "./samples.json" with { type: "json" };
import type { Sample } from "../../samples.ts";

export const samples: readonly Sample[] = captured;
