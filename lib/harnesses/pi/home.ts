import { join } from "node:path";
import type { HomeSpec } from "../types.ts";

/**
 * Pi's home is its agent folder: `$PI_CODING_AGENT_DIR` (a leading `~` expanded), else `~/.pi/agent` (its
 * `getAgentDir`, 0.73.1). It holds `models.json`, `settings.json`, `auth.json` and `sessions/`.
 */
export const PI_HOME: HomeSpec = {
  flag: "pi-home",
  env: "PI_CODING_AGENT_DIR",
  folder: ".pi/agent",
  describe: "Pi agent folder (the one holding sessions/)",
};

/** The store: `<agent folder>/sessions/`, one folder per working directory. */
export function piSessions(home: string): string {
  return join(home, "sessions");
}

/**
 * The folder Pi keeps a working directory's sessions in (`getDefaultSessionDir`): the path without its leading
 * separator, every `/`, `\` and `:` made `-`, between `--` and `--`. Not reversible: the header's `cwd` is
 * the directory, never this name.
 */
export function projectFolderName(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** A session's file name: the header's ISO time with `:` and `.` as `-`, then `_<id>.jsonl` (`newSession`). */
export function sessionFileName(timestamp: string, id: string): string {
  return `${timestamp.replace(/[:.]/g, "-")}_${id}.jsonl`;
}
