/**
 * Copilot CLI's global index, `<home>/session-store.db` (schema_version 8 in 1.0.102): what its `/chronicle`
 * commands, its `session_store_sql` tool and its search read. It is not what the session list or `--resume`
 * read (they read the session folders: checked on the binary), and Copilot fills it only as a session runs or
 * when `/chronicle reindex` rebuilds it from the folders. A handoff writes the rows that reindex would make of
 * the session (checked on the binary, field by field, in tests/copilot-cli-golden.test.ts):
 *
 *   sessions      {id, cwd, summary: the workspace's name, created_at, updated_at: the workspace's times}
 *   turns         one per prompt: {turn_index, user_message, assistant_response: its last answer, timestamp}
 *   search_index  one per turn (FTS5): {content: prompt and answer, session_id, source_type "turn",
 *                 source_id "<id>:turn:<n>"}
 */
import type { DatabaseSync } from "node:sqlite";
import { join } from "node:path";
import { InputError } from "../../errors.ts";
import { hasTable, insertRow, type Row, tableColumns } from "../../store/sqlite.ts";
import type { KeyedRows } from "../../store/rows.ts";
import type { IndexedTurn } from "./encode.ts";

export const sessionIndexPath = (home: string): string => join(home, "session-store.db");

/** The index schema these rows are made for. */
export const INDEX_SCHEMA_VERSION = 8;

/** The tables a session is rows of, with the columns the rows fill. */
const TABLES = {
  sessions: ["id", "cwd", "summary", "created_at", "updated_at"],
  turns: ["session_id", "turn_index", "user_message", "assistant_response", "timestamp"],
  search_index: ["content", "session_id", "source_type", "source_id"],
} as const;

/**
 * The rows a handoff inserts, as the write-ahead intent and the undo ledger name them: turns and search
 * entries before the session row they reference.
 */
export const indexRows = (database: string, id: string): KeyedRows[] => [
  { database, table: "search_index", key: { session_id: id } },
  { database, table: "turns", key: { session_id: id } },
  { database, table: "sessions", key: { id } },
];

/** Refuses (as bad store input) an index this writer does not know: another schema, or its tables altered. */
export function checkIndex(db: DatabaseSync, database: string): void {
  if (!hasTable(db, "schema_version")) {
    throw new InputError(`${database}: no table schema_version (not a GitHub Copilot CLI session store)`);
  }
  const row = db.prepare("SELECT max(version) AS version FROM schema_version").get() as Row | undefined;
  if (Number(row?.version) !== INDEX_SCHEMA_VERSION) {
    throw new InputError(
      `${database}: session store schema version ${String(row?.version)} (session-bridge writes version ` +
        `${INDEX_SCHEMA_VERSION})`,
    );
  }
  for (const [table, wanted] of Object.entries(TABLES)) {
    const have = new Set(tableColumns(db, table).map((c) => c.name));
    if (!have.size) {
      throw new InputError(`${database}: no table ${table} (not a GitHub Copilot CLI session store)`);
    }
    const missing = wanted.find((c) => !have.has(c));
    if (missing) throw new InputError(`${database}: missing column ${table}.${missing}`);
  }
}

export const indexedSession = (db: DatabaseSync, id: string): boolean =>
  !!db.prepare("SELECT 1 FROM sessions WHERE id = ?").get(id);

/** What --force replaces: the session's row, its turns and its search entries. */
export function removeIndexed(db: DatabaseSync, id: string): void {
  for (const { table, key } of indexRows("", id)) {
    const [column, value] = Object.entries(key)[0]!;
    db.prepare(`DELETE FROM ${table} WHERE ${column} = ?`).run(value);
  }
}

/** The session's own row: its workspace's name and times. Plain data (a worker thread may insert it). */
export interface IndexedSessionRow {
  id: string;
  cwd: string;
  name: string;
  startTime: string;
  updatedAt: string;
}

/** The session's rows, as `/chronicle reindex` makes them of its folder; returns how many of each. */
export function insertIndexed(
  db: DatabaseSync,
  session: IndexedSessionRow,
  turns: Iterable<IndexedTurn>,
): IndexedCounts {
  insertSessionRow(db, session);
  return indexedCounts(insertTurns(db, session.id, turns, 0));
}

/** How many rows of each table a session is. */
export type IndexedCounts = Record<keyof typeof TABLES, number>;

export const indexedCounts = (turns: number): IndexedCounts => ({
  sessions: 1,
  turns,
  search_index: turns,
});

export function insertSessionRow(
  db: DatabaseSync,
  { id, cwd, name, startTime, updatedAt }: IndexedSessionRow,
): void {
  insertRow(db, "sessions", { id, cwd, summary: name, created_at: startTime, updated_at: updatedAt });
}

/** The session's turns from its `from`th on, each with its search entry; returns how many. */
export function insertTurns(
  db: DatabaseSync,
  id: string,
  turns: Iterable<IndexedTurn>,
  from: number,
): number {
  let index = from;
  for (const turn of turns) {
    insertRow(db, "turns", {
      session_id: id,
      turn_index: index,
      user_message: turn.userMessage,
      assistant_response: turn.assistantResponse,
      timestamp: turn.timestamp,
    });
    insertRow(db, "search_index", {
      content: `${turn.userMessage}\n${turn.assistantResponse}`,
      session_id: id,
      source_type: "turn",
      source_id: `${id}:turn:${index}`,
    });
    index++;
  }
  return index - from;
}
