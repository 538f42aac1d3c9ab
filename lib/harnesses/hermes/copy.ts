/**
 * Hermes to Hermes: the source's rows copied as they are (reasoning details, Responses items, platform ids and
 * all), renamed to the new session. A compression chain becomes one session in Hermes's own in-place form:
 * the predecessors' rows are kept as compacted (`active = 0, compacted = 1`), so the model still loads exactly
 * the live context while search still finds the old turns. An earlier hop's handshake row is left out.
 */
import { isHandshake } from "../../handshake/handshake.ts";
import { isObject } from "../../io/json.ts";
import { blocksFromContent, type ContentPart } from "./content.ts";
import { type HermesMessage, isActive, isMetaRow } from "./message.ts";
import { pyJson } from "./pyjson.ts";
import { blankMessage, type ExportedMessage, rowTime } from "./rows.ts";
import type { HermesSource } from "./source.ts";
import { isoTime, type RecordClock } from "../../ir/clock.ts";

/** The copied rows, made one at a time as the source's rows are read. */
export function* copiedMessages(
  source: HermesSource,
  sessionId: string,
  clock: RecordClock,
): Generator<ExportedMessage> {
  const liveId = source.chain.at(-1)!.id;
  const callNames = new Map<string, string>();
  for (const row of source.messages()) {
    if (typeof row.timestamp === "number") clock.next(isoTime(row.timestamp * 1000));
    if (!isCopied(row)) continue;
    // Snapshot and transcript messages may lack a time; the column needs one, so it follows the previous.
    const timestamp = typeof row.timestamp === "number" ? row.timestamp : rowTime(clock);
    const copied = copiedRow(row, sessionId, timestamp, isPredecessorRow(row, liveId));
    for (const [id, name] of calledNames(copied.tool_calls)) callNames.set(id, name);
    // Old snapshots and transcripts name no tool on a result; Hermes's rows do (from the call it answers).
    if (copied.role === "tool" && !copied.tool_name && copied.tool_call_id) {
      copied.tool_name = callNames.get(copied.tool_call_id) ?? null;
    }
    yield copied;
  }
}

/**
 * How many copied rows are set aside (`active = 0`: compacted, rewound, or a predecessor's), read from the
 * source's rows alone: what a store without the `active` column cannot keep.
 */
export function setAsideCount(source: HermesSource): number {
  const liveId = source.chain.at(-1)!.id;
  let count = 0;
  for (const row of source.messages()) {
    if (isCopied(row) && activeOf(row, isPredecessorRow(row, liveId)) !== 1) count++;
  }
  return count;
}

/** The gateway's marker rows and an earlier hop's handshake are not copied. */
const isCopied = (row: HermesMessage): boolean => !isMetaRow(row) && !isHandshakeRow(row);

const isPredecessorRow = (row: HermesMessage, liveId: string): boolean =>
  typeof row.session_id === "string" && row.session_id !== liveId;

/**
 * A predecessor's live rows were summarized away by the compression that ended it; rows it had already
 * compacted or rewound keep their own marks.
 */
const activeOf = (row: HermesMessage, predecessor: boolean): number => predecessor ? 0 : num(row.active, 1)!;

/** Call id to tool name, from an assistant row's OpenAI-style `tool_calls` (entries that are no call are skipped). */
function calledNames(calls: unknown): [string, string][] {
  return (Array.isArray(calls) ? calls.filter(isObject) : []).flatMap((call): [string, string][] => {
    const fn = call.function as Record<string, unknown> | undefined;
    const id = text(call.id) ?? text(call.call_id);
    const name = text(fn?.name);
    return id && name ? [[id, name]] : [];
  });
}

function isHandshakeRow(row: HermesMessage): boolean {
  return row.role === "user" &&
    isHandshake({
      uid: "",
      parentUid: null,
      role: "user",
      kind: "turn",
      blocks: blocksFromContent(row.content),
    });
}

const text = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown, fallback: number | null): number | null => (typeof v === "number" ? v : fallback);

/** Columns Hermes keeps as JSON text, back to the text it stored (decoding parsed them). */
const jsonText = (v: unknown): string | null =>
  v === null || v === undefined ? null : typeof v === "string" ? v : pyJson(v, { ensureAscii: true });

function copiedRow(
  row: HermesMessage,
  sessionId: string,
  timestamp: number,
  predecessor: boolean,
): ExportedMessage {
  const content = typeof row.content === "string" || Array.isArray(row.content)
    ? row.content as string | ContentPart[]
    : null;
  return blankMessage({
    session_id: sessionId,
    role: row.role,
    timestamp,
    content,
    tool_call_id: text(row.tool_call_id),
    tool_calls: Array.isArray(row.tool_calls) ? row.tool_calls as Record<string, unknown>[] : null,
    tool_name: text(row.tool_name),
    effect_disposition: text(row.effect_disposition),
    token_count: num(row.token_count, null),
    finish_reason: text(row.finish_reason),
    reasoning: text(row.reasoning),
    reasoning_content: text(row.reasoning_content),
    reasoning_details: jsonText(row.reasoning_details),
    codex_reasoning_items: jsonText(row.codex_reasoning_items),
    codex_message_items: jsonText(row.codex_message_items),
    platform_message_id: text(row.platform_message_id),
    observed: num(row.observed, 0),
    active: activeOf(row, predecessor),
    compacted: predecessor && isActive(row) ? 1 : num(row.compacted, 0)!,
    api_content: text(row.api_content),
  });
}
