/**
 * Copilot CLI continues a session with `copilot --resume=<id>` (an id, a prefix of seven or more of its hex
 * digits, or a session name), appending to the same events.jsonl; COPILOT_HOME names a home other than
 * `~/.copilot`. A resumed session keeps no permission mode, so the source's posture is stated as the mode's
 * flags (posture.ts); a source with none gets none.
 */
import type { ResumeRequest } from "../types.ts";
import { resumeLine } from "../resume.ts";
import { COPILOT_HOME } from "./home.ts";
import { copilotPostureCommand } from "./posture.ts";

export function resumeCopilot(request: ResumeRequest): string {
  const stated = request.posture ? copilotPostureCommand(request.posture, request.env) : undefined;
  return resumeLine(
    COPILOT_HOME,
    request,
    ["copilot", `--resume=${request.id}`, ...(stated?.args ?? [])],
    stated?.variables,
  );
}
