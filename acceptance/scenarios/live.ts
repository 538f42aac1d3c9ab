/**
 * Plumbing shared by the live scenario scripts: the session-bridge CLI (the compiled binary with --binary, else
 * main.ts under the current runtime) with a private SESSION_BRIDGE_HOME, the pinned Claude fixtures, and one
 * PASS/FAIL line per checked step.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { scriptArgv } from "../../lib/runtime.ts";
import { pinnedVersion } from "../install-harness.ts";

const MAIN = fileURLToPath(new URL("../../main.ts", import.meta.url));

export function claudeFixture(name: string): string {
  return fileURLToPath(
    new URL(`../../fixtures/claude-code/${pinnedVersion("claude-code")}/${name}.jsonl`, import.meta.url),
  );
}

export interface Bridge {
  /** Runs `handoff ... --json` and returns the written session; throws with the CLI's stderr on failure. */
  handoff(args: string[]): { id: string; path: string };
}

/**
 * The CLI for one scenario run. Its own home keeps backups, the undo ledger and tool provenance out of the
 * user's, and is shared by every hop of the run (an exact hop back needs the first hop's provenance).
 */
export function bridgeCli(binary: string | undefined, home: string): Bridge {
  const [bin, ...pre] = binary ? [binary] : scriptArgv(MAIN);
  return {
    handoff(args) {
      const r = spawnSync(bin!, [...pre, "handoff", ...args, "--json"], {
        encoding: "utf8",
        env: { ...process.env, SESSION_BRIDGE_HOME: home },
      });
      if (r.status !== 0) throw new Error(`handoff failed (exit ${r.status}): ${r.stderr.trim()}`);
      return (JSON.parse(r.stdout) as { target: { id: string; path: string } }).target;
    },
  };
}

/** `--binary PATH`: the compiled session-bridge to test (CI passes dist/session-bridge). */
export function binaryArg(): string | undefined {
  const { values } = parseArgs({ options: { binary: { type: "string" } } });
  return values.binary ? realpathSync(values.binary) : undefined;
}

/** A private scratch folder for one script run, removed afterwards. */
export async function withWork<T>(prefix: string, run: (work: string) => Promise<T>): Promise<T> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await run(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Runs one checked step: PASS when it returns no reasons. Prints one line (reasons indented below). */
export async function step(name: string, check: () => Promise<string[]>): Promise<boolean> {
  const started = performance.now();
  let reasons: string[];
  try {
    reasons = await check();
  } catch (error) {
    reasons = [error instanceof Error ? error.message : String(error)];
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`${reasons.length ? "FAIL" : "PASS"} ${name} (${seconds} s)`);
  for (const r of reasons) console.log(`    ${r}`);
  return reasons.length === 0;
}
