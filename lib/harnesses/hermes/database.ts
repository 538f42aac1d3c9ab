/**
 * Reading `state.db`: which schema generation it is, which columns it really has, and which rows make up one
 * conversation. Every query here runs on a read-only connection (lib/store/sqlite.ts), which never
 * checkpoints the WAL of a database a running Hermes holds open.
 */
import type { DatabaseSync } from "node:sqlite";
import { InputError } from "../../errors.ts";
import type { DriftEntry } from "../../ir/schema.ts";
import { quoteIdent, type Row } from "../../store/sqlite.ts";
import { assertStoredTime } from "../../ir/clock.ts";
import { type Generation, generationFor } from "./generations.ts";
import { decodeOwnMessage, type HermesMessage, type SessionRecord } from "./message.ts";
import { continuationFilter, type StoreColumns, storeColumns } from "./columns.ts";
import { storesParts } from "./content.ts";

export { continuationFilter, type StoreColumns, storeColumns };

export interface StoreShape {
  columns: StoreColumns;
  schemaVersion: number | undefined;
  generation: Generation;
  /** Columns the generation's schemas do not describe: Hermes added them after our captures. */
  drift: DriftEntry[];
}

export function storeShape(db: DatabaseSync, path: string): StoreShape {
  const columns = storeColumns(db, path);
  const hasVersionTable = !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
    .get("schema_version");
  const version = hasVersionTable
    ? (db.prepare("SELECT MAX(version) AS v FROM schema_version").get() as { v: number | null }).v
    : null;
  const schemaVersion = typeof version === "number" ? version : undefined;
  const generation = generationFor(schemaVersion ?? Number.MAX_SAFE_INTEGER);
  const drift: DriftEntry[] = [];
  for (const table of ["sessions", "messages"] as const) {
    for (const column of columns[table]) {
      if (generation.columns[table].includes(column)) continue;
      drift.push({
        harness: "hermes",
        version: generation.version,
        where: `column:${table}.${column}`,
        problem: `unknown column (schema_version ${schemaVersion ?? "?"})`,
        count: 1,
        examples: [],
      });
    }
  }
  return { columns, schemaVersion, generation, drift };
}

/** The time columns of a sessions row (seconds since the epoch; Hermes writes time.time()). */
const SESSION_TIMES = ["started_at", "ended_at", "last_active"] as const;

function sessionRow(db: DatabaseSync, path: string, id: string): SessionRecord | undefined {
  const row = db.prepare("SELECT * FROM sessions WHERE id = ?").get(id) as Row | undefined;
  if (!row) return undefined;
  const where = `${path}: sessions row ${JSON.stringify(id)}`;
  for (const column of SESSION_TIMES) assertStoredTime(row[column], 1000, where, column);
  return row as unknown as SessionRecord;
}

function hasMessages(db: DatabaseSync, id: string): boolean {
  return !!db.prepare("SELECT 1 FROM messages WHERE session_id = ? LIMIT 1").get(id);
}

/**
 * The rows of the conversation `id` belongs to, root first, live session last, chosen the way
 * `hermes --resume <id>` chooses (SessionDB.resolve_resume_session_id, 0.19.0): follow compression
 * continuations to their tip, then keep walking to the newest non-branch, non-subagent child and settle on
 * the deepest session that has messages. Ancestors are the compression predecessors above `id`.
 */
export function conversationChain(
  db: DatabaseSync,
  path: string,
  id: string,
  columns: StoreColumns,
): SessionRecord[] {
  const start = sessionRow(db, path, id);
  if (!start) throw new InputError(`${path}: no session ${JSON.stringify(id)}`);
  const filter = continuationFilter("child", columns);
  const compressionChild = db.prepare(
    `SELECT child.id AS id FROM sessions parent JOIN sessions child ON child.parent_session_id = parent.id
     WHERE parent.id = ? AND parent.end_reason = 'compression' AND ${filter}
     ORDER BY CASE WHEN child.end_reason = 'compression' THEN 0 WHEN child.ended_at IS NULL THEN 1 ELSE 2 END,
       COALESCE((SELECT MAX(m.timestamp) FROM messages m WHERE m.session_id = child.id), child.started_at) DESC,
       child.started_at DESC, child.id DESC LIMIT 1`,
  );
  const newestChild = db.prepare(
    `SELECT child.id AS id FROM sessions child WHERE child.parent_session_id = ? AND ${filter}
     ORDER BY child.started_at DESC, child.id DESC LIMIT 1`,
  );
  const down: SessionRecord[] = [start];
  const seen = new Set([id]);
  const follow = (query: typeof compressionChild, limit: number): void => {
    for (let hops = 0; hops < limit; hops++) {
      const next = (query.get(down.at(-1)!.id) as Row | undefined)?.id;
      if (typeof next !== "string" || seen.has(next)) return;
      seen.add(next);
      down.push(sessionRow(db, path, next)!);
    }
  };
  follow(compressionChild, 100);
  const tip = down.length;
  follow(newestChild, 32);
  // Past the compression tip, Hermes settles on the deepest session that has messages.
  let live = down.length;
  while (live > tip && !hasMessages(db, down[live - 1]!.id)) live--;
  down.length = live;
  return [...ancestors(db, path, start), ...down];
}

