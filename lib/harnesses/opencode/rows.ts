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
import { isObject, type Json, MAX_JSON_DEPTH, nestsDeeperThan, parseEmbeddedJson } from "../../io/json.ts";
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
  /**
   * Indexed (indexedSession): its first `partCount` parts are its own, not listed in `parts` (nothing that
   * splits the thread reads them); absent, `parts` lists them.
   */
  partCount?: number;
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
  return sessionTree(db, database, id, readMessages);
}

/**
 * The session `id` indexed for a streamed read: every message as the thread's splits read it (decode.ts), its
 * data cut to the fields they use and its parts listed (each cut the same way, by SQLite's JSON functions, not
 * parsed here) only where they read them: a user message's, and the message a pending revert names. Every
 * other message keeps only how many parts it has; `wholeMessages` reads them again, whole.
 */
export function indexedSession(db: DatabaseSync, database: string, id: string): StoredSession {
  return sessionTree(db, database, id, indexMessages);
}

/** Storage bytes of a session's own rows' data: what decides whether it is read streamed. */
export function storedBytes(db: DatabaseSync, id: string): number {
  const sum = (table: string) =>
    Number(
      (db.prepare(`SELECT coalesce(sum(length(data)), 0) AS n FROM ${table} WHERE session_id = ?`)
        .get(id) as Row).n,
    );
  return sum("message") + sum("part");
}

type MessagesReader = (db: DatabaseSync, database: string, row: Row) => StoredMessage[];

function sessionTree(
  db: DatabaseSync,
  database: string,
  id: string,
  messages: MessagesReader,
): StoredSession {
  assertOpenCodeTables(db, database);
  const session = readSession(db, database, id, new Set(), 0, messages);
  if (!session) throw new InputError(`${database}: no session ${JSON.stringify(id)}`);
  return session;
}

function readSession(
  db: DatabaseSync,
  database: string,
  id: string,
  seen: Set<string>,
  depth: number,
  messages: MessagesReader,
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
    messages: messages(db, database, row),
    subagents: children.flatMap((child) => readSession(db, database, child, seen, depth + 1, messages) ?? []),
  };
}

