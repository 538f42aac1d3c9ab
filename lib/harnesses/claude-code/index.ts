/** Claude Code: threaded JSONL transcripts under `<config>/projects/<bucket>/<id>.jsonl`. */
import type { Harness } from "../types.ts";
import { assertUuid, newUuid } from "../../ids.ts";
import { projectsDir, summarize, transcriptPaths } from "./locate.ts";
import { readClaudeSession } from "./read.ts";
import { renderClaude } from "./write.ts";
import { planClaude } from "./register.ts";
import { configuredClaudeModel } from "./settings.ts";
import { CLAUDE_HOME } from "./home.ts";

export const claudeCode: Harness = {
  name: "claude-code",
  aliases: ["claude"],
  home: CLAUDE_HOME,
  versionVariable: "SESSION_BRIDGE_CLAUDE_VERSION",
  capabilities: {
    harness: "claude-code",
    threadTopology: true,
    reasoningProvider: "anthropic",
    toolSchemas: false,
    systemInstructions: false,
    queuedInput: false,
    permissionPosture: true,
    perTurnModel: true,
    images: true,
    subagents: false,
    unansweredCalls: "dropped",
  },
  newId: () => newUuid(),
  configuredModel: configuredClaudeModel,
  checkId: (id) => assertUuid(id),
  locate: projectsDir,
  list: (home) => Promise.all(transcriptPaths(home).map(summarize)),
  read: readClaudeSession,
  render: renderClaude,
  plan: planClaude,
};