/** Compression predecessors of a session, root first. */
function ancestors(db: DatabaseSync, path: string, session: SessionRecord): SessionRecord[] {
  const out: SessionRecord[] = [];
  const seen = new Set([session.id]);
  for (let row = session; row.parent_session_id && !seen.has(row.parent_session_id);) {
    const parent = sessionRow(db, path, row.parent_session_id);
    if (!parent || parent.end_reason !== "compression") break;
    seen.add(parent.id);
    out.unshift(parent);
    row = parent;
  }
  return out;
}

/**
 * The bytes these sessions' message rows store, every column counted: what decides whether a conversion holds
 * them or streams them. octet_length reads a value's size from its record header, not the value itself.
 */
export function storedBytes(db: DatabaseSync, ids: string[], columns: StoreColumns): number {
  const sizes = [...columns.messages].map((c) => `COALESCE(octet_length(${quoteIdent(c)}), 0)`).join(" + ");
  const row = db.prepare(
    `SELECT SUM(${sizes}) AS bytes FROM messages WHERE session_id IN (${ids.map(() => "?").join(", ")})`,
  ).get(...ids) as { bytes: number | null };
  return row.bytes ?? 0;
}

/** An extra result column: a message's content as bytes, when it is multimodal. */
const RAW = "_session_bridge_content_bytes";

/** Message rows fetched per query: a long session streams in pages, never all at once. */
const PAGE_ROWS = 500;

/**
 * Every message row of these sessions in Hermes's order (insertion id), inactive rows included, decoded.
 * Multimodal content starts with a NUL byte (`"\x00json:"`), which some SQLite bindings (Deno's) cut text at,
 * so such content is also fetched as bytes. Pages are read with all(), not iterate(): Deno's iterate() ends
 * silently at a damaged page or a value it cannot convert, which would read as a shorter conversation.
 */
export function* chainMessages(db: DatabaseSync, path: string, ids: string[]): Generator<HermesMessage> {
  const last = db.prepare(
    `SELECT MAX(id) AS last FROM messages WHERE session_id IN (${placeholders(ids.length)})`,
  )
    .get(...ids) as { last: number | bigint | null };
  if (last.last === null) return;
  const statement = db.prepare(chainPageSql(ids.length));
  for (let after = Number.MIN_SAFE_INTEGER;;) {
    const rows = statement.all(...ids, after, last.last) as Row[];
    for (const row of rows) {
      // The row is this read's own: the extra column is taken off it rather than every other copied.
      const bytes = row[RAW];
      delete row[RAW];
      assertStoredTime(row.timestamp, 1000, `${path}: messages row ${String(row.id)}`, "timestamp");
      if (bytes instanceof Uint8Array) row.content = Buffer.from(bytes).toString("utf8");
      yield decodeOwnMessage(row);
    }
    if (rows.length < PAGE_ROWS) return;
    after = Number(rows.at(-1)!.id);
  }
}

/**
 * One page of a chain's rows: the next PAGE_ROWS of its sessions after an id, up to the last. NOT INDEXED makes
 * it walk the table by row id from where the page before stopped (rows of other sessions between are stepped
 * over), so each row is visited once over the whole read. Left to itself SQLite takes Hermes's session index,
 * which is not in id order: every page then gathered and sorted all of the session's rows after the id, and a
 * 335,000-row session took 200 s of CPU to read instead of 25.
 */
export function chainPageSql(sessions: number): string {
  return `SELECT *, CASE WHEN ${storesParts("content")} THEN CAST(content AS BLOB) END AS ${RAW}
    FROM messages NOT INDEXED WHERE session_id IN (${placeholders(sessions)}) AND id > ? AND id <= ?
    ORDER BY id LIMIT ${PAGE_ROWS}`;
}

const placeholders = (n: number): string => Array.from({ length: n }, () => "?").join(", ");
