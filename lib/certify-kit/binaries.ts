/**
 * A harness binary on PATH and the version it reports (certify, doctor and `run` ask). `--version` runs in a
 * throwaway home, so asking never touches the user's stores.
 */
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { definedEnv, spawnCollect, tail } from "./spawn.ts";

/** Where a harness keeps its home: its variable and its folder under the user's home (a HomeSpec). */
interface HomeVariable {
  env: string;
  folder: string;
}

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
  homes: readonly HomeVariable[] = [],
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
    // Stdout first; else stderr, where Pi prints it when stdin is no terminal (it keeps stdout for answers).
    const version = r.code === 0 ? parseVersion(r.stdout) ?? parseVersion(r.stderr) : undefined;
    if (!version) {
      throw new Error(`${bin} --version gave no version (exit ${r.code}): ${tail(r.stderr || r.stdout)}`);
    }
    return version;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
