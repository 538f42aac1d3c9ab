/** Claude Code continues a session with `claude --resume <id>`, run in the session's folder (its bucket). */
import type { ResumeRequest } from "../types.ts";
import { resumeLine } from "../resume.ts";
import { CLAUDE_HOME } from "./home.ts";

export const resumeClaude = (request: ResumeRequest): string =>
  resumeLine(CLAUDE_HOME, request, ["claude", "--resume", request.id]);
