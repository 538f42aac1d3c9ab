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
import { ALL_EVERY, garbagePacer, YOUNG_EVERY } from "../../io/garbage.ts";
import type { Row } from "../../store/sqlite.ts";
import { IndexedMessages, type Whole } from "./message-index.ts";
import type { SessionRow, SessionTree, StoredMessage, StoredSession } from "./stored.ts";
import { assertOpenCodeTables } from "./tables.ts";

/** How deep subagents of subagents are followed (OpenCode denies a subagent's own task calls by default). */
const SUBAGENT_DEPTH = 8;

/** The session `id` and everything it holds; bad input when the database has no such session. */
export function storedSession(db: DatabaseSync, database: string, id: string): StoredSession {
  return sessionTree(db, database, id, readMessages);
}

/**
 * The session `id` indexed for a streamed read: every message's fields the thread's splits read (decode.ts),
 * and its parts' facts, found by SQLite's JSON functions (no data parsed here), kept in columns
 * (message-index.ts) with how many parts it has; `wholeMessages` reads each again, whole.
 */
export function indexedSession(
  db: DatabaseSync,
  database: string,
  id: string,
): SessionTree<IndexedMessages> {
  return sessionTree(db, database, id, indexMessages);
}

/**
 * Storage bytes of a session's own rows' data: what decides whether it is read streamed. octet_length reads a
 * value's size from its record header; length would read and count the characters of every row's JSON.
 */
export function storedBytes(db: DatabaseSync, id: string): number {
  const sum = (table: string) =>
    Number(
      (db.prepare(`SELECT coalesce(sum(octet_length(data)), 0) AS n FROM ${table} WHERE session_id = ?`)
        .get(id) as Row).n,
    );
  return sum("message") + sum("part");
}

type MessagesReader<M> = (db: DatabaseSync, database: string, row: Row) => M;

function sessionTree<M>(
  db: DatabaseSync,
  database: string,
  id: string,
  messages: MessagesReader<M>,
): SessionTree<M> {
  assertOpenCodeTables(db, database);
  const session = readSession(db, database, id, new Set(), 0, messages);
  if (!session) throw new InputError(`${database}: no session ${JSON.stringify(id)}`);
  return session;
}

