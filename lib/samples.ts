/**
 * The sample sessions embedded in the binary, one per harness and version, for the demo and `certify
 * --structure-only`. They live in lib/demo/samples/sessions.json, copied once from sessions the real harnesses
 * wrote (each names its fixture in `source`), so the binary carries no test fixture and editing fixtures/ never
 * changes what the demo replays.
 */
import samples from "./demo/samples/sessions.json" with { type: "json" };
import { compareVersions } from "./schemas/compare.ts";

export interface Sample {
  harness: string;
  version: string;
  /** The captured fixture it was copied from, e.g. `fixtures/codex/0.169.0/tool-call.jsonl`. */
  source: string;
  lines: string[];
}

const SAMPLES = samples as Sample[];

/**
 * The sample a harness `version` wrote, else the newest one captured from an older version, else the oldest;
 * without a version, the newest.
 */
export function sampleFor(harness: string, version?: string): Sample {
  const own = SAMPLES.filter((s) => s.harness === harness)
    .sort((a, b) => compareVersions(a.version, b.version));
  const found = version === undefined
    ? own.at(-1)
    : own.findLast((s) => compareVersions(s.version, version) <= 0) ?? own[0];
  if (!found) throw new Error(`no embedded sample session for ${harness}`);
  return found;
}
