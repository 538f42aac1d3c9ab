/**
 * Which harness binaries certify runs: the ones named by flags, else the first of each on PATH, each with the
 * version it reports. `--version` runs in a throwaway home, so asking never touches the user's stores.
 */
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { definedEnv, spawnCollect, tail } from "./spawn.ts";
import type { HarnessBinary, HarnessId } from "./types.ts";
import type { Harness, HomeSpec } from "../harnesses/types.ts";

export function findOnPath(command: string, path = ""): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === "") continue;
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here.
    }
  }
  return undefined;
}

/** The first dotted version in what `<bin> --version` prints ("2.1.328 (Claude Code)", "codex-cli 0.169.0"). */
export function parseVersion(output: string): string | undefined {
  // From the first digit of a run only (the look-behind): a later start in the same run meets the same dot.
  return /(?<!\d)\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?/.exec(output)?.[0];
}

/**
 * What `<bin> --version` prints, run with every home (`homes`: each registered harness's) in a throwaway
 * folder, so asking never touches a store of the user's.
 */
export async function reportedVersion(
  bin: string,
  env: NodeJS.ProcessEnv,
  homes: readonly HomeSpec[] = [],
): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), "sb-certify-version-"));
  try {
    const r = await spawnCollect(bin, ["--version"], {
      cwd: home,
      env: {
        ...definedEnv(env),
        HOME: home,
        TMPDIR: home,
        ...Object.fromEntries(homes.map((h) => [h.env, join(home, h.folder)])),
      },
      timeoutMs: 60_000,
    });
    const version = r.code === 0 ? parseVersion(r.stdout) : undefined;
    if (!version) {
      throw new Error(`${bin} --version gave no version (exit ${r.code}): ${tail(r.stderr || r.stdout)}`);
    }
    return version;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

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
  for (const { name, certify } of harnesses) {
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
