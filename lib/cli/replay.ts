/**
 * The `handoff` command line that carries out a dry run's plan exactly. The library returns the plan's
 * choices as data (HandoffReplay); the flags they become are the CLI's to say, here, for the CLI's own plan
 * and for the TUI's (which the CLI hands this to).
 */
import type { HandoffReplay } from "../pipeline/handoff.ts";
import type { Registry } from "../harnesses/registry.ts";
import { shellQuote } from "../io/shell.ts";

export function handoffCommandLine(replay: HandoffReplay, registry: Registry): string {
  const words = ["session-bridge", "handoff", replay.session, "--to", replay.to];
  if (replay.from !== undefined) words.push("--from", replay.from);
  words.push("--cwd", replay.cwd, "--session-id", replay.sessionId);
  if (replay.title !== undefined) words.push("--title", replay.title);
  if (replay.model !== undefined) words.push("--model", replay.model);
  if (replay.force) words.push("--force");
  if (!replay.backup) words.push("--no-backup");
  if (!replay.handshake) words.push("--no-handshake");
  if (!replay.stubOpenCalls) words.push("--no-stub-open-calls");
  if (replay.permissions === "keep") words.push("--permissions", "keep");
  if (replay.fit !== undefined) words.push("--fit", String(replay.fit));
  if (replay.context !== undefined) words.push("--context", String(replay.context));
  if (replay.summarizeWith !== undefined) words.push("--summarize-with", replay.summarizeWith);
  for (const { harness, home } of replay.homes) {
    const flag = registry.harnesses.find((h) => h.name === harness)?.home.flag;
    // The replay is of a plan made over this registry: each of its homes is a registered harness's.
    if (flag !== undefined) words.push(`--${flag}`, home);
  }
  return words.map(shellQuote).join(" ");
}
