/**
 * The shapes every Hermes source is read into: sessions rows, and message dicts as `SessionDB.get_messages`
 * returns them (every column, content decoded, `tool_calls` parsed, other JSON columns left as text). A
 * `state.db`, a `sessions export` line, a JSON snapshot and a legacy gateway transcript all become these, so
 * one reader and one copier serve them all.
 */
import type { HermesSessionsRow } from "../../generated/hermes/0.19.0.ts";
import { decodeContent } from "./content.ts";
import { parseEmbeddedJson } from "../../io/json.ts";

/** A sessions row; older generations and file sources lack columns, so all but the id are optional. */
export type SessionRecord = Partial<HermesSessionsRow> & { id: string };

export interface HermesMessage {
  role: string;
  content: unknown;
  /** Epoch seconds. */
  timestamp?: number;
  tool_call_id?: string | null;
  /** OpenAI-style list: `{id, type: "function", function: {name, arguments: <JSON string>}}`. */
  tool_calls?: unknown;
  tool_name?: string | null;
  finish_reason?: string | null;
  reasoning?: string | null;
  reasoning_content?: string | null;
  /** Provider reasoning objects (Anthropic thinking blocks with signatures, OpenRouter details): JSON text in
   * rows and exports, a list in snapshots and transcripts. */
  reasoning_details?: unknown;
  /** OpenAI Responses reasoning items (encrypted content), JSON text or a list like `reasoning_details`. */
  codex_reasoning_items?: unknown;
  /** 0 for rows compacted or rewound away; absent before schema generations that had the column. */
  active?: number | null;
  compacted?: number | null;
  /** Every other column or key, kept for same-harness copies. */
  [key: string]: unknown;
}

/** A stored row (or an exported or snapshot dict) as `get_messages` returns it: content and tool calls decoded. */
export function decodeMessage(row: Record<string, unknown>): HermesMessage {
  return decodeOwnMessage({ ...row });
}

/**
 * decodeMessage's work done on `row` itself, for a caller whose row is its own (one a query just returned): a
 * long session's read copied every column of every row once more for nothing. Each key keeps its place.
 */
export function decodeOwnMessage(row: Record<string, unknown>): HermesMessage {
  row.role = String(row.role ?? "");
  row.content = decodeContent(row.content);
  row.tool_calls = parseJson(row.tool_calls);
  return row as HermesMessage;
}

/** JSON column text to its value; other values as they are. Broken text is kept, as Hermes keeps it. */
export function parseJson(value: unknown): unknown {
  return typeof value === "string" ? parseEmbeddedJson(value) : value;
}

/** Rows a reader never treats as conversation: the gateway's `session_meta` marker row. */
export const isMetaRow = (m: HermesMessage): boolean => m.role === "session_meta";

/** Live rows: the ones Hermes loads on resume (`WHERE active = 1`, or every row before the column existed). */
export const isActive = (m: HermesMessage): boolean => m.active === undefined || m.active === 1;
