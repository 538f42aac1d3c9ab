/** Codex continues a thread with `codex resume <id>` (`-m <model>` when the command must name the model). */
import type { ResumeRequest } from "../types.ts";
import { resumeLine } from "../resume.ts";
import { CODEX_HOME } from "./home.ts";

export const resumeCodex = (request: ResumeRequest): string =>
  resumeLine(CODEX_HOME, request, [
    "codex",
    "resume",
    request.id,
    ...(request.model ? ["-m", request.model] : []),
  ]);