function readSession<M>(
  db: DatabaseSync,
  database: string,
  id: string,
  seen: Set<string>,
  depth: number,
  messages: MessagesReader<M>,
): SessionTree<M> | undefined {
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

/** A session's messages in OpenCode's order, their parts not yet read. */
function messageRows(db: DatabaseSync, database: string, sessionId: string): StoredMessage[] {
  const rows = db.prepare(
    "SELECT id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id",
  ).iterate(sessionId) as Iterable<Row>;
  const messages: StoredMessage[] = [];
  for (const r of rows) {
    const id = String(r.id);
    messages.push({
      id,
      time_created: messageTime(r.time_created, database, id),
      data: dataOf(r.data, database, "message", id),
      parts: [],
    });
  }
  return messages;
}

/** A message row's creation time, checked (bad input naming the row when it is none). */
function messageTime(value: unknown, database: string, id: string): number {
  assertStoredTime(value, 1, `${database}: message row ${JSON.stringify(id)}`, "time_created");
  return value as number;
}

/**
 * Indexed messages (indexedSession) read again, whole, one at a time, as storedSession reads them: a message
 * gone, or with fewer parts than were indexed, is bad input naming the database; parts added since are not
 * read. Its young garbage is collected as it goes (lib/io/garbage.ts): each message is made into others and
 * dropped.
 */
export function wholeMessages(db: DatabaseSync, database: string): Whole<IndexedMessages> {
  const message = db.prepare("SELECT data FROM message WHERE id = ? AND session_id = ?");
  const parts = db.prepare("SELECT id, data FROM part WHERE message_id = ? AND session_id = ? ORDER BY id");
  const collect = garbagePacer(YOUNG_EVERY, ALL_EVERY);
  return (index, i, sessionId) => {
    const id = index.id(i);
    const changed = () =>
      new InputError(
        `${database}: session ${JSON.stringify(sessionId)} changed while it was read (message ${
          JSON.stringify(id)
        })`,
      );
    const row = message.get(id, sessionId) as Row | undefined;
    if (!row) throw changed();
    const rows = parts.all(id, sessionId) as Row[];
    const count = index.partCount(i);
    if (rows.length < count) throw changed();
    let bytes = 0;
    const data = dataOf(row.data, database, "message", id);
    const read = rows.slice(0, count).map((r) => {
      const partId = String(r.id);
      bytes += (r.data as string).length;
      return { id: partId, data: dataOf(r.data, database, "part", partId) };
    });
    collect(bytes + (row.data as string).length);
    return { id, time_created: index.time(i), data, parts: read };
  };
}

/**
 * A part field as JavaScript's truthiness would find it, computed by SQLite (its JSON functions yield 0 and 1
 * for JSON's false and true, and a document's text for an object: neither what the parsed value would be).
 * Data that is no JSON gives nothing here: reading the part whole names it as bad input.
 */
const truthy = (data: string, path: string) => {
  const [type, value] = [`json_type(${data}, '${path}')`, `json_extract(${data}, '${path}')`];
  return `CASE WHEN NOT json_valid(${data}) THEN 0 WHEN ${type} IN ('true', 'array', 'object') THEN 1 ` +
    `WHEN ${type} IN ('integer', 'real') THEN ${value} <> 0 ` +
    `WHEN ${type} = 'text' THEN length(${value}) > 0 ELSE 0 END`;
};
/** A field that is a string, else nothing. */
const text = (data: string, path: string) =>
  `CASE WHEN json_valid(${data}) AND json_type(${data}, '${path}') = 'text' ` +
  `THEN json_extract(${data}, '${path}') END`;

/**
 * Every message's fields the splits read (decode.ts): its role and parent (strings, or nothing: all they
 * compare), whether it is a summary (`true`), has finished and has failed (truthiness); then each of its parts'
 * (a row each, none for a message of none), in order. The part's session is compared, not searched (`+`):
 * SQLite 3.53 otherwise looks each message's parts up among all the session's, scanning them once a message.
 */
const INDEXED = `SELECT m.id, m.time_created, ${text("m.data", "$.role")} AS role, ` +
  `${text("m.data", "$.parentID")} AS parent, ` +
  `(json_valid(m.data) AND json_type(m.data, '$.summary') = 'true') AS summary, ` +
  `${truthy("m.data", "$.finish")} AS finish, ${truthy("m.data", "$.error")} AS error, ` +
  `p.id AS part, ${text("p.data", "$.type")} AS type, ${text("p.data", "$.tail_start_id")} AS tail, ` +
  `${truthy("p.data", "$.synthetic")} AS synthetic, ${truthy("p.data", "$.ignored")} AS ignored, ` +
  `(${text("p.data", "$.text")}) <> '' AS said ` +
  "FROM message m LEFT JOIN part p ON p.message_id = m.id AND +p.session_id = m.session_id " +
  "WHERE m.session_id = ? ORDER BY m.time_created, m.id, p.id";

function indexMessages(db: DatabaseSync, database: string, session: Row): IndexedMessages {
  const index = new IndexedMessages();
  let last: unknown;
  for (const r of db.prepare(INDEXED).iterate(String(session.id)) as Iterable<Row>) {
    // A message's row comes again with each of its parts after the first.
    if (index.length === 0 || r.id !== last) {
      const id = String(r.id);
      index.message(id, messageTime(r.time_created, database, id), {
        role: r.role,
        parent: r.parent,
        summary: r.summary === 1,
        finished: r.finish === 1,
        failed: r.error === 1,
      });
      last = r.id;
    }
    if (r.part !== null) index.part(r.type, r.tail, r.synthetic === 1, r.ignored === 1, r.said === 1);
  }
  return index.end();
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
