/**
 * OpenCode continues a session with `opencode --session <id>` (its TUI; `-m provider/model` picks the model),
 * run in the session's directory. A home other than the default is named by XDG_DATA_HOME, whose `opencode`
 * folder the home is; a home named otherwise cannot be said that way, so its database is named by OPENCODE_DB
 * (an absolute path is taken as it is, 1.18.33), the rest of OpenCode's data staying in its default folder.
 */
import type { ResumeRequest } from "../types.ts";
import { commandLine } from "../../io/shell.ts";
import { defaultHome, homeVariableValue } from "../homes.ts";
import { resolve } from "node:path";
import { OPENCODE_HOME, openCodeDatabase } from "./home.ts";

export function resumeOpenCode(request: ResumeRequest): string {
  return commandLine(request.cwd, openCodeEnvironment(request.home, request.env), [
    "opencode",
    "--session",
    request.id,
    ...(request.model ? ["--model", request.model] : []),
  ]);
}

/** The variables a command needs for OpenCode to find `home`. */
export function openCodeEnvironment(home: string, env: NodeJS.ProcessEnv): Record<string, string> {
  if (resolve(home) === defaultHome(OPENCODE_HOME, env)) return {};
  const data = homeVariableValue(OPENCODE_HOME, home);
  return data === undefined
    ? { OPENCODE_DB: openCodeDatabase(resolve(home)) }
    : { [OPENCODE_HOME.env]: data };
}
