/**
 * One Copilot CLI turn, non-interactively: `copilot --output-format json [--resume=ID | --session-id=UUID]
 * [--model M] [--reasoning-effort=E] --prompt=TEXT` (1.0.102). The JSON lines are the session's events; only
 * the closing `result` line names the session, so a new conversation is given its id (`--session-id=`) and
 * its alias is bound before the turn rather than once it ends. No `--allow-all-tools`: a tool call the model
 * makes is then denied, as Copilot does for any `-p` run not told otherwise (never wider than the user's own
 * setting).
 */
import type { EngineSpec } from "../types.ts";
import { copilotLiveEvents } from "./live-events.ts";
import { storedReasoningEffort } from "./effort.ts";
import { parsePromptOutput, promptSessionId } from "./prompt-output.ts";
import { argumentRoom } from "../../io/argument-limit.ts";

export const copilotEngine: EngineSpec = {
  liveEvents: copilotLiveEvents,
  effortOf: storedReasoningEffort,
  command: "copilot",
  supports: ["session-id", "effort"],
  promptBytes: argumentRoom("--prompt="),
  args: ({ prompt, resume, start, model, effort }) => [
    "--output-format",
    "json",
    // Joined to its flag, an id is not taken for the optional value's absence, nor a prompt starting with a
    // dash for a flag (checked: `--prompt=-x ...` is sent as `-x ...`).
    ...(resume ? [`--resume=${resume}`] : []),
    // "Set the UUID for a new session" (1.0.102).
    ...(start ? [`--session-id=${start}`] : []),
    ...(model ? [`--model=${model}`] : []),
    // none, minimal, low, medium, high, xhigh or max (1.0.102), recorded in the session's model_change.
    ...(effort ? [`--reasoning-effort=${effort}`] : []),
    `--prompt=${prompt}`,
  ],
  idFrom: (line, stream) => (stream === 1 ? promptSessionId(line) : undefined),
  replyFrom: (stdout) => parsePromptOutput(stdout).reply,
};
