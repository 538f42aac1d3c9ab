/**
 * Claude Code's store: everything that finds, reads or writes its files, around the pure codec (codec.ts).
 *
 *   list    locate.ts    transcripts under `<home>/projects/<bucket>/`, summarized
 *   load    read.ts      a transcript and its subagent transcripts, streamed into the codec
 *   render  render.ts    a Claude Code source's records read for the codec to copy; subagents copied likewise
 *   plan    register.ts  where a handoff goes (bucket.ts, for the version target.ts detects), as a plan value
 *                        whose commit() publishes the files (refusals: ../refuse.ts)
 */
export { listClaude } from "./locate.ts";
export { projectsDir } from "./home.ts";
export { openClaudeSession, readClaudeSession } from "./read.ts";
export { copyTranscript, renderClaude } from "./render.ts";
export { planClaude } from "./register.ts";
export { detectClaudeTarget } from "./target.ts";
import type { StoreAccess } from "../types.ts";
import { openClaudeSession, readClaudeSession } from "./read.ts";
import { renderClaude } from "./render.ts";
import { planClaude } from "./register.ts";
import { configuredClaudeModel } from "./settings.ts";
export { configuredClaudeModel };

/** What the descriptor's store loads on first use (lib/harnesses/lazy-store.ts). */
export const access: StoreAccess = {
  read: readClaudeSession,
  open: openClaudeSession,
  render: renderClaude,
  plan: planClaude,
  configuredModel: configuredClaudeModel,
};
