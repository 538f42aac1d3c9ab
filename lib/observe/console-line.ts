/**
 * LazyBridge 1.8.3's console line for an event (`ConsoleExporter.export`): `[agent] event_type  key=value
 * key=value`, two spaces apart, the agent from `agent_name` (else `name`), `event_type`, `session_id`, `run_id`
 * and `agent_name` left out of the pairs, null and empty values skipped, each value as Python's `str()` writes
 * it (True, 0.5, 1e-05, a dict as `{'k': 'v'}`), cut to 117 characters and `...` past 120. One departure: every
 * control, bidi and other invisible format character is written as an escape, where LazyBridge prints it
 * raw, so nothing a session holds can break the line or steer the terminal.
 */
import { pyFloat } from "../io/python-float.ts";

const NOISY = new Set(["event_type", "session_id", "run_id", "agent_name"]);

export function consoleLine(event: Record<string, unknown>): string {
  const agent = truthy(event.agent_name) ? event.agent_name : truthy(event.name) ? event.name : "";
  const parts = Object.entries(event)
    .filter(([key, value]) => !NOISY.has(key) && value !== null && value !== undefined && value !== "")
    .map(([key, value]) => `${key}=${cut(pyStr(value))}`);
  const prefix = agent === "" ? "" : `[${pyStr(agent)}] `;
  return neutral(`${prefix}${String(event.event_type ?? "event")}  ${parts.join("  ")}`);
}

/** Python's truth of a JSON value, for `a or b`. */
function truthy(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  if (value !== null && typeof value === "object") return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Python's `s[:117] + "..."` past 120 code points. */
function cut(text: string): string {
  const points = Array.from(text);
  return points.length > 120 ? `${points.slice(0, 117).join("")}...` : text;
}

/** `str(value)` of the value as Python has it after `json.loads`. */
function pyStr(value: unknown): string {
  return typeof value === "string" ? value : pyRepr(value);
}

function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : pyFloat(value);
  if (typeof value === "string") return pyStringRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${pyStringRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  }
  return pyStringRepr(String(value));
}

/** What `str.isprintable()` refuses beyond the ASCII controls: other controls, format, surrogate, private, unassigned, separators but the space. */
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python's `repr()` of a string: single quotes unless it holds one and no double quote; escapes as Python's. */
function pyStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === "\\" || ch === quote) out += `\\${ch}`;
    else if (SHORT[ch]) out += SHORT[ch];
    else if (ch !== " " && UNPRINTABLE.test(ch)) out += escapeOf(code);
    else out += ch;
  }
  return out + quote;
}

/** The escapes Python's repr writes by name. */
const SHORT: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeOf(code: number): string {
  if (code < 0x100) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code < 0x10000) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\U${code.toString(16).padStart(8, "0")}`;
}

/** Controls and invisible format characters (bidi overrides among them) as escapes: the line stays one line. */
function neutral(line: string): string {
  return line.replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, (ch) => SHORT[ch] ?? escapeOf(ch.codePointAt(0)!));
}
