/**
 * Listing OpenCode's conversations as `opencode session list` shows them: one query over `opencode.db`, however
 * many sessions it holds. Sessions a task call started (a `parent_id`) are part of their parent, not listed.
 * Each is titled by its title, else (a title request never answered) by the first words the user typed, dated
 * by its newest message (a title, a share or an archive touches the session row), in its directory. A missing
 * database is an empty store; one that cannot be read fails naming it, alone.
 */
import type { ListingPart, SessionSummary, StoreListing } from "../types.ts";
import { openReadOnly } from "../../store/sqlite.ts";
import { sessionLocator } from "../locator.ts";
import { regularFileIfPresent } from "../../io/file-kind.ts";
import { fileStamp } from "../../io/file-stamp.ts";
import { assertStoredTime } from "../../ir/clock.ts";
import { activityTime } from "../updated.ts";
import { titleLine } from "../../ir/summary.ts";
import { assertOpenCodeTables } from "./tables.ts";
import { openCodeDatabase } from "./resume.ts";

interface ListedRow {
  id: string;
  title: string;
  directory: string;
  time_updated: number;
  time_archived: number | null;
  last_message: number | null;
  messages: number;
  typed: string | null;
}

/**
 * OpenCode's placeholder titles (`New session - <time>`), matched as its own title check does: the first words
 * the user typed stand for them. The first text part of a user message that is neither synthetic nor ignored is
 * found through the message index, whatever the session's length.
 */
const LISTING_SQL = `
  SELECT s.id, s.title, s.directory, s.time_updated, s.time_archived,
    (SELECT MAX(m.time_created) FROM message m WHERE m.session_id = s.id) AS last_message,
    (SELECT COUNT(*) FROM message m WHERE m.session_id = s.id) AS messages,
    CASE WHEN s.title GLOB 'New session - [0-9]*' THEN (
      SELECT json_extract(p.data, '$.text') FROM message m JOIN part p ON p.message_id = m.id
      WHERE m.session_id = s.id AND json_valid(m.data) AND json_extract(m.data, '$.role') = 'user'
        AND json_valid(p.data) AND json_extract(p.data, '$.type') = 'text'
        AND json_type(p.data, '$.text') = 'text'
        AND COALESCE(json_extract(p.data, '$.synthetic'), 0) = 0
        AND COALESCE(json_extract(p.data, '$.ignored'), 0) = 0
      ORDER BY m.time_created, m.id, p.id LIMIT 1) END AS typed
  FROM session s WHERE s.parent_id IS NULL`;

export function listOpenCode(home: string): SessionSummary[] {
  const database = openCodeDatabase(home);
  if (!regularFileIfPresent(database)) return [];
  const db = openReadOnly(database);
  try {
    assertOpenCodeTables(db, database);
    return (db.prepare(LISTING_SQL).all() as unknown as ListedRow[]).map((r) => {
      const where = `${database}: session row ${JSON.stringify(r.id)}`;
      assertStoredTime(r.time_updated, 1, where, "time_updated");
      assertStoredTime(r.last_message, 1, where, "a message's time_created");
      const title = typeof r.typed === "string" ? titleLine(r.typed) : titleLine(String(r.title ?? ""));
      const updatedAt = activityTime(r.last_message ?? r.time_updated);
      return {
        harness: "opencode",
        id: String(r.id),
        path: sessionLocator(database, String(r.id)),
        ...(typeof r.directory === "string" && r.directory ? { cwd: r.directory } : {}),
        ...(title ? { title } : {}),
        ...(updatedAt ? { updatedAt } : {}),
        messages: Number(r.messages),
        ...(r.time_archived !== null && r.time_archived !== undefined ? { archived: true } : {}),
      };
    });
  } finally {
    db.close();
  }
}

/**
 * The database is one part for the listing cache: one query lists it whole. Its stamp covers the database and
 * its WAL, where a running OpenCode's writes land before a checkpoint.
 */
export function openCodeListingParts(home: string): ListingPart[] {
  const database = openCodeDatabase(home);
  return [{
    key: "database",
    stamp: [fileStamp(database), fileStamp(`${database}-wal`)].join("|"),
    list: () => Promise.resolve().then(() => listOpenCode(home)),
  }];
}

/** What the descriptor's store loads to list (lib/harnesses/lazy-store.ts). */
export const listing: StoreListing = { list: listOpenCode, listingParts: openCodeListingParts };
