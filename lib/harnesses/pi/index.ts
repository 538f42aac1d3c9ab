/**
 * Pi (`@mariozechner/pi-coding-agent`): one JSONL file per session under
 * `<agent folder>/sessions/--<cwd>--/<time>_<uuid v7>.jsonl`, a `session` header then a tree of entries linked
 * by `id` / `parentId`; the live branch is the path from the file's last entry to the root. The descriptor.
 */
import type { Harness } from "../types.ts";
import { lazyStore } from "../lazy-store.ts";
import { PI_HOME, piSessions } from "./home.ts";
import { checkPiSessionId, newPiSessionId } from "./ids.ts";
import { piTools } from "./tools.ts";
import { piModels } from "./models.ts";
import { piPosture } from "./posture.ts";
import { resumePi } from "./resume.ts";

export const pi: Harness = {
  name: "pi",
  aliases: ["pi-coding-agent"],
  title: "Pi",
  home: PI_HOME,
  files: {
    extensions: [".jsonl"],
    // Pi's own test of a session file (loadEntriesFromFile): a first line that is a `session` header with an id.
    recognizes: ({ first }) => !!first && first.type === "session" && typeof first.id === "string",
  },
  conversation: {
    // Pi parses no tag in what it reads back: its summaries are wrapped in `<summary>` only as they are sent.
    controlTags: [],
    posture: piPosture,
    tools: piTools,
    models: piModels,
    // A thinking block's signature is a provider's proof only on Anthropic's own API: with `openai-completions`
    // Pi stores the name of the field the reasoning came in, elsewhere an id or a replay token of that API.
    provesReasoning: (_session, block) => block.provider === "anthropic" && block.signature !== undefined,
    capabilities: {
      harness: "pi",
      // Pi's file is a tree (its /tree shows the branches left), but the writer writes the live thread alone,
      // each entry a child of the one before: a source's rewound branches are reported as not carried.
      threadTopology: false,
      // Pi runs any provider and replays a thinking block only to the provider, API and model that made it.
      reasoningProvider: "none",
      toolSchemas: false,
      systemInstructions: false,
      queuedInput: false,
      // Its sessions keep no tool set; the source's posture is carried, never wider, in the printed resume
      // command's --tools (posture.ts, resume.ts).
      permissionPosture: true,
      // Every assistant message names its provider and model.
      perTurnModel: true,
      images: true,
      // 0.73.1 ships no subagent tool.
      subagents: false,
      copiesOwnSessions: false,
      keepsCompactedHistory: true,
      compactsOverWindow: false,
      // A call without a result is sent with a synthetic error result "No result provided"
      // (transform-messages.js; fixture killed-mid-tool).
      unansweredCalls: { errorResult: "No result provided" },
    },
  },
  // The listing is a chunk of its own, not the store's: `list` loads no reader or writer.
  store: lazyStore({
    locate: piSessions,
    newId: newPiSessionId,
    checkId: checkPiSessionId,
  }, { listing: () => import("./list.ts"), access: () => import("./store.ts") }),
  // cd <cwd> && [PI_CODING_AGENT_DIR=<home>] pi --session <id> [--model <provider/model>] [--tools ...]
  resumeCommand: resumePi,
  integrations: {
    // LazyBridge knows no Pi kind (it accepts `codex` and `claude` and keeps unknown kinds it finds): ours is its
    // name.
    registryKind: "pi",
    // Pi sets PI_CODING_AGENT=true for itself at start-up (cli.js), so every command its bash tool runs has it; no
    // variable names the session (0.73.1, seen live), so `current` takes its newest session in the directory.
    // Skills: `<agent folder>/skills/<name>/SKILL.md` (it reads `<cwd>/.pi/skills` and `.agents/skills` too).
    agent: { sessionVariables: [], markers: ["PI_CODING_AGENT"], skillsFolder: "skills" },
    engine: async () => (await import("./engine.ts")).piEngine,
    certify: {
      command: "pi",
      binFlag: "pi-bin",
      driver: async () => (await import("./certify/index.ts")).piDriver,
      samples: async () => (await import("./samples.ts")).samples,
    },
  },
};
