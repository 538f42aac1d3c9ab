/**
 * Reading one conversation's rows from `opencode.db`, read-only (lib/store/sqlite.ts: a read-only connection
 * never checkpoints the WAL of a database a running OpenCode holds open). A session is its `session` row, its
 * `message` rows in OpenCode's order (time_created, id), each with its `part` rows in id order, and the sessions
 * its task calls started (`parent_id` naming it). Each `data` column is JSON; one that is not is bad input
 * naming the database and row. Pure data out: decode.ts makes the IR of it.
 */
import type { DatabaseSync } from "node:sqlite";
import { InputError } from "../../errors.ts";
import { assertStoredTime } from "../../ir/clock.ts";
import { isObject, type Json, MAX_JSON_DEPTH, nestsDeeperThan } from "../../io/json.ts";
import type { Row } from "../../store/sqlite.ts";
import { assertOpenCodeTables } from "./tables.ts";

/** The `session` columns the reader uses (1.18.33's names). */
export interface SessionRow {
  id: string;
  parent_id: string | null;
  title: string;
  directory: string;
  version: string;
  /** JSON `{messageID, partID?, snapshot?, diff?}` while a revert (/undo) is pending, else null. */
  revert: string | null;
  /** JSON `{id, providerID, variant?}`: the model the session runs on. */
  model: string | null;
  /** JSON `[{permission, pattern, action}]`: the session's own permission rules, over its agent's. */
  permission: string | null;
  cost: number;
  tokens_input: number;
  tokens_output: number;
  tokens_cache_read: number;
  tokens_cache_write: number;
  time_created: number;
  time_updated: number;
  time_archived: number | null;
}

export interface StoredPart {
  id: string;
  data: Json;
}

export interface StoredMessage {
  id: string;
  time_created: number;
  data: Json;
  parts: StoredPart[];
}

export interface StoredSession {
  /** The database, as errors and locators name it. */
  database: string;
  row: SessionRow;
  messages: StoredMessage[];
  /** Sessions a task call of this one started, each with its own. */
  subagents: StoredSession[];
}

/** How deep subagents of subagents are followed (OpenCode denies a subagent's own task calls by default). */
const SUBAGENT_DEPTH = 8;

/** The session `id` and everything it holds; bad input when the database has no such session. */
export function storedSession(db: DatabaseSync, database: string, id: string): StoredSession {
  assertOpenCodeTables(db, database);
  const session = readSession(db, database, id, new Set(), 0);
  if (!session) throw new InputError(`${database}: no session ${JSON.stringify(id)}`);
  return session;
}

function readSession(
  db: DatabaseSync,
  database: string,
  id: string,
  seen: Set<string>,
  depth: number,
): StoredSession | undefined {
  const row = db.prepare("SELECT * FROM session WHERE id = ?").get(id) as Row | undefined;
  if (!row) return undefined;
  seen.add(id);
  const where = `${database}: session row ${JSON.stringify(id)}`;
  for (const column of ["time_created", "time_updated", "time_archived"]) {
    assertStoredTime(row[column], 1, where, column);
  }
  const children = depth < SUBAGENT_DEPTH
    ? (db.prepare("SELECT id FROM session WHERE parent_id = ? ORDER BY time_created, id").all(id) as Row[])
      .map((r) => String(r.id)).filter((child) => !seen.has(child))
    : [];
  return {
    database,
    row: row as unknown as SessionRow,
    messages: readMessages(db, database, id),
    subagents: children.flatMap((child) => readSession(db, database, child, seen, depth + 1) ?? []),
  };
}

function readMessages(db: DatabaseSync, database: string, sessionId: string): StoredMessage[] {
  const messages = (db.prepare(
    "SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id",
  ).all(sessionId) as Row[]).map((r): StoredMessage => {
    const id = String(r.id);
    assertStoredTime(r.time_created, 1, `${database}: message row ${JSON.stringify(id)}`, "time_created");
    return {
      id,
      time_created: r.time_created as number,
      data: dataOf(r.data, database, "message", id),
      parts: [],
    };
  });
  const byId = new Map(messages.map((m) => [m.id, m]));
  const parts = db.prepare(
    "SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id",
  )
    .all(sessionId) as Row[];
  for (const r of parts) {
    const id = String(r.id);
    // A part of a message this session does not hold (deleted under it) belongs to nothing OpenCode shows.
    byId.get(String(r.message_id))?.parts.push({ id, data: dataOf(r.data, database, "part", id) });
  }
  return messages;
}

/** A `data` column's JSON object; anything else is bad input naming the row. */
function dataOf(value: unknown, database: string, table: string, id: string): Json {
  const where = `${database}: ${table} row ${JSON.stringify(id)}`;
  if (typeof value !== "string") throw new InputError(`${where}: data is not text`);
  if (nestsDeeperThan(value)) {
    throw new InputError(`${where}: data nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new InputError(`${where}: data is not JSON (${(error as Error).message})`);
  }
  if (!isObject(parsed)) throw new InputError(`${where}: data is not a JSON object`);
  return parsed;
}
