/** Codex CLI: JSONL rollouts under `<CODEX_HOME>/sessions/`, indexed by the `threads` table of `state_N.sqlite`. */
import type { Harness } from "../types.ts";
import { assertUuid, newUuidV7 } from "../../ids.ts";
import { CODEX_HOME } from "./home.ts";
import { listCodex } from "./list.ts";
import { readCodexSession } from "./read.ts";
import { renderCodex } from "./write.ts";
import { planCodex } from "./register.ts";
import { configuredCodexModel } from "./config.ts";

export const codex: Harness = {
  name: "codex",
  aliases: [],
  home: CODEX_HOME,
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
  configuredModel: configuredCodexModel,
  checkId: (id) => assertUuid(id),
  locate: (home) => home,
  list: listCodex,
  read: readCodexSession,
  render: renderCodex,
  plan: planCodex,
};
