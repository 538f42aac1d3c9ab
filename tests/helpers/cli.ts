/** Runs the real CLI in a child process under the current runtime, as a user would. */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../../lib/runtime.ts";
import { tempDir } from "./tmp.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
/** Backups and the undo ledger of test runs stay out of the real home. */
const BRIDGE_HOME = tempDir("sb-bridge-home-");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI; `cwd` is the directory it starts in (relative flags and variables resolve against it). */
export function cli(args: string[], env: Record<string, string> = {}, cwd?: string): CliResult {
  const [bin, ...pre] = scriptArgv(MAIN);
  const r = spawnSync(bin!, [...pre, ...args], {
    encoding: "utf8",
    ...(cwd ? { cwd } : {}),
    env: { ...process.env, SESSION_BRIDGE_DEBUG: "", SESSION_BRIDGE_HOME: BRIDGE_HOME, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

export function cliJson(
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): CliResult & { json: Record<string, unknown> } {
  const r = cli([...args, "--json"], env, cwd);
  return { ...r, json: JSON.parse(r.stdout) as Record<string, unknown> };
}
