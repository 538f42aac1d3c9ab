/**
 * Pi continues a session with `pi --session <id>`, run in the session's directory: it looks the id up among
 * that directory's sessions first (`resolveSessionPath`, 0.73.1); PI_CODING_AGENT_DIR names an agent folder
 * other than `~/.pi/agent`. The source's posture is stated as the tool set it allows (posture.ts): Pi never
 * asks, so only the tools it is given bound what it does.
 */
import type { ResumeRequest } from "../types.ts";
import { resumeLine } from "../resume.ts";
import { PI_HOME } from "./home.ts";
import { piToolSet, TOOL_SET_ARGS } from "./posture.ts";

export const resumePi = (request: ResumeRequest): string =>
  resumeLine(PI_HOME, request, [
    "pi",
    "--session",
    request.id,
    ...(request.model ? ["--model", request.model] : []),
    ...(request.posture ? TOOL_SET_ARGS[piToolSet(request.posture)] : []),
  ]);
