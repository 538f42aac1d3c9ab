/**
 * OpenCode's configuration folder, `${XDG_CONFIG_HOME:-~/.config}/opencode` (xdg-basedir's config path joined
 * with "opencode", 1.18.33), apart from its data folder (the home): it holds the user's `opencode.json` and the
 * `skill/` and `skills/` folders it reads `<name>/SKILL.md` from, and OpenCode makes it on its first run.
 */
import { join, resolve } from "node:path";
import { homedir } from "node:os";

export function openCodeConfigHome(env: NodeJS.ProcessEnv): string {
  return resolve(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), ".config"), "opencode");
}
