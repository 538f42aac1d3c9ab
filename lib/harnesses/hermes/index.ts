/** Hermes Agent: sessions as rows of `state.db` (plus legacy transcripts and snapshots), in every profile. */
import type { Harness } from "../types.ts";
import { lazyStore } from "../lazy-store.ts";
import { checkHermesId, newHermesId } from "./ids.ts";
import { activeHome, stateDbPath } from "./profiles.ts";
import { catalogNotCarried } from "./carried.ts";
import { HERMES_HOME } from "./home.ts";
import { hermesTools } from "./tools.ts";
import { resumeHermes } from "./resume.ts";

export const hermes: Harness = {
  name: "hermes",
  aliases: [],
  title: "Hermes Agent",
  home: HERMES_HOME,
  files: {
    extensions: [".db", ".json", ".jsonl"],
    // A SQLite state.db; a pretty-printed `session_<id>.json` snapshot, or an export line longer than the head,
    // known by its start; legacy transcripts of role-keyed messages and export lines holding `messages`.
    recognizes: ({ text, first }) =>
      text.startsWith("SQLite format 3\u0000") ||
      /^\{\s*"session_id"\s*:|^\{"id": "[^"]*", "source": /.test(text) ||
      (!!first && (typeof first.role === "string" || "session_id" in first || Array.isArray(first.messages))),
    sessionsInFile: [".db"],
    tables: ["sessions", "messages"],
  },
  conversation: {
    controlTags: [],
    tools: hermesTools,
    // Hermes routes through any provider, so it keeps a model id as recorded (a router's id included) and
    // picks its own default at resume.
    models: { map: (model) => model },
    // Hermes may run any provider: a proof is provable only when the session ran on that provider directly
    // (its billing provider names it), not through a router.
    provesReasoning(session, block) {
      const direct = (session.meta.provider ?? "").toLowerCase();
      if (block.provider === "anthropic") return direct === "anthropic";
      if (block.provider === "openai") return direct === "openai" || direct === "openai-codex";
      return false;
    },
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
      copiesOwnSessions: true,
      keepsCompactedHistory: true,
      compactsOverWindow: true,
      unansweredCalls: "placeholder",
    },
  },
  // The listing (listing-parts.ts, list.ts) is a chunk of its own, not the store's: `list` loads no reader,
  // writer or config parser.
  store: lazyStore({
    locate: (home) => stateDbPath(activeHome(home).dir),
    newId: newHermesId,
    checkId: checkHermesId,
    fileLosses: catalogNotCarried,
    // state.db rows become the lines Hermes's own export writes.
    exportedAs: "hermes sessions export",
  }, { listing: () => import("./listing-parts.ts"), access: () => import("./store.ts") }),
  // cd <cwd> && [HERMES_HOME=<home>] hermes chat --resume <id> [-m <model>]
  resumeCommand: resumeHermes,
  integrations: {
    // LazyBridge's alias registry files its conversations under this kind.
    registryKind: "hermes",
    // run_agent sets HERMES_SESSION_ID (moved on /new, /resume and compression splits) and the terminal tool
    // passes it and HERMES_HOME on. Skills: $HERMES_HOME/skills/<name>/SKILL.md.
    agent: { sessionVariables: ["HERMES_SESSION_ID"], markers: [], skillsFolder: "skills" },
    engine: async () => (await import("./engine.ts")).hermesEngine,
    certify: {
      command: "hermes",
      binFlag: "hermes-bin",
      driver: async () => (await import("./certify/index.ts")).hermesDriver,
      samples: async () => (await import("./samples.ts")).samples,
    },
  },
  demo: {
    handoff: "Hand it to Hermes too: rows in the sandbox's Hermes state.db (no Hermes needed)",
    listed: "Hermes's store now holds it",
    seat: async () => (await import("./demo.ts")).seat,
  },
};
