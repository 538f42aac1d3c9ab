/**
 * Listing Codex threads the way Codex shows them: one query over the `threads` index (title = the thread's
 * name, else its preview, as the `codex resume` picker shows it), plus rollout files the index does not know
 * yet (written by an older Codex, or copied in by hand), summarized from their first records. Either is dated
 * by its rollout's last conversation item (lib/harnesses/updated.ts), read from the file's end: the index's
 * `updated_at` is when Codex last wrote the row, after the events that follow the last message (token counts,
 * a turn's end) or behind the rollout when the index lags (0.169.0's captured interrupted thread: 320 ms before
 * its last line), and a rollout outside the index has only its file's time.
 */
import { existsSync, statSync } from "node:fs";
import type { SessionSummary, StoreListing } from "../types.ts";
import { readJsonl } from "../../io/jsonl.ts";
import { titleLine } from "../../ir/summary.ts";
import { openReadOnly, quoteIdent, type Row, tableColumns } from "../../store/sqlite.ts";
import { homeOfRollout, newestStateDb, type RolloutFile, rolloutFiles } from "./locate.ts";
import { isHarnessContext, messageText } from "./items.ts";
import { assertStoredTime, isoTime } from "../../ir/clock.ts";
import { objectOfLine } from "../../io/json.ts";
import { mapBounded } from "../../io/bounded.ts";
import { lastLineWhere } from "../../io/last-line.ts";
import { activityTime } from "../updated.ts";

/** How many rollouts the index does not know are read at once: never a file handle per session. */
const LISTING_CONCURRENCY = 8;

const WANTED = [
  "id",
  "rollout_path",
  "cwd",
  "name",
  "title",
  "preview",
  "first_user_message",
  "updated_at",
  "updated_at_ms",
  "archived",
] as const;

export async function listCodex(home: string): Promise<SessionSummary[]> {
  const files = rolloutFiles(home);
  const byId = new Map(files.map((f) => [f.id, f]));
  const indexed = indexedThreads(home, byId);
  const known = new Set(indexed.map((s) => s.id));
  const loose = await mapBounded(files.filter((f) => !known.has(f.id)), LISTING_CONCURRENCY, summarizeFile);
  return [...indexed, ...loose];
}

function indexedThreads(home: string, files: Map<string, RolloutFile>): SessionSummary[] {
  const database = newestStateDb(home);
  if (!database) return [];
  const db = openReadOnly(database);
  try {
    const present = new Set(tableColumns(db, "threads").map((c) => c.name));
    if (!present.has("id")) return [];
    const columns = WANTED.filter((c) => present.has(c));
    const rows = db.prepare(`SELECT ${columns.map(quoteIdent).join(", ")} FROM threads`).all() as Row[];
    // A row without an id (damage SQLite did not notice) names no thread anyone could resume.
    return rows.filter((row) => text(row.id)).map((row) =>
      summaryOfRow(row, files.get(String(row.id)), `${database}: threads row ${JSON.stringify(row.id)}`)
    );
  } finally {
    db.close();
  }
}

const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v : undefined);

/** `where` names the row (database and id) for a time no date can hold. */
function summaryOfRow(row: Row, file: RolloutFile | undefined, where: string): SessionSummary {
  const recorded = text(row.rollout_path);
  // A thread archived or moved since it was indexed is found by its id in the file name. A path the walk of
  // the sessions folders found is there: only another one is looked for.
  const present = recorded !== undefined && (file?.path === recorded || existsSync(recorded));
  const path = present ? recorded : file?.path ?? recorded ?? "";
  assertStoredTime(row.updated_at_ms, 1, where, "updated_at_ms");
  assertStoredTime(row.updated_at, 1000, where, "updated_at");
  const updatedMs = typeof row.updated_at_ms === "number"
    ? row.updated_at_ms
    : typeof row.updated_at === "number"
    ? row.updated_at * 1000
    : undefined;
  const updatedAt = (path ? lastItemTime(path) : undefined) ??
    (updatedMs === undefined ? undefined : isoTime(updatedMs));
  const title = text(row.name) ?? text(row.preview) ?? text(row.title) ?? text(row.first_user_message);
  return {
    harness: "codex",
    id: String(row.id),
    path,
    ...(text(row.cwd) ? { cwd: text(row.cwd) } : {}),
    ...(title ? { title: titleLine(title) } : {}),
    ...(updatedAt ? { updatedAt } : {}),
    ...(row.archived === 1 || file?.archived ? { archived: true } : {}),
  };
}

/** The bytes every conversation item's line holds: other lines are not decoded. */
const ITEM_MARK = Buffer.from('"response_item"');

/**
 * The time of a rollout's last `response_item` line (a message, reasoning, a call, its output): the events
 * after it (token counts, a turn's end) are no message. Undefined when it has none, or is not a file there.
 */
function lastItemTime(path: string): string | undefined {
  return lastLineWhere(path, (line) => {
    if (!line.includes(ITEM_MARK)) return undefined;
    const record = objectOfLine(line.toString("utf8"));
    return record?.type === "response_item" ? activityTime(record.timestamp) : undefined;
  }).value;
}

const HEAD_RECORDS = 200;

/** A file the index does not know: cwd from session_meta, the first words the user typed as its title. */
async function summarizeFile(file: RolloutFile): Promise<SessionSummary> {
  const summary: SessionSummary = {
    harness: "codex",
    id: file.id,
    path: file.path,
    updatedAt: lastItemTime(file.path) ?? statSync(file.path).mtime.toISOString(),
    ...(file.archived ? { archived: true } : {}),
  };
  let seen = 0;
  try {
    for await (const { value } of readJsonl(file.path)) {
      if (++seen > HEAD_RECORDS) break;
      const record = value as Row;
      const payload = (record.payload ?? {}) as Row;
      if (record.type === "session_meta") summary.cwd ??= text(payload.cwd);
      if (record.type === "turn_context") summary.cwd ??= text(payload.cwd);
      if (record.type === "response_item" && payload.type === "message" && payload.role === "user") {
        if (isHarnessContext(payload)) continue;
        const words = text(messageText(payload.content));
        if (words) {
          summary.title = titleLine(words);
          break;
        }
      }
    }
  } catch {
    summary.title ??= "(unreadable)";
  }
  return summary;
}

/**
 * The name a thread was given in Codex (`/rename`, or a handoff title), which lives only in the index: a rollout
 * read by path gets it back from the index of the home it sits in.
 */
export function indexedName(path: string, id: string): string | undefined {
  const home = homeOfRollout(path);
  const database = home && newestStateDb(home);
  if (!database) return undefined;
  const db = openReadOnly(database);
  try {
    if (!tableColumns(db, "threads").some((c) => c.name === "name")) return undefined;
    const row = db.prepare("SELECT name FROM threads WHERE id = ?").get(id) as Row | undefined;
    return text(row?.name);
  } finally {
    db.close();
  }
}

/** What the descriptor's store loads to list (lib/harnesses/lazy-store.ts). */
export const listing: StoreListing = { list: listCodex };
