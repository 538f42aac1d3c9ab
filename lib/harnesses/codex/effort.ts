/**
 * The reasoning effort Codex ran a thread with, as it stores it: the `reasoning_effort` of the thread's row in
 * the newest state database (0.169.0: the effort its turns used, whether asked with `-c model_reasoning_effort`
 * or taken from config.toml; null when the model's own default was used). `turn_context.effort` in the rollout
 * says the same per turn; the row is one lookup, where the rollout would be read whole.
 */
import { newestStateDb } from "./locate.ts";
import { openReadOnly, tableColumns } from "../../store/sqlite.ts";

export function storedEffort(id: string, home: string): string | undefined {
  const database = newestStateDb(home);
  if (!database) return undefined;
  const db = openReadOnly(database);
  try {
    // A version whose rows keep no effort has nothing to say.
    if (!tableColumns(db, "threads").some((c) => c.name === "reasoning_effort")) return undefined;
    const effort = db.prepare("SELECT reasoning_effort FROM threads WHERE id = ?").get(id)?.reasoning_effort;
    return typeof effort === "string" && effort ? effort : undefined;
  } finally {
    db.close();
  }
}
