/**
 * STUB (h-gread): how a user continues a session handed to Gemini CLI is the writer's part (h-gwrite builds
 * it: `gemini --resume <id>`, GEMINI_CLI_HOME for a home not the default). The descriptor's type requires one.
 */
import type { ResumeRequest } from "../types.ts";

export const resumeGeminiNotYet = (_request: ResumeRequest): string => {
  throw new Error("gemini-cli: resume command not yet built (writer side)");
};
