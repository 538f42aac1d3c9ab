/**
 * A path fitted to a width in terminal cells (string-width: wide and combining characters count as shown) by
 * losing its middle, so the last folder (the project's name) stays readable: `/home/us…/project`. The CLI's
 * tables (lib/cli/width.ts) and the TUI's picker (lib/tui/columns.ts) shorten directories alike.
 */
import stringWidth from "string-width";
import cliTruncate from "cli-truncate";

/** An ellipsis and at least one character of the path before the last folder. */
const ELLIPSIS_ROOM = 2;

/** `path` in at most `width` cells: its middle cut out, its last folder kept whole while that fits. */
export function shortPath(path: string, width: number): string {
  if (stringWidth(path) <= width) return path;
  const cut = path.lastIndexOf("/", path.length - 2);
  const last = cut > 0 ? path.slice(cut) : path;
  const room = width - stringWidth(last);
  if (cut <= 0 || room < ELLIPSIS_ROOM) return cliTruncate(last, width, { position: "end" });
  return cliTruncate(path.slice(0, cut), room, { position: "end" }) + last;
}
