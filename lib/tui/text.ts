/**
 * Session text on the TUI's screen is data: every character that could steer the terminal (escapes, bidi
 * overrides, C1 controls) is shown as its visible `\uXXXX` escape by the same function that guards the CLI's
 * output, tabs become spaces, and Ink never interprets markup, so brackets and tags are shown as written.
 */
import wrapAnsi from "wrap-ansi";
import { escapeControls, terminalField } from "../io/control-characters.ts";

/** One field on one line (a title, a path, an id). */
export const field = (text: string | undefined): string => terminalField(text ?? "");

/** Text kept in lines: each line escaped, tabs expanded. */
export function lines(text: string): string[] {
  return escapeControls(text).text.replace(/\t/g, "  ").split("\n");
}

/** A line cut into pieces of `width` characters (code points), so a 1 MB line becomes rows, not a wall. */
export function wrap(line: string, width: number): string[] {
  const chars = [...line];
  if (chars.length <= width) return [line];
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += width) out.push(chars.slice(i, i + width).join(""));
  return out;
}

/**
 * Words wrapped between words at `width` cells, the lines after the first under the line's own indent and two
 * more; only a word longer than a whole line is broken (at the edge).
 */
export function wrapWords(line: string, width: number): string[] {
  const lead = line.length - line.trimStart().length;
  const body = line.slice(lead);
  if (!body) return [line];
  const pieces = wrapAnsi(body, Math.max(1, width - lead - 2), { hard: true }).split("\n");
  return pieces.map((piece, i) => " ".repeat(i === 0 ? lead : lead + 2) + piece);
}

/**
 * A token (an id, a path, a command to copy) kept whole: longer than the screen is wide, it is broken only
 * where a line reaches the edge, so its pieces, read on, are the token and nothing else.
 */
export function wrapAtEdge(line: string, width: number): string[] {
  return wrapAnsi(line, Math.max(1, width), { hard: true, wordWrap: false, trim: false }).split("\n");
}

/** `text` cut to `width` characters with an ellipsis. */
export function clip(text: string, width: number): string {
  if (width <= 0) return "";
  const chars = [...text];
  return chars.length <= width ? text : `${chars.slice(0, Math.max(0, width - 1)).join("")}…`;
}

export function bytes(size: number | undefined): string {
  if (size === undefined) return "";
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(size < 10240 ? 1 : 0)} KB`;
  return `${(size / 1024 / 1024).toFixed(1)} MB`;
}

/** "3m ago", "2h ago", "5mo ago", "2y ago": last activity at a glance, in the picker's 8 columns. */
export function ago(iso: string | undefined, now: Date): string {
  const t = Date.parse(iso ?? "");
  if (!Number.isFinite(t)) return "";
  const s = Math.max(0, Math.round((now.getTime() - t) / 1000));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ago`;
  if (s < 86400 * 30) return `${Math.floor(s / 86400)}d ago`;
  if (s < 86400 * 365) return `${Math.floor(s / (86400 * 30))}mo ago`;
  return `${Math.floor(s / (86400 * 365))}y ago`;
}

/**
 * Fuzzy match: every character of `query` appears in `text` in order (case-insensitive). Returns a score
 * (lower is better: a contiguous match beats a scattered one), or undefined for no match.
 */
export function fuzzy(query: string, text: string): number | undefined {
  const q = query.toLowerCase();
  const t = text.toLowerCase();
  if (!q) return 0;
  const exact = t.indexOf(q);
  if (exact >= 0) return exact / 1000;
  let at = -1;
  let gaps = 0;
  for (const c of q) {
    const next = t.indexOf(c, at + 1);
    if (next < 0) return undefined;
    if (at >= 0) gaps += next - at - 1;
    at = next;
  }
  return 1 + gaps;
}
