/**
 * The columns a `state.db` really has and the conditions that keep a conversation's rows together: what the
 * listing needs of the database, apart from database.ts so `list` loads no schema generation (their tables are
 * built from every embedded schema, some 270 KB) with it.
 */
import type { DatabaseSync } from "node:sqlite";
import { InputError } from "../../errors.ts";

export interface StoreColumns {
  sessions: Set<string>;
  messages: Set<string>;
}

/** Both tables' columns in one query; a database without them is not a Hermes store. */
export function storeColumns(db: DatabaseSync, path: string): StoreColumns {
  const rows = db.prepare(
    "SELECT m.name AS tbl, p.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) p " +
      "WHERE m.type = 'table' AND m.name IN ('sessions', 'messages')",
  ).all() as { tbl: string; col: string }[];
  const columns: StoreColumns = { sessions: new Set(), messages: new Set() };
  for (const r of rows) columns[r.tbl as keyof StoreColumns].add(r.col);
  for (const table of ["sessions", "messages"] as const) {
    if (!columns[table].size) {
      throw new InputError(`${path}: no table ${table} (not a Hermes state database)`);
    }
  }
  return columns;
}

/** Conditions that keep subagent (`_delegate_from`), /branch (`_branched_from`) and tool children out of a chain. */
export function continuationFilter(alias: string, columns: StoreColumns): string {
  const config = columns.sessions.has("model_config") ? `COALESCE(${alias}.model_config, '{}')` : "'{}'";
  return `json_extract(${config}, '$._branched_from') IS NULL AND json_extract(${config}, '$._delegate_from') IS NULL` +
    ` AND COALESCE(${alias}.source, '') != 'tool'`;
}
