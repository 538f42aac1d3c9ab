/** Narrowing helpers for JSON read from harness files and rows, where any field may be missing or odd. */
export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A string field, or "" when it is absent or not a string. */
export const str = (v: unknown): string => (typeof v === "string" ? v : "");

/** A non-empty string field, or undefined. */
export const optStr = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/**
 * How deep a JSON value read from a session may nest. `JSON.parse` accepts far deeper values than the code that
 * walks them afterwards (writers, copiers, `JSON.stringify`) can recurse through: a record nested 55,000 levels
 * overflowed the stack of a Codex copy. No harness writes anything near this deep.
 */
export const MAX_JSON_DEPTH = 1000;

/** The refusal's words, after the file (and line) it names. */
export const tooDeep = `a record nested deeper than ${MAX_JSON_DEPTH} levels, the limit`;

/**
 * A line of a JSONL store as an object, or undefined for anything else (not JSON, an array, a value, a record
 * nested deeper than the limit): for a listing that looks at a few lines and passes over what it cannot read.
 */
export function objectOfLine(text: string): Json | undefined {
  if (nestsDeeperThan(text)) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether JSON text nests deeper than `limit` arrays and objects, found in one pass without parsing it. It runs
 * on every record read, so strings (most of a session's bytes) are skipped by the engine's own `indexOf`, not
 * character by character.
 */
export function nestsDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  if (openingsAtMost(text, limit)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
      if (i < 0) return false; // an unterminated string: JSON.parse refuses it
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Whether `text` holds no more than `limit` opening brackets, strings included: then nothing in it nests
 * deeper. Nearly every record passes this bound, found by the engine's `indexOf` alone; the scan above is
 * for the rest.
 */
function openingsAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (const bracket of ["{", "["]) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) {
      if (++count > limit) return false;
    }
  }
  return true;
}

/** The index of the quote that closes the string opened at `open` (one not escaped by a backslash), or -1. */
function closingQuote(text: string, open: number): number {
  for (let quote = text.indexOf('"', open + 1); quote >= 0; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}

/**
 * JSON text a harness stored inside a record or row (tool arguments, content, columns): its value, or the text
 * itself when it does not parse or nests too deep to walk, as the harnesses keep undecodable text.
 */
export function parseEmbeddedJson(text: string): unknown {
  if (nestsDeeperThan(text)) return text;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
