/**
 * Hermes's file form of a session is what `hermes sessions export` writes: one line per session, the
 * `sessions` row with its active `messages` (every column, content decoded, `tool_calls` parsed), Python-style
 * JSON. A Hermes source held as rows (a database, an export line) is exported as it is stored (a compression chain in `export_session_lineage` form:
 * the live row, its `segments` and `lineage_session_ids`); a foreign one as the rows a handoff would write.
 */
import type { Session } from "../../ir/schema.ts";
import { isoTime, RecordClock } from "../../ir/clock.ts";
import type { RenderOptions } from "../types.ts";
import { isActive } from "./message.ts";
import { pyJson } from "./pyjson.ts";
import { type ExportedMessage, hermesTitle } from "./rows.ts";
import { FLOAT_COLUMNS } from "./generations.ts";
import { configuredModel } from "./config.ts";
import { type HermesSource, sameHarnessSource } from "./source.ts";
import { activeHome, configPath } from "./profiles.ts";
import { addPendingRows, targetRows } from "./target.ts";

type Json = Record<string, unknown>;

export async function* renderHermes(session: Session, options: RenderOptions): AsyncGenerator<string> {
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
  const { session: row, messages } = targetRows(session, options, {
    model: options.model ?? configured ?? session.meta.models.at(-1) ?? null,
  }, source);
  yield exportLine([{ row: { ...row }, messages }]);
}

interface Segment {
  row: Json;
  messages: ExportedMessage[];
}

/**
 * The line, serialized a row at a time (a long session's line is one large string). With several segments it
 * is `export_session_lineage`'s shape: the live row, its count over all segments, every segment's messages,
 * then `segments` and `lineage_session_ids`.
 */
function exportLine(segments: Segment[]): string {
  const messagesJson = (list: ExportedMessage[]) =>
    `[${list.map((m) => pyJson(m, { ensureAscii: false, floats: FLOAT_COLUMNS.messages })).join(", ")}]`;
  const rowJson = (row: Json, append: [string, string][]) =>
    pyJson(row, { ensureAscii: false, floats: FLOAT_COLUMNS.sessions, append });
  const live = segments.at(-1)!;
  if (segments.length === 1) return rowJson(live.row, [["messages", messagesJson(live.messages)]]);
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

/** The source's own rows, only the id, cwd and title changed when asked, plus stubs and the handshake. */
function exportedAsStored(source: HermesSource, session: Session, options: RenderOptions): string {
  const liveId = source.chain.at(-1)!.id;
  const segments: Segment[] = source.chain.map((row) => ({ row: { ...row }, messages: [] }));
  const byId = new Map(segments.map((s) => [s.row.id as string, s]));
  const clock = new RecordClock(options.now, session.meta.createdAt);
  let lastId = 0;
  for (const m of source.messages()) {
    if (typeof m.timestamp === "number") clock.next(isoTime(m.timestamp * 1000));
    if (typeof m.id === "number") lastId = Math.max(lastId, m.id);
    if (!isActive(m)) continue;
    const owner = byId.get(typeof m.session_id === "string" ? m.session_id : liveId) ?? segments.at(-1)!;
    owner.messages.push({ ...m } as unknown as ExportedMessage);
  }
  const live = segments.at(-1)!;
  if (options.id !== liveId) {
    live.row.id = options.id;
    for (const m of live.messages) m.session_id = options.id;
  }
  if (options.cwd && "cwd" in live.row) live.row.cwd = options.cwd;
  const title = hermesTitle(options.title);
  if (title) live.row.title = title;
  const before = live.messages.length;
  const columns = live.messages[0] && Object.keys(live.messages[0]);
  addPendingRows(live.messages, session, options, clock);
  live.messages.forEach((m, i) => {
    // Rows added here take the columns the stored ones have (an older generation has fewer).
    if (i >= before && columns) live.messages[i] = pick(m, columns);
    if (!live.messages[i]!.id) live.messages[i]!.id = ++lastId;
  });
  if (live.messages.length !== before && typeof live.row.message_count === "number") {
    live.row.message_count += live.messages.length - before;
  }
  return exportLine(segments);
}

function pick(row: ExportedMessage, columns: string[]): ExportedMessage {
  const kept = Object.fromEntries(Object.entries(row).filter(([k]) => columns.includes(k) || k === "id"));
  return kept as unknown as ExportedMessage;
}
