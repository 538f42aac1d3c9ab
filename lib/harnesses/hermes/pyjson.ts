/**
 * JSON text as Python's `json.dumps` writes it, which is how Hermes serializes every JSON column
 * (`tool_calls`, `reasoning_details`, ...) and its `sessions export` lines: `", "` and `": "` separators,
 * floats in Python's `repr` (`0.0`, `1e-05`), and with `ensure_ascii` (the default, used for columns) every
 * non-ASCII UTF-16 unit escaped as `\uXXXX`. Matching it keeps what we write indistinguishable from Hermes's
 * own, FTS index text included. JavaScript has no int/float distinction, so a row's caller names its REAL
 * columns.
 */
import { pyFloat } from "../../io/python-float.ts";

export { pyFloat };

const NON_ASCII = /[\u0080-\uffff]/g;

export interface PyJsonOptions {
  ensureAscii: boolean;
  /** Top-level keys whose numbers are Python floats (a row's REAL columns). */
  floats?: ReadonlySet<string>;
  /** Entries appended to a top-level object, already serialized (a session's `messages`, ...). */
  append?: [key: string, json: string][];
}

export function pyJson(value: unknown, { ensureAscii, floats, append }: PyJsonOptions): string {
  const text = floats || append
    ? pyObject(value as Record<string, unknown>, floats, append ?? [])
    : pyValue(value);
  return ensureAscii
    ? text.replace(NON_ASCII, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    : text;
}

function pyObject(
  row: Record<string, unknown>,
  floats: ReadonlySet<string> | undefined,
  append: [string, string][],
): string {
  // Built by concatenation, not as a list of entries joined: no array and no template per key, for every key
  // of every row of a long export (a fifth less time than joining them).
  let text = "{";
  let separator = "";
  for (const key of Object.keys(row)) {
    const v = row[key];
    // Skipped as JSON.stringify skips them in an object (in an array they are null, as pyValue gives).
    if (v === undefined || typeof v === "function" || typeof v === "symbol") continue;
    text += `${separator}${quotedKey(key)}: ${
      typeof v === "number" && floats?.has(key) ? pyFloat(v) : pyValue(v)
    }`;
    separator = ", ";
  }
  for (const [key, json] of append) {
    text += `${separator}${quotedKey(key)}: ${json}`;
    separator = ", ";
  }
  return `${text}}`;
}

/** Letters, digits and underscores: a key JSON writes as it is, quoted (every column name, most JSON keys). */
const PLAIN_KEY = /^\w*$/;

/**
 * `key` as JSON writes it. A plain key is quoted without a call to JSON.stringify: a long export writes some
 * twenty keys a row, and the call was a third of its time.
 */
const quotedKey = (key: string): string => PLAIN_KEY.test(key) ? `"${key}"` : JSON.stringify(key);

/**
 * JSON.stringify's text (same escapes as Python's with ensure_ascii off) with Python's separators, written as
 * the value is walked: stringifying the whole value and then rescanning its text for separators costs a second
 * pass over every string in it (a content list's text, a tool call's arguments).
 */
function pyValue(value: unknown): string {
  // Most of a row's columns are null: said without a call.
  if (value === null) return "null";
  if (typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return pyValue((value as { toJSON(): unknown }).toJSON());
  }
  if (Array.isArray(value)) {
    // A hole reads as undefined, written null, as JSON.stringify writes it.
    let text = "[";
    for (let i = 0; i < value.length; i++) text += i ? `, ${pyValue(value[i])}` : pyValue(value[i]);
    return `${text}]`;
  }
  return pyObject(value as Record<string, unknown>, undefined, []);
}
