/**
 * Hermes's file form of a session is what `hermes sessions export` writes: one line per session, the
 * `sessions` row with its active `messages` (every column, content decoded, `tool_calls` parsed), Python-style
 * JSON. A Hermes source held as rows (a database, an export line) is exported as it is stored (a compression chain in `export_session_lineage` form:
 * the live row, its `segments` and `lineage_session_ids`); a foreign one as the rows a handoff would write.
 */
import type { SessionHead, SessionStream } from "../../ir/stream.ts";
import { isoTime, RecordClock } from "../../ir/clock.ts";
import type { RenderOptions } from "../types.ts";
import { isActive } from "./message.ts";
import { pyJson } from "./pyjson.ts";
import { type ExportedMessage, hermesTitle } from "./rows.ts";
import { FLOAT_COLUMNS } from "./generations.ts";
import { configuredModel } from "./config.ts";
import { type HermesSource, sameHarnessSource } from "./source.ts";
import { activeHome, configPath } from "./profiles.ts";
import { handshakeRow, OpenCallStubs, targetRows } from "./target.ts";

type Json = Record<string, unknown>;

/**
 * The export line is one line holding every message, and its row (message_count first) comes before them: the
 * rows are serialized as the thread is read, in one pass, and the line is put together from them at the end.
 */
export async function* renderHermes(session: SessionStream, options: RenderOptions): AsyncGenerator<string> {
  const source = await sameHarnessSource(session);
  // Stored rows are exported as they are; a snapshot or transcript becomes the rows Hermes would store.
  if (source?.kind === "rows") {
    yield exportedAsStored(source, session, options);
    return;
  }
  // The model the user's Hermes routes to, when its store is known; else the one the source used last.
  const configured = options.home
    ? configuredModel(configPath(activeHome(options.home).dir)).model
    : undefined;
  const rows = targetRows(session, options, {
    model: options.model ?? configured ?? session.meta.models.at(-1) ?? null,
  }, source);
  const messages: string[] = [];
  for await (const m of rows.messages) messages.push(messageJson(m));
  yield exportLine([{ row: { ...rows.session() }, messages }]);
}

interface Segment {
  row: Json;
  /** Its messages, serialized. */
  messages: string[];
}

const messageJson = (m: ExportedMessage): string =>
  pyJson(m, { ensureAscii: false, floats: FLOAT_COLUMNS.messages });

/**
 * The line, serialized a row at a time (a long session's line is one large string). With several segments it
 * is `export_session_lineage`'s shape: the live row, its count over all segments, every segment's messages,
 * then `segments` and `lineage_session_ids`.
 */
function exportLine(segments: Segment[]): string {
  const messagesJson = (list: string[]) => `[${list.join(", ")}]`;
  const rowJson = (row: Json, append: [string, string][]) =>
    pyJson(row, { ensureAscii: false, floats: FLOAT_COLUMNS.sessions, append });
  const live = segments.at(-1)!;
  if (segments.length === 1) {
    return withMessages(rowJson(live.row, [["messages", MESSAGES_MARK]]), live.messages);
  }
  const all = segments.flatMap((s) => s.messages);
  return rowJson({ ...live.row, message_count: all.length }, [
    ["messages", messagesJson(all)],
    [
      "segments",
      `[${segments.map((s) => rowJson(s.row, [["messages", messagesJson(s.messages)]])).join(", ")}]`,
    ],
    ["lineage_session_ids", pyJson(segments.map((s) => s.row.id), { ensureAscii: false })],
  ]);
}

/**
 * Where a row's serialized messages go: written in their place with one join (see withMessages). Serialized
 * JSON holds no raw NUL (a string's NUL is written `\u0000`), so nothing else in the row can read as the mark.
 */
const MESSAGES_MARK = "\u0000messages\u0000";

/**
 * A row's JSON with its messages put where the mark stands, the line made with one join: a long session's
 * line (hundreds of MB) is then held once beside its messages, not once for each step that builds it.
 */
function withMessages(row: string, messages: string[]): string {
  const at = row.lastIndexOf(MESSAGES_MARK);
  const parts: string[] = [row.slice(0, at), "["];
  for (const [i, m] of messages.entries()) parts.push(i ? ", " : "", m);
  parts.push("]", row.slice(at + MESSAGES_MARK.length));
  return parts.join("");
}

/** A live row that takes its id once every stored id is known: after the highest. */
interface Unnumbered {
  /** Where it goes among the live segment's serialized messages. */
  at: number;
  row: ExportedMessage;
  /** Made here (a stub, the handshake), not stored: it takes only the columns the stored rows have. */
  added: boolean;
}

/**
 * The source's own rows, only the id, cwd and title changed when asked, plus stubs and the handshake; the
 * source's rows are read once, each serialized as it is read.
 */
function exportedAsStored(source: HermesSource, session: SessionHead, options: RenderOptions): string {
  const liveId = source.chain.at(-1)!.id;
  const segments: Segment[] = source.chain.map((row) => ({ row: { ...row }, messages: [] }));
  const byId = new Map(segments.map((s) => [s.row.id as string, s]));
  const live = segments.at(-1)!;
  const clock = new RecordClock(options.now, session.meta.createdAt);
  const stubs = options.stubOpenCalls
    ? new OpenCallStubs(session.pending.openToolCalls, options.id)
    : undefined;
  const unnumbered: Unnumbered[] = [];
  const place = (row: ExportedMessage, added: boolean) => {
    if (row.id) live.messages.push(messageJson(row));
    else unnumbered.push({ at: live.messages.length, row, added });
  };
  let columns: string[] | undefined;
  let lastId = 0;
  let added = 0;
  for (const m of source.messages()) {
    if (typeof m.timestamp === "number") clock.next(isoTime(m.timestamp * 1000));
    if (typeof m.id === "number") lastId = Math.max(lastId, m.id);
    if (!isActive(m)) continue;
    const owner = byId.get(typeof m.session_id === "string" ? m.session_id : liveId) ?? live;
    const row = { ...m } as unknown as ExportedMessage;
    if (owner !== live) {
      owner.messages.push(messageJson(row));
      continue;
    }
    if (options.id !== liveId) row.session_id = options.id;
    // Rows added here take the columns the stored ones have (an older generation has fewer).
    columns ??= Object.keys(row);
    for (const stub of stubs?.next(row) ?? []) place(stub, true);
    place(row, false);
  }
  const handshake = handshakeRow(options, clock);
  for (const row of [...(stubs?.end() ?? []), ...(handshake ? [handshake] : [])]) place(row, true);
  // Numbered in the order they stand, then put in place from the last, so the earlier places still hold.
  for (const u of unnumbered) {
    u.row.id = ++lastId;
    if (u.added) added++;
  }
  for (const u of unnumbered.reverse()) {
    live.messages.splice(u.at, 0, messageJson(u.added && columns ? pick(u.row, columns) : u.row));
  }
  if (options.id !== liveId) live.row.id = options.id;
  if (options.cwd && "cwd" in live.row) live.row.cwd = options.cwd;
  const title = hermesTitle(options.title);
  if (title) live.row.title = title;
  if (added && typeof live.row.message_count === "number") live.row.message_count += added;
  return exportLine(segments);
}

function pick(row: ExportedMessage, columns: string[]): ExportedMessage {
  const kept = Object.fromEntries(Object.entries(row).filter(([k]) => columns.includes(k) || k === "id"));
  return kept as unknown as ExportedMessage;
}
