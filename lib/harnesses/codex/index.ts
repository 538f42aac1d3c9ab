/** Codex CLI: JSONL rollouts under `<CODEX_HOME>/sessions/`, indexed by the `threads` table of `state_N.sqlite`. */
import type { Harness } from "../types.ts";
import { assertUuid, newUuidV7 } from "../../ids.ts";
import { CODEX_HOME } from "./home.ts";
import { codexPosture } from "./posture.ts";
import { codexTools } from "./tools.ts";
import { codexModels } from "./models.ts";
import { resumeCodex } from "./resume.ts";

/**
 * The store (readers, writers, listing, configuration parsers), loaded on first use: the descriptor's facts
 * cost start-up and `--help` nothing.
 */
const store = () => import("./store.ts");

export const codex: Harness = {
  name: "codex",
  aliases: [],
  title: "Codex CLI",
  // LazyBridge's alias registry files its conversations under this kind.
  engine: async () => (await import("./engine.ts")).codexEngine,
  registryKind: "codex",
  home: CODEX_HOME,
  versionVariable: "SESSION_BRIDGE_CODEX_VERSION",
  files: {
    extensions: [".jsonl"],
    // Every line wraps a `payload`; the session_meta line carries the whole system prompt, so it can be longer
    // than the head and is known by its start.
    recognizes: ({ text, first }) =>
      /^\{"timestamp":"[^"]*",(?:"ordinal":\d+,)?"type":"session_meta"/.test(text) ||
      (!!first && "payload" in first && "type" in first),
  },
  controlTags: [
    "environment_context",
    "user_instructions",
    "developer_instructions",
    "permissions instructions",
    "turn_aborted",
    "user_shell_command",
    "INSTRUCTIONS",
  ],
  posture: codexPosture,
  tools: codexTools,
  models: codexModels,
  // Codex talks to OpenAI only.
  provesReasoning: (_session, block) => block.provider === "openai",
  // Its shell tool's environment carries CODEX_THREAD_ID (and, in 0.169, CODEX_SESSION_ID, the same id) and
  // CODEX_HOME when set. Skills: $CODEX_HOME/skills/<name>/SKILL.md.
  agent: { sessionVariables: ["CODEX_THREAD_ID", "CODEX_SESSION_ID"], markers: [], skillsFolder: "skills" },
  certify: {
    command: "codex",
    binFlag: "codex-bin",
    driver: async () => (await import("./certify/index.ts")).codexDriver,
  },
  capabilities: {
    harness: "codex",
    // One linear history per thread: rewound branches and sidechains have nowhere to go.
    threadTopology: false,
    reasoningProvider: "openai",
    toolSchemas: false,
    // base_instructions would replace Codex's own system prompt, so a foreign one is not carried.
    systemInstructions: false,
    // Codex queues input in its own database, not in the rollout.
    queuedInput: false,
    // The source's posture is written by meaning as Codex approval and sandbox policies.
    permissionPosture: true,
    // The TUI resumes with the thread's recorded model, so every turn records the target's model.
    perTurnModel: false,
    images: true,
    subagents: false,
    unansweredCalls: "invented",
  },
  newId: (now) => newUuidV7(now),
  configuredModel: async (home) => (await store()).configuredCodexModel(home),
  checkId: (id) => assertUuid(id),
  locate: (home) => home,
  // Its own chunk, not the store's: listing loads no reader, writer or config parser (`list` start-up).
  list: async (home) => (await import("./list.ts")).listCodex(home),
  read: async (path) => (await store()).readCodexSession(path),
  open: async (path) => (await store()).openCodexSession(path),
  async *render(session, options) {
    yield* (await store()).renderCodex(session, options);
  },
  // cd <cwd> && [CODEX_HOME=<home>] codex resume <id> [-m <model>]
  resumeCommand: resumeCodex,
  plan: async (session, options, home, force) => (await store()).planCodex(session, options, home, force),
};
