/**
 * Output fitted to a terminal's width: tables whose long cells are shortened (a path in its middle, keeping
 * the last folder, the project's name; other text at its end) so no row wraps, and help wrapped under its
 * own columns. Widths are the terminal's cells (string-width: wide and combining characters count as shown).
 * Only for a terminal: a pipe gets the text as it always was (lib/cli/output.ts's table).
 */
import stringWidth from "string-width";
import cliTruncate from "cli-truncate";
import wrapAnsi from "wrap-ansi";
import { terminalField } from "../io/control-characters.ts";
import { shortPath } from "../io/short-path.ts";
import type { Span, Tone } from "./output.ts";

const GAP = "  ";

/** How a column gives way when the table is too wide: a path loses its middle, text its end; none: never. */
export type Shrink = "path" | "end";

export interface Column {
  tone?: Tone;
  shrink?: Shrink;
  /** The narrowest it is made (default 8 cells, or its widest cell if narrower). */
  floor?: number;
}

/**
 * Rows under a header, padded to their columns; with `columns` (a terminal's width) the shrinkable columns
 * share what the others leave, the narrower ones whole first, so no row is wider than the terminal.
 */
export function fittedTable(
  header: string[],
  rows: string[][],
  spec: Column[],
  columns: number | undefined,
): Span[][] {
  const cells = [header, ...rows].map((r) => r.map(terminalField));
  const measure = columns === undefined ? (s: string) => s.length : stringWidth;
  const widest = header.map((_, i) => Math.max(...cells.map((r) => measure(r[i] ?? ""))));
  const widths = columns === undefined ? widest : shared(widest, spec, columns);
  const fit = (cell: string, i: number) => {
    const w = widths[i]!;
    if (measure(cell) <= w) return cell;
    return spec[i]?.shrink === "path" ? shortPath(cell, w) : cliTruncate(cell, w, { position: "end" });
  };
  return cells.map((r, row) => {
    const spans: Span[] = [];
    r.forEach((raw, i) => {
      const cell = fit(raw, i);
      const last = i === r.length - 1;
      const pad = last ? "" : " ".repeat(Math.max(0, widths[i]! - measure(cell)));
      const tone = row === 0 ? "heading" : spec[i]?.tone;
      spans.push({ text: cell, ...(tone ? { tone } : {}) }, { text: last ? "" : pad + GAP });
    });
    return trimmed(spans);
  });
}

/** The width each column gets: fixed ones their widest, shrinkable ones an even share of the rest. */
function shared(widest: number[], spec: Column[], columns: number): number[] {
  const widths = [...widest];
  const shrinkable = widest.map((_, i) => i).filter((i) => spec[i]?.shrink);
  const fixed = widest.reduce((n, w, i) => (spec[i]?.shrink ? n : n + w), 0);
  let room = columns - fixed - GAP.length * (widest.length - 1);
  // The narrowest first: each takes its widest if that is within an even share of what is left.
  const order = [...shrinkable].sort((a, b) => widest[a]! - widest[b]!);
  order.forEach((i, k) => {
    const share = Math.floor(room / (order.length - k));
    const floor = Math.min(widest[i]!, spec[i]?.floor ?? 8);
    widths[i] = Math.max(floor, Math.min(widest[i]!, share));
    room -= widths[i]!;
  });
  return widths;
}

/** The row without trailing blanks (as a pipe has always had it: lib/cli/output.ts's table). */
function trimmed(spans: Span[]): Span[] {
  const out = [...spans];
  while (out.length && out.at(-1)!.text.trimEnd() === "") out.pop();
  const last = out.at(-1);
  if (last) out[out.length - 1] = { ...last, text: last.text.trimEnd() };
  return out;
}

/**
 * Help text wrapped at `columns`: an option's description continues under its own column, other lines under
 * their indent (a usage line under the command).
 */
export function wrapHelp(text: string, columns: number): string {
  return text.split("\n").map((line) => {
    if (stringWidth(line) <= columns) return line;
    const lead = line.length - line.trimStart().length;
    const indent = descriptionColumn(line, columns) ?? (line.startsWith("Usage: ") ? "Usage: ".length : lead);
    const head = line.slice(0, indent);
    const body = wrapAnsi(line.slice(indent), Math.max(20, columns - indent), { hard: true, trim: true });
    return body.split("\n").map((l, i) => (i === 0 ? head : " ".repeat(indent)) + l).join("\n");
  }).join("\n");
}

/** Where an option line's description starts: after the first run of two or more spaces past its words. */
function descriptionColumn(line: string, columns: number): number | undefined {
  const start = line.length - line.trimStart().length;
  if (start === 0) return undefined;
  const gap = line.indexOf(GAP, start);
  if (gap < 0) return undefined;
  let at = gap;
  while (line[at] === " ") at++;
  // Past half the width a hanging column would leave too little room: such a line wraps under its indent.
  return at < line.length && at <= columns / 2 ? at : undefined;
}
