/**
 * Copilot CLI continues a session with `copilot --resume=<id>` (an id, a prefix of seven or more of its hex
 * digits, or a session name), appending to the same events.jsonl; COPILOT_HOME names a home other than
 * `~/.copilot`.
 */
import type { ResumeRequest } from "../types.ts";
import { resumeLine } from "../resume.ts";
import { COPILOT_HOME } from "./home.ts";

export const resumeCopilot = (request: ResumeRequest): string =>
  resumeLine(COPILOT_HOME, request, ["copilot", `--resume=${request.id}`]);
