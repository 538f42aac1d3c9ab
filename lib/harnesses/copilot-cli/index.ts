/**
 * GitHub Copilot CLI: one folder per session under `<COPILOT_HOME>/session-state/<uuid>/`, its conversation the
 * typed append-only events of `events.jsonl` (subagents' events in the same file, marked by `agentId`), with
 * `workspace.yaml` (name, cwd, times) beside it and the global index `session-store.db`. The descriptor.
 */
import type { Harness } from "../types.ts";
import { lazyStore } from "../lazy-store.ts";
import { isObject } from "../../io/json.ts";
import { COPILOT_HOME, copilotSessionState } from "./home.ts";
import { checkCopilotSessionId, newCopilotSessionId } from "./ids.ts";
import { copilotTools } from "./tools.ts";
import { copilotModels } from "./models.ts";
import { copilotPosture } from "./posture.ts";
import { resumeCopilot } from "./resume.ts";
import { copilotIntegrations } from "./integrations.ts";

export const copilotCli: Harness = {
  name: "copilot-cli",
  aliases: ["copilot"],
  title: "GitHub Copilot CLI",
  home: COPILOT_HOME,
  files: {
    extensions: [".jsonl"],
    // Every events.jsonl starts with its `session.start`, made by `copilot-agent`.
    recognizes: ({ first }) =>
      first?.type === "session.start" && isObject(first.data) && typeof first.data.sessionId === "string" &&
      typeof first.data.producer === "string",
  },
  conversation: {
    // The blocks it adds to what the user typed (`transformedContent`) and to its own reminders.
    controlTags: ["current_datetime", "reminder"],
    posture: copilotPosture,
    tools: copilotTools,
    models: copilotModels,
    // Reasoning is kept as text (`reasoningText`); `reasoningOpaque` and `encryptedContent` are bound to the
    // session and provider that made them, which the events do not prove.
    provesReasoning: () => false,
    capabilities: {
      harness: "copilot-cli",
      // One chain of events (each `parentId` the one before); a rewind removes events, a fork is a new folder.
      threadTopology: false,
      reasoningProvider: "none",
      toolSchemas: false,
      // The writer writes no `system.message`: a resumed run sends its own system prompt (checked on 1.0.102).
      systemInstructions: false,
      // Queued words are placed as the user's last message or described in the handshake (lib/pipeline): Copilot
      // keeps no queue in its events (a queued prompt is a `user.message` once it is sent).
      queuedInput: false,
      // Its sessions keep the mode only when it changes; the resume command states the source's, never wider.
      permissionPosture: true,
      // Every assistant message names its model.
      perTurnModel: true,
      // A prompt is one string (`content`); attachments name files on disk, never inline image data.
      images: false,
      // Its subagents' events sit in the parent's events.jsonl, marked by agentId (the reader reads them), but the
      // writer writes the main thread only: a subagent transcript is named in the loss report as not carried.
      subagents: false,
      copiesOwnSessions: false,
      keepsCompactedHistory: true,
      compactsOverWindow: true,
      // On resume a started call with no result gets Copilot's own failed `tool.execution_complete` (code
      // `interrupted`), sent to the model as this text (fixture killed-resumed, 1.0.102). The writer starts every
      // call it writes, so Copilot's other words, for a call requested and never started, do not arise.
      unansweredCalls: {
        errorResult:
          "Tool execution was interrupted before a result was recorded. Its effects may be absent, " +
          "partial, or already complete, and other tools may have completed successfully. Check the current " +
          "state before retrying; do not assume success or replay this operation blindly.",
      },
    },
  },
  // The listing is a chunk of its own, not the store's: `list` loads no reader or writer.
  store: lazyStore({
    locate: copilotSessionState,
    newId: newCopilotSessionId,
    checkId: checkCopilotSessionId,
  }, { listing: () => import("./list.ts"), access: () => import("./store.ts") }),
  // cd <cwd> && [COPILOT_HOME=<home>] copilot --resume=<id>
  resumeCommand: resumeCopilot,
  integrations: copilotIntegrations,
};
