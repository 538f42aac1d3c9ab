import type { HomeSpec } from "../types.ts";

/**
 * OpenCode's home is its data folder, `${XDG_DATA_HOME:-~/.local/share}/opencode` (xdg-basedir's data path
 * joined with "opencode", 1.18.33): the folder holding `opencode.db`, `storage/`, `snapshot/` and `log/`. It has
 * no variable of its own for the folder, so the XDG variable names it; OPENCODE_DB names the database itself
 * (absolute, or relative to the data folder), and then the home is that file (resume.ts).
 */
export const OPENCODE_HOME: HomeSpec = {
  flag: "opencode-home",
  env: "XDG_DATA_HOME",
  subfolder: "opencode",
  storeFile: "OPENCODE_DB",
  folder: ".local/share/opencode",
  describe: "OpenCode data folder (the one holding opencode.db)",
};
