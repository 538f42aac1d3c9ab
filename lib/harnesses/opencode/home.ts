import { join } from "node:path";
import type { HomeSpec } from "../types.ts";

/**
 * OpenCode's home is its data folder, `${XDG_DATA_HOME:-~/.local/share}/opencode` (xdg-basedir's data path
 * joined with "opencode", 1.18.33): the folder holding `opencode.db`, `storage/`, `snapshot/` and `log/`. It has
 * no variable of its own for the folder (OPENCODE_DB moves the database alone), so the XDG variable names it.
 */
export const OPENCODE_HOME: HomeSpec = {
  flag: "opencode-home",
  env: "XDG_DATA_HOME",
  subfolder: "opencode",
  folder: ".local/share/opencode",
  describe: "OpenCode data folder (the one holding opencode.db)",
};

/**
 * The database a release build keeps (`opencode.db`: the latest, beta and prod channels; a local or preview
 * build would keep `opencode-<channel>.db`, which no published package is).
 */
export function openCodeDatabase(home: string): string {
  return join(home, "opencode.db");
}
