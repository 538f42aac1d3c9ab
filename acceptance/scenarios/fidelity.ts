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

/**
 * The interrupted-queued fixture to Codex, resumed there with a new turn, then to Hermes and resumed: the
 * request Hermes sends carries the queued words once, as the user's, before the turn typed in Codex.
 */
async function queuedHandedTwice(work: string, bridge: Bridge): Promise<string[]> {
  const fixture = claudeFixture("interrupted-queued");
  const [queued] = (await readClaudeSession(fixture)).pending.queuedInput;
  if (!queued) return ["the fixture has no queued message"];
  const codex = await startTarget("codex", join(work, "codex"));
  const hermes = await startTarget("hermes", join(work, "hermes"));
  try {
    const cwd = project(work, "queued");
    const typed = "Typed in Codex after the first hop.";
    const first = bridge.handoff([fixture, "--to", "codex", "--cwd", cwd, ...codex.homeFlags]);
    const inCodex = await codex.resume(cwd, first.id, typed);
    const reasons = inCodex.ok ? [] : [`codex exec resume failed: ${inCodex.detail}`];
    const second = bridge.handoff([
      first.id,
      "--from",
      "codex",
      "--to",
      "hermes",
      "--cwd",
      cwd,
      ...codex.homeFlags,
      ...hermes.homeFlags,
    ]);
    const inHermes = await hermes.resume(cwd, second.id, "Please continue.");
    if (!inHermes.ok) reasons.push(`hermes chat --resume failed: ${inHermes.detail}`);
    const messages = (hermes.requests().at(-1)?.messages ?? []) as { role?: string; content?: unknown }[];
    // Hermes joins adjacent user messages into one: places are compared in the request's text.
    const sent = JSON.stringify(messages);
    const [words, turn] = [JSON.stringify(queued.text).slice(1, -1), JSON.stringify(typed).slice(1, -1)];
    const times = occurrences(sent, words);
    if (times !== 1) reasons.push(`the queued words were sent ${times} times, expected once`);
    const holder = messages.find((m) => JSON.stringify(m.content ?? "").includes(words));
    if (holder && holder.role !== "user") reasons.push(`the queued words were sent as ${holder.role}`);
    if (occurrences(sent, turn) !== 1) reasons.push("the turn typed in Codex was not sent once");
    else if (sent.indexOf(words) > sent.indexOf(turn)) {
      reasons.push("the queued words were sent after the turn typed in Codex");
    }
    return reasons;
  } finally {
    await codex.close();
    await hermes.close();
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
      await step(
        "claude-code -> codex -> hermes: a queued prompt never sent keeps its place, once",
        () => queuedHandedTwice(work, bridge),
      ),
    ];
    return results.every(Boolean) ? 0 : 1;
  });
}

if (import.meta.main) process.exitCode = await main();
