/**
 * OpenCode: sessions as rows of `opencode.db` (SQLite, WAL) in its data folder, `session` / `message` / `part`
 * with JSON `data` columns, each tool call's whole lifecycle in one part. The descriptor.
 */
import type { Harness } from "../types.ts";
import { lazyStore } from "../lazy-store.ts";
import { OPENCODE_HOME } from "./home.ts";
import { checkOpenCodeSessionId, newOpenCodeSessionId } from "./ids.ts";
import { openCodeTools } from "./tools.ts";
import { openCodeModels } from "./models.ts";
import { openCodePosture } from "./posture.ts";
import { openCodeDatabase, resumeOpenCode } from "./resume.ts";
import { openCodeConfigHome } from "./config-home.ts";

export const openCode: Harness = {
  name: "opencode",
  aliases: ["oc"],
  title: "OpenCode",
  home: OPENCODE_HOME,
  files: {
    // opencode.db is known by its tables (resolve.ts opens it), not its head: a schema's pages may sit anywhere.
    extensions: [".db"],
    recognizes: () => false,
    tables: ["session", "message", "part"],
    sessionsInFile: [".db"],
  },
  conversation: {
    controlTags: ["system-reminder"],
    tools: openCodeTools,
    models: openCodeModels,
    posture: openCodePosture,
    // OpenCode may run any provider and keeps reasoning as text parts (a provider's proof, when kept, sits in
    // the part's metadata by provider): no block it wrote is proved to come from the provider it names.
    provesReasoning: () => false,
    capabilities: {
      harness: "opencode",
      // A revert hides later messages until the next prompt deletes them; a fork is a new session.
      threadTopology: false,
      reasoningProvider: "none",
      toolSchemas: false,
      systemInstructions: false,
      queuedInput: false,
      // The source's posture, never wider, as the session's own permission rules (posture.ts).
      permissionPosture: true,
      // Every assistant message names its provider and model.
      perTurnModel: true,
      images: true,
      // A task's subagent is a session of its own, its parent_id the caller's.
      subagents: true,
      copiesOwnSessions: false,
      keepsCompactedHistory: true,
      compactsOverWindow: false,
      // A pending or running tool part is sent as an error result "[Tool execution was interrupted]".
      unansweredCalls: { errorResult: "[Tool execution was interrupted]" },
    },
  },
  // The listing is a chunk of its own, not the store's: `list` loads no reader or writer.
  store: lazyStore({
    locate: openCodeDatabase,
    newId: newOpenCodeSessionId,
    checkId: checkOpenCodeSessionId,
    exportedAs: "opencode export",
  }, { listing: () => import("./list.ts"), access: () => import("./store.ts") }),
  // cd <cwd> && [OPENCODE_DB=<home>/opencode.db] opencode --session <id> [--model <provider/model>]
  resumeCommand: resumeOpenCode,
  integrations: {
    // LazyBridge knows no OpenCode kind (it accepts `codex` and `claude` and keeps unknown kinds it finds): ours
    // is its name.
    registryKind: "opencode",
    // Its tools' environment carries OPENCODE=1 (and AGENT=1, OPENCODE_PID), no session id (1.18.33, seen
    // live), so `current` takes its newest session in the directory. Skills: `<config folder>/skills/<name>/`,
    // its configuration folder, not its data folder (it reads ~/.claude/skills and ~/.agents/skills too).
    agent: {
      sessionVariables: [],
      markers: ["OPENCODE"],
      skillsFolder: "skills",
      skillsBase: openCodeConfigHome,
    },
    engine: async () => (await import("./engine.ts")).openCodeEngine,
    certify: {
      command: "opencode",
      binFlag: "opencode-bin",
      driver: async () => (await import("./certify/index.ts")).opencodeDriver,
      samples: async () => (await import("./samples.ts")).samples,
    },
  },
};
