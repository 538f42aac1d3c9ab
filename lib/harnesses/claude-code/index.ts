/** Claude Code: threaded JSONL transcripts under `<config>/projects/<bucket>/<id>.jsonl`. The descriptor. */
import type { Harness } from "../types.ts";
import { lazyStore } from "../lazy-store.ts";
import { assertUuid, newUuid } from "../../ids.ts";
import { CLAUDE_HOME, projectsDir } from "./home.ts";
import { resumeClaude } from "./resume.ts";
import { claudePosture } from "./posture.ts";
import { claudeTools } from "./tools.ts";
import { claudeModels } from "./models.ts";

export const claudeCode: Harness = {
  name: "claude-code",
  aliases: ["claude"],
  title: "Claude Code",
  home: CLAUDE_HOME,
  files: {
    extensions: [".jsonl"],
    // Its records carry `type` and `uuid`/`sessionId`; a file nobody recognizes is read as a transcript, so its
    // reader names the line that is not one.
    recognizes: ({ first }) => !!first && "type" in first && ("uuid" in first || "sessionId" in first),
    fallback: true,
  },
  conversation: {
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
      copiesOwnSessions: true,
      keepsCompactedHistory: true,
      compactsOverWindow: false,
      unansweredCalls: "dropped",
    },
  },
  // The listing (locate.ts) is a chunk of its own, not the store's: `list` loads no reader, writer or parser.
  store: lazyStore({
    locate: projectsDir,
    newId: () => newUuid(),
    checkId: (id) => assertUuid(id),
    versionVariable: "SESSION_BRIDGE_CLAUDE_VERSION",
  }, { listing: () => import("./locate.ts"), access: () => import("./store.ts") }),
  // cd <cwd> && [CLAUDE_CONFIG_DIR=<home>] claude --resume <id>
  resumeCommand: resumeClaude,
  integrations: {
    // LazyBridge's alias registry files its conversations under this kind.
    registryKind: "claude",
    // Claude Code 2.x sets CLAUDECODE=1 and CLAUDE_CODE_SESSION_ID (kept current across /clear) in its Bash
    // tool's environment; 1.0.x sets only CLAUDECODE. Skills: <config dir>/skills/<name>/SKILL.md.
    agent: { sessionVariables: ["CLAUDE_CODE_SESSION_ID"], markers: ["CLAUDECODE"], skillsFolder: "skills" },
    engine: async () => (await import("./engine.ts")).claudeEngine,
    certify: {
      command: "claude",
      binFlag: "claude-bin",
      driver: async () => (await import("./certify/index.ts")).claudeCodeDriver,
      samples: async () => (await import("./samples.ts")).samples,
    },
  },
  demo: {
    handoff: "Hand it off for real",
    seat: async () => (await import("./demo.ts")).seat,
  },
};
