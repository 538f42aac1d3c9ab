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
import { openCodeDatabase, resumeOpenCode } from "./resume.ts";

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
      permissionPosture: false,
      // Every assistant message names its provider and model.
      perTurnModel: true,
      images: true,
      // A task's subagent is a session of its own, its parent_id the caller's.
      subagents: true,
      // A pending or running tool part is sent as an error result "[Tool execution was interrupted]".
      unansweredCalls: "interrupted-error",
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
    certify: {
      command: "opencode",
      binFlag: "opencode-bin",
      driver: async () => (await import("./certify/index.ts")).opencodeDriver,
      samples: async () => (await import("./samples.ts")).samples,
    },
  },
};
