/** The captured sessions embedded in the binary (see scripts/generate.ts), one per harness and version. */
import samples from "./generated/samples.json" with { type: "json" };
import type { HarnessName } from "./ir/schema.ts";
import { compareVersions } from "./schemas/compare.ts";

export interface Sample {
  harness: HarnessName;
  version: string;
  /** The fixture it was generated from, e.g. `fixtures/codex/0.169.0/tool-call.jsonl`. */
  source: string;
  lines: string[];
}

const SAMPLES = samples as Sample[];

/**
 * The sample a harness `version` wrote, else the newest one captured from an older version, else the oldest;
 * without a version, the newest.
 */
export function sampleFor(harness: HarnessName, version?: string): Sample {
  const own = SAMPLES.filter((s) => s.harness === harness)
    .sort((a, b) => compareVersions(a.version, b.version));
  const found = version === undefined
    ? own.at(-1)
    : own.findLast((s) => compareVersions(s.version, version) <= 0) ?? own[0];
  if (!found) throw new Error(`no embedded sample session for ${harness}`);
  return found;
}
