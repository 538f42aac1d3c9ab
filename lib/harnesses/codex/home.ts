import type { HomeSpec } from "../types.ts";

/** Codex's home: `$CODEX_HOME`, else `~/.codex`. */
export const CODEX_HOME: HomeSpec = {
  flag: "codex-home",
  env: "CODEX_HOME",
  folder: ".codex",
  describe: "Codex home",
};
