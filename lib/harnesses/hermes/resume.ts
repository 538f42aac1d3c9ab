/**
 * Hermes continues a session with `hermes chat --resume <id>` (`-m <model>` when the command must name the
 * model), in the home the session was written to.
 */
import type { ResumeRequest } from "../types.ts";
import { resumeLine } from "../resume.ts";
import { HERMES_HOME } from "./home.ts";

export const resumeHermes = (request: ResumeRequest): string =>
  resumeLine(HERMES_HOME, request, [
    "hermes",
    "chat",
    "--resume",
    request.id,
    ...(request.model ? ["-m", request.model] : []),
  ]);
