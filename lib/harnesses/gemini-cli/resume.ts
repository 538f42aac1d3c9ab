/**
 * Gemini CLI continues a session with `gemini --resume <id>`, run in the session's directory (it looks in that
 * directory's project only); GEMINI_CLI_HOME names a home other than the user's own. The source's posture is
 * stated as `--approval-mode <mode>` (posture.ts), `default` included: without the flag the user's own
 * `general.defaultApprovalMode` setting applies, which may allow more. A source with no posture gets no flag.
 */
import type { ResumeRequest } from "../types.ts";
import { resumeLine } from "../resume.ts";
import { GEMINI_HOME } from "./home.ts";
import { geminiApprovalMode } from "./posture.ts";

export const resumeGemini = (request: ResumeRequest): string =>
  resumeLine(GEMINI_HOME, request, [
    "gemini",
    "--resume",
    request.id,
    ...(request.posture ? ["--approval-mode", geminiApprovalMode(request.posture)] : []),
  ]);
