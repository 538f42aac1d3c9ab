/**
 * What other programs know of Copilot CLI, and how they drive it (the descriptor's `integrations`). Each fact
 * checked on 1.0.102.
 */
import type { Integrations } from "../types.ts";

export const copilotIntegrations: Integrations = {
  // LazyBridge accepts kinds `codex` and `claude` only and keeps unknown kinds it finds; ours is spelled as the
  // command is.
  registryKind: "copilot",
  // Its shell tool's environment carries COPILOT_AGENT_SESSION_ID (the running session's id, the one its
  // session folder and `--resume=` take) and COPILOT_CLI=1, with COPILOT_HOME (seen live in a `-p` run's
  // bash call). Skills: `$COPILOT_HOME/skills/<name>/SKILL.md` (its personal skills, offered to the model
  // under `<available_skills>` with location `user`; it reads `.github/skills`, `.claude/skills` and
  // `.agents/skills` of a project too).
  agent: { sessionVariables: ["COPILOT_AGENT_SESSION_ID"], markers: ["COPILOT_CLI"], skillsFolder: "skills" },
  engine: async () => (await import("./engine.ts")).copilotEngine,
  certify: {
    command: "copilot",
    binFlag: "copilot-bin",
    driver: async () => (await import("./certify/index.ts")).copilotCliDriver,
    samples: async () => (await import("./samples.ts")).samples,
  },
};
