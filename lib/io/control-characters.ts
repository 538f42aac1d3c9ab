/**
 * Characters that steer a display instead of being shown: C0 controls (ESC starts colour, cursor, screen-clear
 * and OSC 52 clipboard sequences; CR rewrites the line), DEL, C1 controls (U+009B is an 8-bit CSI), Unicode
 * line separators, and bidirectional controls (U+202E makes `exe.txt` read `txt.exe`). Text from sessions,
 * paths and ids is untrusted, so wherever it leaves the tool each such character is written as a visible
 * `\uXXXX` escape: readable, inert, and still valid inside a JSON string.
 */

/** Everything above except tab (U+0009) and newline (U+000A), which lay text out and steer nothing else. */
const STEERING =
  "\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069";
const WITHOUT_LAYOUT = new RegExp(`[${STEERING}]`, "g");
const WITH_LAYOUT = new RegExp(`[${STEERING}\\t\\n]`, "g");

const visible = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Escapes every display-steering character; newlines and tabs are kept unless `singleLine` (a table cell or
 * a one-line field, where a newline could forge a row of its own). Returns how many were escaped. Each is
 * written as `\uXXXX` unless `written` says how (a shell command writes its own escapes).
 */
export function escapeControls(
  text: string,
  singleLine = false,
  written: (c: string) => string = visible,
): { text: string; changed: number } {
  let changed = 0;
  const escaped = text.replace(singleLine ? WITH_LAYOUT : WITHOUT_LAYOUT, (c) => {
    changed++;
    return written(c);
  });
  return { text: escaped, changed };
}

/** Text bound for a terminal, lines and tabs kept. */
export function terminalText(text: string): string {
  return escapeControls(text).text;
}

/** One field on one line (a title, a path, an id in a table cell). */
export function terminalField(text: string): string {
  return escapeControls(text, true).text;
}

/**
 * A title for another harness's title field (a Codex `threads` row, a Hermes `sessions` row), which that
 * harness shows in pickers and terminal titles as is: steering characters are dropped, not escaped (a title
 * is a name, not a record to read back), and any run of whitespace, line breaks included, becomes one space.
 */
export function titleText(text: string): string {
  return text.replace(WITHOUT_LAYOUT, "").replace(/\s+/g, " ").trim();
}
