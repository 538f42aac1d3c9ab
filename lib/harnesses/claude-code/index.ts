/** Claude Code: threaded JSONL transcripts under `<config>/projects/<bucket>/<id>.jsonl`. The descriptor. */
import type { Harness } from "../types.ts";
import { assertUuid, newUuid } from "../../ids.ts";
import { CLAUDE_HOME, projectsDir } from "./home.ts";
import { resumeClaude } from "./resume.ts";
import { claudePosture } from "./posture.ts";
import { claudeTools } from "./tools.ts";
import { claudeModels } from "./models.ts";

/**
 * The store (readers, writers, listing, configuration parsers), loaded on first use: the descriptor's facts
 * cost start-up and `--help` nothing.
 */
const store = () => import("./store.ts");

export const claudeCode: Harness = {
  name: "claude-code",
  aliases: ["claude"],
  title: "Claude Code",
  // LazyBridge's alias registry files its conversations under this kind.
  engine: async () => (await import("./engine.ts")).claudeEngine,
  registryKind: "claude",
  home: CLAUDE_HOME,
  versionVariable: "SESSION_BRIDGE_CLAUDE_VERSION",
  files: {
    extensions: [".jsonl"],
    // Its records carry `type` and `uuid`/`sessionId`; a file nobody recognizes is read as a transcript, so its
    // reader names the line that is not one.
    recognizes: ({ first }) => !!first && "type" in first && ("uuid" in first || "sessionId" in first),
    fallback: true,
  },
  controlTags: [
    "system-reminder",
    "command-name",
    "command-message",
    "command-args",
    "local-command-stdout",
    "local-command-stderr",
    "task-notification",
  ],
  posture: claudePosture,
  tools: claudeTools,
  models: claudeModels,
  // Claude Code talks to Anthropic only.
  provesReasoning: (_session, block) => block.provider === "anthropic",
  // Claude Code 2.x sets CLAUDECODE=1 and CLAUDE_CODE_SESSION_ID (kept current across /clear) in its Bash
  // tool's environment; 1.0.x sets only CLAUDECODE. Skills: <config dir>/skills/<name>/SKILL.md.
  agent: { sessionVariables: ["CLAUDE_CODE_SESSION_ID"], markers: ["CLAUDECODE"], skillsFolder: "skills" },
  certify: {
    command: "claude",
    binFlag: "claude-bin",
    driver: async () => (await import("./certify/index.ts")).claudeCodeDriver,
  },
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
  configuredModel: async (home) => (await store()).configuredClaudeModel(home),
  checkId: (id) => assertUuid(id),
  locate: projectsDir,
  // Its own chunk, not the store's: listing loads no reader, writer or config parser (`list` start-up).
  list: async (home) => (await import("./locate.ts")).listClaude(home),
  listingParts: async (home) => (await import("./locate.ts")).claudeListingParts(home),
  read: async (path) => (await store()).readClaudeSession(path),
  open: async (path) => (await store()).openClaudeSession(path),
  async *render(session, options) {
    yield* (await store()).renderClaude(session, options);
  },
  // cd <cwd> && [CLAUDE_CONFIG_DIR=<home>] claude --resume <id>
  resumeCommand: resumeClaude,
  plan: async (session, options, home, force) => (await store()).planClaude(session, options, home, force),
};
