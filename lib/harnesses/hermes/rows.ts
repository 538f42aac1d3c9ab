/**
 * The rows a handoff writes, typed by the newest captured schema generation so that every column is named
 * (the compiler refuses a row that forgets one). Messages are held as `hermes sessions export` shows them
 * (content decoded, `tool_calls` parsed); `storedForm` turns them into their column form for an INSERT.
 */
import type { HermesMessagesRow, HermesSessionsRow } from "../../generated/hermes/0.19.0.ts";
import type { RecordClock } from "../../ir/clock.ts";
import { type ContentPart, encodeContent } from "./content.ts";
import { pyJson } from "./pyjson.ts";
import { titleText } from "../../io/control-characters.ts";

export type { HermesSessionsRow };

export type ExportedMessage = Omit<HermesMessagesRow, "content" | "tool_calls"> & {
  content: string | ContentPart[] | null;
  tool_calls: Record<string, unknown>[] | null;
};

/** Epoch seconds for a row: the source time where there is one, monotonic and never in the future. */
export const rowTime = (clock: RecordClock, source?: string): number => clock.nextMs(source) / 1000;

/** A message with every column at the value Hermes's own `append_message` leaves when it has nothing to say. */
export function blankMessage(
  fields: Pick<ExportedMessage, "session_id" | "role" | "timestamp"> & Partial<ExportedMessage>,
): ExportedMessage {
  return {
    id: 0,
    content: null,
    tool_call_id: null,
    tool_calls: null,
    tool_name: null,
    effect_disposition: null,
    token_count: null,
    finish_reason: null,
    reasoning: null,
    reasoning_content: null,
    reasoning_details: null,
    codex_reasoning_items: null,
    codex_message_items: null,
    platform_message_id: null,
    observed: 0,
    active: 1,
    compacted: 0,
    api_content: null,
    ...fields,
  };
}

/** A message in column form: the columns it fills, in order, and their values. */
export interface StoredMessage {
  names: readonly string[];
  values: unknown[];
}

/**
 * Column form, for the columns a database has (an older generation has fewer): content behind its JSON prefix
 * when it is a list, `tool_calls` as Python-style JSON text. The columns are worked out once per shape of
 * message and shared by the messages of that shape (every row of a rendered thread; a copy's rows and the
 * rows added to them may differ), so a long session's rows are made without an object each in between.
 */
export function storedForm(columns: ReadonlySet<string>): (message: ExportedMessage) => StoredMessage {
  let keys: string[] = [];
  let names: readonly string[] = [];
  return (message) => {
    const own = Object.keys(message);
    if (own.length !== keys.length || own.some((key, i) => key !== keys[i])) {
      keys = own;
      names = own.filter((name) => name !== "id" && columns.has(name));
    }
    const values = names.map((name) =>
      name === "content"
        ? encodeContent(message.content)
        : name === "tool_calls"
        ? message.tool_calls ? pyJson(message.tool_calls, { ensureAscii: true }) : null
        : message[name as keyof ExportedMessage]
    );
    return { names, values };
  };
}

/** Hermes's title rules (SessionDB.sanitize_title): no control or invisible characters, one line, 100 at most. */
export const TITLE_MAX = 100;

export function hermesTitle(raw: string | undefined): string | undefined {
  const cleaned = titleText(raw ?? "")
    .replace(/[\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff\ufffc\ufff9-\ufffb]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (!cleaned) return undefined;
  // Python counts code points, not UTF-16 units; cutting by code point never splits a surrogate pair.
  const chars = [...cleaned];
  return chars.length > TITLE_MAX ? `${chars.slice(0, TITLE_MAX - 1).join("")}…` : cleaned;
}
