/** Codex CLI: JSONL rollouts under `<CODEX_HOME>/sessions/`, indexed by the `threads` table of `state_N.sqlite`. */
import type { Harness } from "../types.ts";
import { lazyStore } from "../lazy-store.ts";
import { assertUuid, newUuidV7 } from "../../ids.ts";
import { CODEX_HOME } from "./home.ts";
import { codexPosture } from "./posture.ts";
import { codexTools } from "./tools.ts";
import { codexModels } from "./models.ts";
import { resumeCodex } from "./resume.ts";

export const codex: Harness = {
  name: "codex",
  aliases: [],
  title: "Codex CLI",
  home: CODEX_HOME,
  files: {
    extensions: [".jsonl"],
    // Every line wraps a `payload`; the session_meta line carries the whole system prompt, so it can be longer
    // than the head and is known by its start.
    recognizes: ({ text, first }) =>
      /^\{"timestamp":"[^"]*",(?:"ordinal":\d+,)?"type":"session_meta"/.test(text) ||
      (!!first && "payload" in first && "type" in first),
  },
  conversation: {
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
      copiesOwnSessions: true,
      keepsCompactedHistory: true,
      compactsOverWindow: false,
      unansweredCalls: "invented",
    },
  },
  // The listing is a chunk of its own, not the store's: `list` loads no reader, writer or config parser.
  store: lazyStore({
    locate: (home) => home,
    newId: (now) => newUuidV7(now),
    checkId: (id) => assertUuid(id),
    versionVariable: "SESSION_BRIDGE_CODEX_VERSION",
  }, { listing: () => import("./list.ts"), access: () => import("./store.ts") }),
  // cd <cwd> && [CODEX_HOME=<home>] codex resume <id> [-m <model>]
  resumeCommand: resumeCodex,
  integrations: {
    // LazyBridge's alias registry files its conversations under this kind.
    registryKind: "codex",
    // Its shell tool's environment carries CODEX_THREAD_ID (and, in 0.169, CODEX_SESSION_ID, the same id) and
    // CODEX_HOME when set. Skills: $CODEX_HOME/skills/<name>/SKILL.md.
    agent: { sessionVariables: ["CODEX_THREAD_ID", "CODEX_SESSION_ID"], markers: [], skillsFolder: "skills" },
    engine: async () => (await import("./engine.ts")).codexEngine,
    certify: {
      command: "codex",
      binFlag: "codex-bin",
      driver: async () => (await import("./certify/index.ts")).codexDriver,
      samples: async () => (await import("./samples.ts")).samples,
    },
  },
  demo: {
    handoff: "Hand it to Codex: a rollout and its row in the sandbox's Codex thread index (no Codex needed)",
    listed: "Codex's index now lists it, titled as its resume picker shows it",
    seat: async () => (await import("./demo.ts")).seat,
  },
};
