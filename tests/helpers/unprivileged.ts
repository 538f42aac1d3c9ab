/**
 * The CLI as a user file permissions bind. Root reads through a mode of 000 and writes into a read-only folder,
 * so a test of what an unreadable or read-only store does runs the CLI as `nobody` when this process is root
 * (through setpriv), and as this process's own user otherwise; when neither can be done it says why, for the
 * test to skip with that reason.
 */
import { spawnSync } from "node:child_process";
import { chownSync, lchownSync, lstatSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { scriptArgv } from "../../lib/runtime.ts";
import type { CliResult } from "./cli.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));
/** The uid and gid of `nobody` on Debian and most Linux systems. */
const NOBODY = 65534;
const SETPRIV = ["setpriv", `--reuid=${NOBODY}`, `--regid=${NOBODY}`, "--clear-groups"];

const isRoot = (): boolean => process.getuid?.() === 0;

export interface Unprivileged {
  /** Runs the CLI with `env` (over this process's environment) as the unprivileged user. */
  cli(args: string[], env: Record<string, string>): CliResult;
  /** Makes `dir` and everything under it that user's, so it can read and change what the test sets up. */
  own(dir: string): void;
}

/**
 * The way to run the CLI unprivileged here, or why there is none (the reason a test skips with). `cli` runs the
 * CLI: main.ts, unless given (a campaign's entry knowing harnesses not built in).
 */
export function unprivileged(cli: readonly string[] = scriptArgv(MAIN)): Unprivileged | string {
  if (!isRoot()) return { cli: (args, env) => spawnCli([...cli], args, env), own: () => {} };
  const probe = spawnSync(SETPRIV[0]!, [...SETPRIV.slice(1), ...cli, "--version"], {
    encoding: "utf8",
  });
  if (probe.error || probe.status !== 0) {
    return `running as root, and the CLI cannot be run as nobody (uid ${NOBODY}) through setpriv here: ` +
      (probe.error?.message ?? probe.stderr.trim());
  }
  return { cli: (args, env) => spawnCli([...SETPRIV, ...cli], args, env), own: ownedByNobody };
}

function spawnCli(command: readonly string[], args: string[], env: Record<string, string>): CliResult {
  const [bin, ...pre] = command;
  const r = spawnSync(bin!, [...pre, ...args], {
    encoding: "utf8",
    env: { ...process.env, SESSION_BRIDGE_DEBUG: "", ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** `dir`, what is under it and the folders above it up to the temp root made the test's user's (or passable). */
function ownedByNobody(dir: string): void {
  const walk = (path: string): void => {
    // The link itself, not what it leads to: a test's links may loop.
    lchownSync(path, NOBODY, NOBODY);
    if (lstatSync(path).isDirectory()) { for (const name of readdirSync(path)) walk(join(path, name)); }
  };
  walk(dir);
  // The private temp folder holding `dir` (mode 0700): nobody must be able to pass through it.
  chownSync(dirname(dir), NOBODY, NOBODY);
}
