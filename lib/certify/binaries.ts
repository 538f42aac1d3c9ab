/**
 * Which harness binaries certify runs: the ones named by flags, else the first of each on PATH, each with the
 * version it reports.
 */
import { findOnPath, reportedVersion } from "../certify-kit/binaries.ts";
import type { HarnessId } from "../certify-kit/driver.ts";
import type { HarnessBinary } from "./types.ts";
import type { Harness } from "../harnesses/types.ts";

/**
 * The binary of each harness certify can drive: `explicit[name]` when given, else its command on PATH. A
 * harness that is not found is left out, with the reason, so its pairs are reported as skipped, not failed.
 */
export async function locateBinaries(
  harnesses: readonly Harness[],
  explicit: Partial<Record<HarnessId, string>>,
  env: NodeJS.ProcessEnv,
): Promise<{ found: HarnessBinary[]; missing: Partial<Record<HarnessId, string>> }> {
  const found: HarnessBinary[] = [];
  const missing: Partial<Record<HarnessId, string>> = {};
  const homes = harnesses.map((h) => h.home);
  for (const { name, integrations: { certify } } of harnesses) {
    if (!certify) continue;
    const bin = explicit[name] ?? findOnPath(certify.command, env.PATH);
    if (!bin) {
      missing[name] = `${certify.command} not found on PATH`;
      continue;
    }
    try {
      found.push({ id: name, bin, version: await reportedVersion(bin, env, homes) });
    } catch (error) {
      missing[name] = error instanceof Error ? error.message : String(error);
    }
  }
  return { found, missing };
}
