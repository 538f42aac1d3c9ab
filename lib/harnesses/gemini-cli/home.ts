import { join } from "node:path";
import type { HomeSpec } from "../types.ts";

/**
 * Gemini CLI's home is the folder it takes for the user's home directory: `$GEMINI_CLI_HOME`, else the user's
 * home itself (its `homedir()` in utils/paths.ts). It keeps everything in `.gemini/` there, so the default
 * folder under the user's home is the home itself, and a printed resume command names GEMINI_CLI_HOME only for
 * another home.
 */
export const GEMINI_HOME: HomeSpec = {
  flag: "gemini-home",
  env: "GEMINI_CLI_HOME",
  folder: "",
  describe: "Gemini CLI home (the folder holding .gemini/)",
};

/** The store: `<home>/.gemini/`. */
export function geminiStore(home: string): string {
  return join(home, ".gemini");
}
