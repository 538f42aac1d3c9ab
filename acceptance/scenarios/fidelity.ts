/**
 * Live rows for what a person expects to find after a handoff, each resumed offline by the real binary:
 *
 * - a copy into another directory: a Claude Code session (the interactive fixture, which records its
 *   environment) copied Claude Code → Claude Code with `--cwd` elsewhere; passes when the request the resumed
 *   Claude Code sends names the new directory and never the old one;
 * - a queued prompt never sent, handed twice: the interrupted-queued fixture to Codex, resumed there with a
 *   new turn, then to Hermes; passes when the request Hermes sends carries the queued words once, before the
 *   turn typed in Codex.
 *
 * Usage: npx bun acceptance/scenarios/fidelity.ts [--binary dist/session-bridge]   (exit 1 on any FAIL)
 */
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { readClaudeSession } from "../../lib/harnesses/claude-code/read.ts";
import { binaryArg, type Bridge, bridgeCli, claudeFixture, step, withWork } from "./live.ts";
import { startTarget } from "./targets.ts";

function project(work: string, name: string): string {
  mkdirSync(join(work, name));
  return realpathSync(join(work, name));
}

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

/** Claude Code → Claude Code into another directory: the resumed request says only the new one. */
async function copyElsewhere(work: string, bridge: Bridge): Promise<string[]> {
  const fixture = claudeFixture("interactive");
  const old = (await readClaudeSession(fixture)).meta.cwd!;
  const claude = await startTarget("claude-code", join(work, "claude"));
  try {
    const cwd = project(work, "elsewhere");
    const written = bridge.handoff([fixture, "--to", "claude-code", "--cwd", cwd, ...claude.homeFlags]);
    const resumed = await claude.resume(cwd, written.id, "Which directory are you working in?");
    const reasons = resumed.ok ? [] : [`claude --resume failed: ${resumed.detail}`];
    const sent = JSON.stringify(claude.requests().at(-1) ?? {});
    if (!sent.includes(cwd)) reasons.push(`the request never names the new directory ${cwd}`);
    const stale = occurrences(sent, `${old}"`) + occurrences(sent, `${old}\\n`) +
      occurrences(sent, `${old}/`);
    if (stale) reasons.push(`the request names the old directory ${old} ${stale} time(s)`);
    return reasons;
  } finally {
    await claude.close();
  }
}

async function main(): Promise<number> {
  const binary = binaryArg();
  return await withWork("sb-fidelity-", async (work) => {
    const bridge = bridgeCli(binary, join(work, "bridge"));
    const results = [
      await step(
        "claude-code -> claude-code --cwd elsewhere: the resumed request names only the new directory",
        () => copyElsewhere(work, bridge),
      ),
    ];
    return results.every(Boolean) ? 0 : 1;
  });
}

if (import.meta.main) process.exitCode = await main();
