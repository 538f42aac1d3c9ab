/** The tables OpenCode keeps a conversation in: a database without them is not OpenCode's (or not yet). */
import type { DatabaseSync } from "node:sqlite";
import { InputError } from "../../errors.ts";
import { hasTable } from "../../store/sqlite.ts";

const TABLES = ["session", "message", "part"] as const;

export function assertOpenCodeTables(db: DatabaseSync, database: string): void {
  const missing = TABLES.find((t) => !hasTable(db, t));
  if (missing) throw new InputError(`${database}: no ${missing} table (not an OpenCode database)`);
}
