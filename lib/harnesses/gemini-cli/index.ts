/**
 * Gemini CLI: append-only JSONL session logs under `<GEMINI_CLI_HOME>/.gemini/tmp/<project slug>/chats/`, the
 * slug of each working directory kept in `.gemini/projects.json`. The descriptor.
 */
import type { Harness } from "../types.ts";
import { lazyStore } from "../lazy-store.ts";
import { assertUuid, newUuid } from "../../ids.ts";
import { GEMINI_HOME, geminiStore } from "./home.ts";
import { geminiPosture } from "./posture.ts";
import { geminiTools } from "./tools.ts";
import { geminiModels } from "./models.ts";
import { resumeGemini } from "./resume.ts";

/**
 * A session log's first line (`{"sessionId":...,"projectHash":...}`), or a legacy whole-session `.json`
 * (pretty-printed, so its first line is `{`, its next two these fields).
 */
const LEGACY_HEAD = /^\s*\{\s*"sessionId"\s*:\s*"[^"]*"\s*,\s*"projectHash"\s*:/;

export const geminiCli: Harness = {
  name: "gemini-cli",
  aliases: ["gemini"],
  title: "Gemini CLI",
  home: GEMINI_HOME,
  files: {
    // A legacy `.json` is known by its head (LEGACY_HEAD) once named as a path; `.json` alone would make every
    // JSON file named on the command line a session reference.
    extensions: [".jsonl"],
    recognizes: ({ text, first }) =>
      (!!first && typeof first.sessionId === "string" && typeof first.projectHash === "string") ||
      LEGACY_HEAD.test(text),
  },
  conversation: {
    // Its own context blocks: the first user message of every run, hook output, and the wrapper of tool output.
    controlTags: ["session_context", "hook_context", "untrusted_context"],
    posture: geminiPosture,
    tools: geminiTools,
    models: geminiModels,
    // Thought summaries are text the CLI made from the model's thought parts; it keeps no signature and sends
    // none back (a resumed run replays model turns as text, function calls with a "skip" thought signature),
    // so no block it wrote proves where its reasoning came from.
    provesReasoning: () => false,
    capabilities: {
      harness: "gemini-cli",
      // One message list per session: a rewind drops the later messages, a branch has nowhere to go.
      threadTopology: false,
      // It holds reasoning as thought summaries (text), never a proof a provider accepts back.
      reasoningProvider: "none",
      toolSchemas: false,
      systemInstructions: false,
      queuedInput: false,
      // Its sessions keep no approval mode; the source's posture is carried by meaning, never wider, in the
      // printed resume command's --approval-mode (posture.ts, resume.ts).
      permissionPosture: true,
      perTurnModel: true,
      images: true,
      subagents: false,
      copiesOwnSessions: true,
      keepsCompactedHistory: true,
      compactsOverWindow: false,
      // A call recorded without a result is replayed as a bare functionCall followed by the next user turn
      // (seen against the fake server: a handoff with --no-stub-open-calls, then --resume -p).
      unansweredCalls: "unanswered",
    },
  },
  // The listing is a chunk of its own, not the store's: `list` loads no reader or writer.
  store: lazyStore({
    locate: geminiStore,
    newId: () => newUuid(),
    checkId: (id) => assertUuid(id),
  }, { listing: () => import("./list.ts"), access: () => import("./store.ts") }),
  // cd <cwd> && [GEMINI_CLI_HOME=<home>] gemini --resume <id> [--approval-mode <mode>]
  resumeCommand: resumeGemini,
  integrations: {
    // LazyBridge accepts kinds `codex` and `claude` only and keeps unknown kinds it finds; ours is spelled as theirs.
    registryKind: "gemini",
    // Its shell tool's environment carries GEMINI_CLI=1 and no session id (0.61.0: GEMINI_SESSION_ID is given to
    // hooks only), so `current` takes its newest session in the directory. Skills: <home>/.gemini/skills/<name>/.
    agent: { sessionVariables: [], markers: ["GEMINI_CLI"], skillsFolder: ".gemini/skills" },
    engine: async () => (await import("./engine.ts")).geminiEngine,
    certify: {
      command: "gemini",
      binFlag: "gemini-bin",
      driver: async () => (await import("./certify/index.ts")).geminiCliDriver,
      samples: async () => (await import("./samples.ts")).samples,
    },
  },
};
