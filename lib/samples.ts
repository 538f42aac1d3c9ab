/**
 * The sample sessions embedded in the binary, for the demo and `certify --structure-only`: each harness keeps
 * its own (`samples.json` in its folder, copied once from sessions the real harness wrote, each naming its
 * fixture in `source`), so the binary carries no test fixture and editing fixtures/ never changes what the
 * demo replays. Here: which of a harness's samples stands for a version.
 */
import { compareVersions } from "./schemas/compare.ts";

export interface Sample {
  harness: string;
  version: string;
  /** The captured fixture it was copied from, e.g. `fixtures/<harness>/<version>/tool-call.jsonl`. */
  source: string;
  lines: string[];
}

/**
 * The sample of `samples` (one harness's) that `version` wrote, else the newest one captured from an older
 * version, else the oldest; without a version, the newest.
 */
export function sampleFor(samples: readonly Sample[], version?: string): Sample {
  const own = [...samples].sort((a, b) => compareVersions(a.version, b.version));
  const found = version === undefined
    ? own.at(-1)
    : own.findLast((s) => compareVersions(s.version, version) <= 0) ?? own[0];
  if (!found) throw new Error("no embedded sample session to choose from");
  return found;
}
