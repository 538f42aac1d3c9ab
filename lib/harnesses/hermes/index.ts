/** Hermes Agent: sessions as rows of `state.db` (plus legacy transcripts and snapshots), in every profile. */
import type { Harness } from "../types.ts";
import { checkHermesId, newHermesId } from "./ids.ts";
import { listHermes } from "./list.ts";
import { readHermesSession } from "./read.ts";
import { renderHermes } from "./render.ts";
import { catalogNotCarried } from "./carried.ts";
import { planHermes } from "./register.ts";
import { activeHome, configPath, stateDbPath } from "./store.ts";
import { configuredModel } from "./config.ts";
import { HERMES_HOME } from "./home.ts";

export const hermes: Harness = {
  name: "hermes",
  aliases: [],
  home: HERMES_HOME,
  capabilities: {
    harness: "hermes",
    // One live list of rows per session: rewound branches and sidechains have nowhere to go.
    threadTopology: false,
    // Hermes may run any provider, so no provider's reasoning proofs are written; the reasoning text is.
    reasoningProvider: "none",
    // state.db keeps no tool schemas: Hermes sends the tools of its own configuration.
    toolSchemas: false,
    // A stored system prompt replaces Hermes's own when it is reused, so a foreign one is not carried.
    systemInstructions: false,
    queuedInput: false,
    permissionPosture: false,
    // One model per session row; Hermes resumes with the model of its configuration.
    perTurnModel: false,
    // Multimodal content is stored as OpenAI content parts.
    images: true,
    subagents: false,
    unansweredCalls: "placeholder",
  },
  newId: newHermesId,
  configuredModel(home) {
    const where = configPath(activeHome(home).dir);
    const { model } = configuredModel(where);
    return model ? { model, where: `configured in ${where}` } : undefined;
  },
  checkId: checkHermesId,
  fileLosses: catalogNotCarried,
  locate: (home) => stateDbPath(activeHome(home).dir),
  list: (home) => Promise.resolve(listHermes(home)),
  read: readHermesSession,
  render: renderHermes,
  plan: planHermes,
};
