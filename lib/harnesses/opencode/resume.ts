/**
 * OpenCode continues a session with `opencode --session <id>` (`--model <provider/model>` when the command must
 * name the model), run in the session's directory. Its database is `$XDG_DATA_HOME/opencode/opencode.db`
 * unless `OPENCODE_DB` names another (an absolute path, or one relative to that folder: its database module,
 * 1.18.33); so a home other than the default is named by `OPENCODE_DB=<home>/opencode.db`, which moves the
 * database alone, whatever the folder is called (XDG_DATA_HOME would move every XDG program's data, and only a
 * folder named `opencode`).
 */
import { statSync } from "node:fs";
import { extname, join, resolve } from "node:path";
import { homedir } from "node:os";
import type { ResumeRequest } from "../types.ts";
import { commandLine } from "../../io/shell.ts";

/** The database file in a data folder. */
export const DATABASE_FILE = "opencode.db";

/**
 * The database a home names: the data folder's `opencode.db`, or the home itself when it is the file
 * OPENCODE_DB named (lib/harnesses/homes.ts): a file there, or nothing there under a name ending `.db`.
 */
export function openCodeDatabase(home: string): string {
  const kind = statSync(home, { throwIfNoEntry: false });
  const file = kind ? !kind.isDirectory() : extname(home) === ".db";
  return file ? home : join(home, DATABASE_FILE);
}

/** The data folder OpenCode uses when nothing names another: `${XDG_DATA_HOME:-~/.local/share}/opencode`. */
export function defaultOpenCodeHome(env: NodeJS.ProcessEnv): string {
  const data = env.XDG_DATA_HOME || join(env.HOME || homedir(), ".local", "share");
  return resolve(data, "opencode");
}

export function resumeOpenCode(request: ResumeRequest): string {
  const moved = resolve(request.home) !== defaultOpenCodeHome(request.env);
  return commandLine(
    request.cwd,
    moved ? { OPENCODE_DB: openCodeDatabase(resolve(request.home)) } : {},
    ["opencode", "--session", request.id, ...(request.model ? ["--model", request.model] : [])],
  );
}
