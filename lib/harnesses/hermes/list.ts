/**
 * Listing: two queries per `state.db` (the columns, then every conversation), whatever the number of
 * sessions. A compression chain is one conversation, shown as Hermes shows it: at its root's place under its
 * live tip's id. Subagent runs and compression continuations are not conversations of their own; /branch
 * children are. Legacy files whose session the database does not know are listed after it.
 */
import { readdirSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type { SessionSummary } from "../types.ts";
import { openReadOnly } from "../../store/sqlite.ts";
import { directoryIfPresent, regularFileIfPresent } from "../../io/file-kind.ts";
import { titleLine } from "../../ir/summary.ts";
import { continuationFilter, type StoreColumns, storeColumns } from "./columns.ts";
import { hermesHomes, legacySessionsDir, sessionLocator, stateDbPath } from "./profiles.ts";
import { hermesFileComponent } from "./ids.ts";
import { assertStoredTime } from "../../ir/clock.ts";
import { activityTime } from "../updated.ts";
import { lastLineWhere } from "../../io/last-line.ts";
import { objectOfLine } from "../../io/json.ts";
import { localIsoSeconds } from "./local-time.ts";
import { storesParts } from "./content.ts";

interface ListedRow {
  id: string;
  title: string | null;
  cwd: string | null;
  last_active: number | null;
  started_at: number;
  messages: number;
  preview: string | null;
  archived: number;
}

export function listHermes(hermesHome: string): SessionSummary[] {
  return hermesHomes(hermesHome).flatMap(({ dir }) => {
    const db = stateDbPath(dir);
    const rows = regularFileIfPresent(db) ? listDatabase(db) : [];
    const known = new Set(rows.map((r) => r.id));
    return [...rows, ...listLegacyFiles(dir, known)];
  });
}

function listDatabase(path: string): SessionSummary[] {
  const db = openReadOnly(path);
  try {
    const columns = storeColumns(db, path);
    return (db.prepare(listingSql(columns)).all() as unknown as ListedRow[]).map((r) => {
      const where = `${path}: sessions row ${JSON.stringify(r.id)}`;
      assertStoredTime(r.started_at, 1000, where, "started_at");
      assertStoredTime(r.last_active, 1000, where, "last_active");
      const updatedAt = activityTime((r.last_active ?? r.started_at) * 1000);
      return {
        harness: "hermes" as const,
        id: r.id,
        path: sessionLocator(path, r.id),
        ...(r.cwd ? { cwd: r.cwd } : {}),
        ...(r.title || r.preview ? { title: r.title || titleLine(r.preview!) } : {}),
        ...(updatedAt ? { updatedAt } : {}),
        messages: r.messages,
        ...(r.archived ? { archived: true } : {}),
      };
    });
  } finally {
    db.close();
  }
}

/**
 * Roots and /branch children, each projected to its compression tip (deepest continuation). The last time and
 * the count come from one pass over Hermes's index on messages ((session_id, active, timestamp), or
 * (session_id, timestamp) before `active`) for the tips alone, without visiting a row, so the query reads that
 * index and one row per session (its preview) however long the sessions are; cold, reading every row for its
 * `role` (in no index) took seconds over a few hundred MB, and taking the time from the second index besides
 * read a quarter more pages. So the count is the live rows, the gateway's `session_meta` marker included, as
 * Hermes counts them itself (`sessions.message_count`, shown as "Messages:"; its gateway bumps that count for
 * the marker too). Hermes's column itself is not used: rows another tool inserted leave it behind.
 */
function listingSql(columns: StoreColumns): string {
  const has = (c: string) => columns.sessions.has(c);
  const live = columns.messages.has("active");
  const active = live ? " AND m.active = 1" : "";
  const config = (alias: string) => (has("model_config") ? `COALESCE(${alias}.model_config, '{}')` : "'{}'");
  const branch =
    `json_extract(${config("s")}, '$._branched_from') IS NOT NULL OR EXISTS (SELECT 1 FROM sessions p ` +
    `WHERE p.id = s.parent_session_id AND p.end_reason = 'branched' AND s.started_at >= p.ended_at)`;
  return `
    WITH RECURSIVE chain(root_id, cur_id, depth) AS (
      SELECT s.id, s.id, 0 FROM sessions s
      WHERE (s.parent_session_id IS NULL OR ${branch})
        AND json_extract(${config("s")}, '$._delegate_from') IS NULL
      UNION ALL
      SELECT c.root_id, child.id, c.depth + 1 FROM chain c
      JOIN sessions parent ON parent.id = c.cur_id
      JOIN sessions child ON child.parent_session_id = c.cur_id
      WHERE parent.end_reason = 'compression' AND ${continuationFilter("child", columns)} AND c.depth < 100
    ),
    tips AS (SELECT root_id, cur_id AS tip_id, MAX(depth) FROM chain GROUP BY root_id),
    counted AS (SELECT m.session_id, MAX(m.timestamp) AS last_active,
        ${live ? "COUNT(CASE WHEN m.active = 1 THEN 1 END)" : "COUNT(*)"} AS messages
      FROM messages m WHERE m.session_id IN (SELECT tip_id FROM tips) GROUP BY m.session_id)
    SELECT tip.id AS id, ${has("title") ? "tip.title" : "NULL"} AS title, ${
    has("cwd") ? "tip.cwd" : "NULL"
  } AS cwd,
      root.started_at AS started_at, ${has("archived") ? "root.archived" : "0"} AS archived,
      counted.last_active AS last_active, COALESCE(counted.messages, 0) AS messages,
      (SELECT SUBSTR(m.content, 1, 200) FROM messages m
        WHERE m.session_id = tip.id AND m.role = 'user' AND m.content IS NOT NULL${active}
          AND NOT ${storesParts("m.content")}
        ORDER BY m.timestamp, m.id LIMIT 1) AS preview
    FROM tips t JOIN sessions tip ON tip.id = t.tip_id JOIN sessions root ON root.id = t.root_id
      LEFT JOIN counted ON counted.session_id = tip.id`;
}

/** Legacy transcripts and snapshots of sessions the database does not hold (pruned, or copied in). */
function listLegacyFiles(home: string, known: Set<string>): SessionSummary[] {
  const dir = legacySessionsDir(home);
  if (!directoryIfPresent(dir)) return [];
  const byId = new Map<string, string>();
  // Hermes names a session's files by a path-safe form of its id (`gw:dm 1` -> `gw_dm_1_<hash>`).
  const knownNames = new Set([...known].map(hermesFileComponent));
  for (const name of readdirSync(dir).sort()) {
    const id = name.endsWith(".jsonl")
      ? basename(name, ".jsonl")
      : /^session_.+\.json$/.test(name)
      ? basename(name, ".json").slice("session_".length)
      : undefined;
    // A transcript and a snapshot of one session: the transcript (sorted first) is the fuller record.
    if (id && !known.has(id) && !knownNames.has(id) && !byId.has(id)) byId.set(id, join(dir, name));
  }
  return [...byId].map(([id, path]) => ({
    harness: "hermes",
    id,
    path,
    updatedAt: (path.endsWith(".jsonl") ? lastTranscriptMessage(path) : undefined) ??
      statSync(path).mtime.toISOString(),
  }));
}

/** The bytes every timestamped line holds: other lines are not decoded. */
const TIMESTAMP_MARK = Buffer.from('"timestamp"');

/**
 * The time of a legacy transcript's last message, read from its end (its first line, `session_meta`, is none).
 * A snapshot is one JSON document, read whole only when it is loaded: it is dated by its file's time.
 */
function lastTranscriptMessage(path: string): string | undefined {
  return lastLineWhere(path, (line) => {
    if (!line.includes(TIMESTAMP_MARK)) return undefined;
    const record = objectOfLine(line.toString("utf8"));
    if (!record || record.role === "session_meta") return undefined;
    const seconds = localIsoSeconds(record.timestamp);
    return seconds === undefined ? undefined : activityTime(seconds * 1000);
  }).value;
}
