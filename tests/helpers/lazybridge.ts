/**
 * The real LazyBridge (PyPI `lazybridge` 1.8.3) for compatibility tests, in its private venv under
 * ~/.cache/session-bridge/venvs. Without a usable python the tests skip with one clear line; on CI
 * (SESSION_BRIDGE_CI=1) a missing python is a failure, since the compatibility proof must run there.
 */
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import process from "node:process";
import { pythonAvailable, referenceVenv } from "../../acceptance/python-venv.ts";

export const LAZYBRIDGE_VERSION = "1.8.3";
const DRIVER = fileURLToPath(new URL("./lazybridge-registry.py", import.meta.url));

/** The venv's python, or the reason the LazyBridge tests skip. */
export function lazybridgePython(): { python: string } | { skip: string } {
  if (!pythonAvailable()) {
    const reason = "python3 (3.11 or newer) is absent: the LazyBridge compatibility tests cannot run";
    if (process.env.SESSION_BRIDGE_CI === "1") throw new Error(`${reason} (required on CI)`);
    console.log(`skipped: ${reason}`);
    return { skip: reason };
  }
  return { python: referenceVenv("lazybridge", LAZYBRIDGE_VERSION) };
}

export type RegistryOp = (string | number | null)[];

export interface DriverResult {
  results: unknown[];
  warnings: string[];
}

function request(path: string, ops: RegistryOp[], now?: string): string {
  return JSON.stringify({ path, now: now ?? null, ops });
}

/** Runs `ops` through LazyBridge's SessionRegistry on `path` (timestamps frozen at `now` when given). */
export function lazybridgeOps(
  python: string,
  path: string,
  ops: RegistryOp[],
  { now, env }: { now?: string; env?: Record<string, string> } = {},
): DriverResult {
  const r = spawnSync(python, [DRIVER], {
    input: request(path, ops, now),
    encoding: "utf8",
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) throw new Error(`LazyBridge driver failed (${r.status}): ${r.stderr}`);
  return JSON.parse(r.stdout) as DriverResult;
}

/** The same, started in the background (for contention runs). */
export function lazybridgeOpsAsync(python: string, path: string, ops: RegistryOp[]): Promise<DriverResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [DRIVER], { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve(JSON.parse(out) as DriverResult);
      else reject(new Error(`LazyBridge driver failed (${code}): ${err}`));
    });
    child.stdin.end(request(path, ops));
  });
}
