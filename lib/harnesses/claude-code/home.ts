import { join } from "node:path";
import type { HomeSpec } from "../types.ts";

/** Claude Code's config dir: `$CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export const CLAUDE_HOME: HomeSpec = {
  flag: "claude-home",
  env: "CLAUDE_CONFIG_DIR",
  folder: ".claude",
  describe: "Claude Code config dir",
};

/** Where in its home Claude Code keeps transcripts, one folder (bucket) per working directory. */
export function projectsDir(home: string): string {
  return join(home, "projects");
}
