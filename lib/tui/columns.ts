/**
 * The picker's table: its header and every row laid out by the same columns, so each heading stands over its
 * cells at any width. Cells are measured in terminal cells (string-width); a long directory loses its middle
 * and keeps its last folder, the project's name (as `list` shortens it), a long title its end.
 */
import stringWidth from "string-width";
import cliTruncate from "cli-truncate";
import { shortPath } from "../io/short-path.ts";

/** One row's cells, already neutralized for the terminal (text.ts's `field`). */
export interface PickerCells {
  /** The cursor and live marks (`›●`). */
  marks: string;
  harness: string;
  title: string;
  directory: string;
  updated: string;
  messages: string;
  size: string;
}

/** The headings, named as `list` names its columns where the picker has the same one. */
export const PICKER_HEADINGS: PickerCells = {
  marks: "",
  harness: "HARNESS",
  title: "TITLE",
  directory: "DIRECTORY",
  updated: "UPDATED",
  messages: "MSGS",
  size: "SIZE",
};

interface Column {
  name: keyof PickerCells;
  width: number;
  /** Numbers and ages line up on their right. */
  right?: boolean;
  shorten: (cell: string, width: number) => string;
}

const endCut = (cell: string, width: number) => cliTruncate(cell, width, { position: "end" });

/** The line of `cells` in a picker `width` cells wide: every column padded to its width, one space apart. */
export function pickerLine(cells: PickerCells, width: number): string {
  return columnsOf(width).map(({ name, width: w, right, shorten }) => {
    const text = stringWidth(cells[name]) > w ? shorten(cells[name], w) : cells[name];
    const pad = " ".repeat(Math.max(0, w - stringWidth(text)));
    return right ? pad + text : text + pad;
  }).join(" ");
}

/**
 * Fixed columns as wide as their longest cell can be (`copilot-cli`, `11mo ago`); the directory a share of the
 * width; the title the rest.
 */
function columnsOf(width: number): Column[] {
  const directory = Math.max(10, Math.floor(width * 0.22));
  const fixed = { marks: 2, harness: 11, updated: 8, messages: 5, size: 8 };
  const gaps = 6;
  const rest = width - fixed.marks - fixed.harness - directory - fixed.updated - fixed.messages - fixed.size;
  return [
    { name: "marks", width: fixed.marks, shorten: endCut },
    { name: "harness", width: fixed.harness, shorten: endCut },
    { name: "title", width: Math.max(10, rest - gaps), shorten: endCut },
    { name: "directory", width: directory, shorten: shortPath },
    { name: "updated", width: fixed.updated, right: true, shorten: endCut },
    { name: "messages", width: fixed.messages, right: true, shorten: endCut },
    { name: "size", width: fixed.size, right: true, shorten: endCut },
  ];
}