function readMessages(db: DatabaseSync, database: string, session: Row): StoredMessage[] {
  const sessionId = String(session.id);
  const messages = messageRows(db, database, sessionId);
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

/**
 * A session's messages in OpenCode's order, their parts not yet read, each one's data made by `data` of the
 * row's `columns` (the data parsed, or an index's fields: read row by row, never every row's data at once).
 */
function messageRows(
  db: DatabaseSync,
  database: string,
  sessionId: string,
  data: (r: Row, id: string) => Json = (r, id) => dataOf(r.data, database, "message", id),
  columns = "data",
): StoredMessage[] {
  const rows = db.prepare(
    `SELECT id, time_created, ${columns} FROM message WHERE session_id = ? ORDER BY time_created, id`,
  ).iterate(sessionId) as Iterable<Row>;
  const messages: StoredMessage[] = [];
  for (const r of rows) {
    const id = String(r.id);
    assertStoredTime(r.time_created, 1, `${database}: message row ${JSON.stringify(id)}`, "time_created");
    messages.push({
      id,
      time_created: r.time_created as number,
      data: data(r, id),
      parts: [],
    });
  }
  return messages;
}

/**
 * Indexed messages (indexedSession) read again, whole, one at a time, as storedSession reads them: a message
 * or a part indexed that is gone is bad input naming the database; parts added since are not read.
 */
export function wholeMessages(
  db: DatabaseSync,
  database: string,
): (m: StoredMessage, sessionId: string) => StoredMessage {
  const message = db.prepare("SELECT data FROM message WHERE id = ? AND session_id = ?");
  const parts = db.prepare("SELECT id, data FROM part WHERE message_id = ? AND session_id = ? ORDER BY id");
  return (m, sessionId) => {
    const changed = () =>
      new InputError(
        `${database}: session ${JSON.stringify(sessionId)} changed while it was read (message ${
          JSON.stringify(m.id)
        })`,
      );
    const row = message.get(m.id, sessionId) as Row | undefined;
    if (!row) throw changed();
    const rows = parts.all(m.id, sessionId) as Row[];
    const byId = new Map(rows.map((r) => [String(r.id), r]));
    const listed = m.partCount === undefined
      ? m.parts.map((p) => byId.get(p.id))
      : rows.slice(0, m.partCount);
    if (listed.length < (m.partCount ?? 0)) throw changed();
    return {
      id: m.id,
      time_created: m.time_created,
      data: dataOf(row.data, database, "message", m.id),
      parts: listed.map((r) => {
        if (!r) throw changed();
        const id = String(r.id);
        return { id, data: dataOf(r.data, database, "part", id) };
      }),
    };
  };
}

/**
 * A part field as JavaScript's truthiness would find it, computed by SQLite (its JSON functions yield 0 and 1
 * for JSON's false and true, and a document's text for an object: neither what the parsed value would be).
 * Data that is no JSON gives nothing here: reading the part whole names it as bad input.
 */
const truthy = (path: string) => {
  const [type, value] = [`json_type(data, '${path}')`, `json_extract(data, '${path}')`];
  return `CASE WHEN NOT json_valid(data) THEN 0 WHEN ${type} IN ('true', 'array', 'object') THEN 1 ` +
    `WHEN ${type} IN ('integer', 'real') THEN ${value} <> 0 ` +
    `WHEN ${type} = 'text' THEN length(${value}) > 0 ELSE 0 END`;
};
const text = (path: string) =>
  `CASE WHEN json_valid(data) AND json_type(data, '${path}') = 'text' THEN json_extract(data, '${path}') END`;

/** Whether a part has text (a string, not empty), as typedText (decode.ts) asks. */
const said = `(${text("$.text")}) <> ''`;

/**
 * Every message's fields the splits read (decode.ts): its role and parent (strings, or nothing: all they
 * compare), whether it is a summary (`true`), has finished and has failed (truthiness), and its error's name.
 */
const INDEXED_MESSAGE = `${text("$.role")} AS role, ${text("$.parentID")} AS parent, ` +
  `(json_valid(data) AND json_type(data, '$.summary') = 'true') AS summary, ` +
  `${truthy("$.finish")} AS finish, ${truthy("$.error")} AS error, ${text("$.error.name")} AS error_name`;

/** Every part's fields the splits read. */
const INDEXED_PARTS =
  `SELECT id, message_id, ${text("$.type")} AS type, ${text("$.tail_start_id")} AS tail, ` +
  `${truthy("$.synthetic")} AS synthetic, ${truthy("$.ignored")} AS ignored, ${said} AS said ` +
  "FROM part WHERE session_id = ? ORDER BY message_id, id";

function indexMessages(db: DatabaseSync, database: string, session: Row): StoredMessage[] {
  const revert = typeof session.revert === "string" ? parseEmbeddedJson(session.revert) : undefined;
  const named = isObject(revert) && typeof revert.messageID === "string" ? revert.messageID : undefined;
  const messages = messageRows(db, database, String(session.id), indexedMessage, INDEXED_MESSAGE);
  const byId = new Map(messages.map((m) => [m.id, m]));
  for (const m of messages) if (m.data.role !== "user" && m.id !== named) m.partCount = 0;
  for (const r of db.prepare(INDEXED_PARTS).iterate(String(session.id)) as Iterable<Row>) {
    const m = byId.get(String(r.message_id));
    if (!m) continue;
    if (m.partCount !== undefined) m.partCount++;
    else m.parts.push({ id: String(r.id), data: indexedPart(r) });
  }
  return messages;
}

/** A message's indexed fields as its data (what it is not, absent). */
function indexedMessage(r: Row): Json {
  const data: Json = {};
  if (typeof r.role === "string") data.role = r.role;
  if (typeof r.parent === "string") data.parentID = r.parent;
  if (r.summary === 1) data.summary = true;
  if (r.finish === 1) data.finish = true;
  if (r.error === 1) data.error = typeof r.error_name === "string" ? { name: r.error_name } : true;
  return data;
}

/** A part's indexed fields as its data: its text stands in by whether it has any (all the splits ask). */
function indexedPart(r: Row): Json {
  const data: Json = {
    synthetic: r.synthetic === 1,
    ignored: r.ignored === 1,
    text: r.said === 1 ? "…" : "",
  };
  if (typeof r.type === "string") data.type = r.type;
  if (typeof r.tail === "string") data.tail_start_id = r.tail;
  return data;
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
