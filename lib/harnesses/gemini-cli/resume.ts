/**
 * Gemini CLI continues a session with `gemini --resume <id>`, run in the session's directory (it looks in that
 * directory's project only); GEMINI_CLI_HOME names a home other than the user's own.
 */
import type { ResumeRequest } from "../types.ts";
import { resumeLine } from "../resume.ts";
import { GEMINI_HOME } from "./home.ts";

export const resumeGemini = (request: ResumeRequest): string =>
  resumeLine(GEMINI_HOME, request, ["gemini", "--resume", request.id]);
