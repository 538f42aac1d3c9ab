import { join } from "node:path";
import type { HomeSpec } from "../types.ts";

/**
 * GitHub Copilot CLI's home is `$COPILOT_HOME`, else `~/.copilot` (1.0.102): the folder holding
 * `session-state/`, the global index `session-store.db`, `config.json` and `logs/`. The variable moves the whole
 * store; nothing in it depends on HOME beyond that default.
 */
export const COPILOT_HOME: HomeSpec = {
  flag: "copilot-home",
  env: "COPILOT_HOME",
  folder: ".copilot",
  describe: "GitHub Copilot CLI home (the folder holding session-state/)",
};

/** The folder of session folders, `<home>/session-state/`: the store root a broken listing names. */
export function copilotSessionState(home: string): string {
  return join(home, "session-state");
}

/** The events file of session `id` in a home: `<home>/session-state/<id>/events.jsonl`. */
export function copilotEventsFile(home: string, id: string): string {
  return join(copilotSessionState(home), id, "events.jsonl");
}
