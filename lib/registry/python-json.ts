/**
 * JSON read and written exactly as Python's `json` module does it for LazyBridge's registry file
 * (`json.loads`, and `json.dump(data, indent=2, sort_keys=True)` with the default `ensure_ascii`), so a file
 * either tool rewrites comes out byte for byte the same, including whatever hand-edited or unknown values it
 * holds: integers of any size stay exact, floats print as Python's repr, NaN and Infinity are accepted,
 * keys sort by code point, and every character outside printable ASCII is a lowercase `\uXXXX` escape.
 */

import { pyFloat } from "../io/python-float.ts";

/** A number as Python holds it, kept as the text `json.dumps` writes for it (`12`, `1.5`, `1e+16`, `NaN`). */
export class PyNumber {
  constructor(readonly text: string, readonly value: number) {}
}

export type PyValue = null | boolean | string | PyNumber | PyValue[] | PyObject;
/** A JSON object; null-prototype, so keys such as `__proto__` are plain keys. */
export type PyObject = { [key: string]: PyValue };

export function pyObject(): PyObject {
  return Object.create(null) as PyObject;
}

export function isPyObject(value: PyValue | undefined): value is PyObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof PyNumber);
}

/** Why `json.loads` would refuse the text (Python raises ValueError), with the character offset. */
export class PyJsonError extends Error {
  override name = "PyJsonError";
}

/** Python 3.11's default `sys.get_int_max_str_digits()`: a longer integer literal is a ValueError. */
const INT_MAX_DIGITS = 4300;
const MAX_DEPTH = 1000;
/** Python's JSON whitespace: only these four, unlike JavaScript's `trim`. */
const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);
const ESCAPES: Record<string, string> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
};

/** `json.loads(text)`, or a PyJsonError where Python's would raise. */
export function pyParse(text: string): PyValue {
  let at = 0;
  const fail = (what: string): never => {
    throw new PyJsonError(`${what}: line ${lineOf(text, at)} column ${columnOf(text, at)} (char ${at})`);
  };
  const skip = () => {
    while (at < text.length && WHITESPACE.has(text[at] as string)) at++;
  };
  const literal = (word: string, value: PyValue): PyValue => {
    if (!text.startsWith(word, at)) fail("Expecting value");
    at += word.length;
    return value;
  };

  const string = (): string => {
    at++; // the opening quote
    let out = "";
    for (;;) {
      const c = text[at];
      if (c === undefined) return fail("Unterminated string starting at");
      if (c === '"') {
        at++;
        return out;
      }
      if (c === "\\") {
        const e = text[at + 1];
        if (e === "u") {
          const hex = text.slice(at + 2, at + 6);
          if (!/^[0-9A-Fa-f]{4}$/.test(hex)) fail("Invalid \\uXXXX escape");
          out += String.fromCharCode(parseInt(hex, 16));
          at += 6;
        } else if (e !== undefined && e in ESCAPES) {
          out += ESCAPES[e];
          at += 2;
        } else fail("Invalid \\escape");
        continue;
      }
      if (c.charCodeAt(0) < 0x20) fail("Invalid control character at");
      out += c;
      at++;
    }
  };

  const number = (): PyValue => {
    const match = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(text.slice(at, at + 100_000));
    if (match === null) {
      if (text.startsWith("-Infinity", at)) return literal("-Infinity", new PyNumber("-Infinity", -Infinity));
      return fail("Expecting value");
    }
    const literalText = match[0];
    at += literalText.length;
    if (match[1] === undefined && match[2] === undefined) {
      const digits = literalText.replace("-", "");
      if (digits.length > INT_MAX_DIGITS) {
        fail("Exceeds the limit (4300 digits) for integer string conversion");
      }
      const int = BigInt(literalText);
      return new PyNumber(int.toString(), Number(int));
    }
    const float = Number(literalText);
    return new PyNumber(pyFloat(float), float);
  };

  const value = (): PyValue => {
    skip();
    const c = text[at];
    switch (c) {
      case '"':
        return string();
      case "{":
      case "[":
        return container();
      case "n":
        return literal("null", null);
      case "t":
        return literal("true", true);
      case "f":
        return literal("false", false);
      case "N":
        return literal("NaN", new PyNumber("NaN", NaN));
      case "I":
        return literal("Infinity", new PyNumber("Infinity", Infinity));
      default:
        return number();
    }
  };

  // Python's recursion limit stops its scanner near this depth; we stop before our own stack would.
  let depth = 0;
  const container = (): PyValue => {
    if (++depth > MAX_DEPTH) fail("maximum recursion depth exceeded");
    try {
      return containerBody();
    } finally {
      depth--;
    }
  };

  const containerBody = (): PyValue => {
    if (text[at] === "[") {
      at++;
      const items: PyValue[] = [];
      skip();
      if (text[at] === "]") {
        at++;
        return items;
      }
      for (;;) {
        items.push(value());
        skip();
        const c = text[at++];
        if (c === "]") return items;
        if (c !== ",") {
          at--;
          fail("Expecting ',' delimiter");
        }
      }
    }
    at++;
    const object = pyObject();
    skip();
    if (text[at] === "}") {
      at++;
      return object;
    }
    for (;;) {
      skip();
      if (text[at] !== '"') fail("Expecting property name enclosed in double quotes");
      const key = string();
      skip();
      if (text[at] !== ":") fail("Expecting ':' delimiter");
      at++;
      object[key] = value();
      skip();
      const c = text[at++];
      if (c === "}") return object;
      if (c !== ",") {
        at--;
        fail("Expecting ',' delimiter");
      }
    }
  };

  if (text.startsWith("\ufeff")) fail("Unexpected UTF-8 BOM (decode using utf-8-sig)");
  const result = value();
  skip();
  if (at !== text.length) fail("Extra data");
  return result;
}

function lineOf(text: string, at: number): number {
  return text.slice(0, at).split("\n").length;
}

function columnOf(text: string, at: number): number {
  return at - text.lastIndexOf("\n", at - 1);
}

/** `json.dump(value, indent=2, sort_keys=True)` with `ensure_ascii`, without the trailing newline. */
export function pyDump(value: PyValue, indent = ""): string {
  if (value === null) return "null";
  if (value === true) return "true";
  if (value === false) return "false";
  if (typeof value === "string") return pyString(value);
  if (value instanceof PyNumber) return value.text;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => inner + pyDump(v, inner)).join(",\n")}\n${indent}]`;
  }
  const keys = Object.keys(value).sort(byCodePoint);
  if (keys.length === 0) return "{}";
  return `{\n${
    keys.map((k) => `${inner}${pyString(k)}: ${pyDump(value[k] as PyValue, inner)}`).join(",\n")
  }\n${indent}}`;
}

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\b": "\\b",
  "\f": "\\f",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

/** Python's `encode_basestring_ascii`: anything outside space..tilde escaped, per UTF-16 unit. */
function pyString(s: string): string {
  return `"${
    s.replace(
      /[\\"]|[^ -~]/g,
      (c) => SHORT_ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    )
  }"`;
}

/** Python orders strings by code point; JavaScript's default sort compares UTF-16 units. */
export function byCodePoint(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i] as string).codePointAt(0)! - (y[i] as string).codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Python's `str.isspace` characters: what `text.strip()` removes. */
// deno-lint-ignore no-control-regex -- Python counts these separators as whitespace
const PY_SPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/** Whether Python's `not text.strip()` holds. */
export function pyBlank(text: string): boolean {
  return PY_SPACE.test(text);
}
