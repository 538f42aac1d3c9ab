/**
 * Everything the CLI prints goes through here: the one JSON document of `--json`, human lines on stdout, and
 * reports and warnings on stderr. Transcript text is data: control sequences are escaped before they reach
 * a terminal, so a session cannot repaint the user's screen.
 */
import { writeSync } from "node:fs";

export const JSON_SCHEMA = "session-bridge/1";

export function printJson(body: Record<string, unknown>, ok = true): void {
  out(JSON.stringify({ schema: JSON_SCHEMA, ok, ...body }, null, 2));
}

export function out(text: string): void {
  writeAll(1, `${text}\n`);
}

export function err(text: string): void {
  writeAll(2, `${text}\n`);
}

/** writeSync may write less than asked on pipes; loop so large outputs arrive whole before exit. */
function writeAll(fd: number, text: string): void {
  let buffer = Buffer.from(text);
  while (buffer.length) {
    try {
      const n = writeSync(fd, buffer);
      buffer = buffer.subarray(n);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") continue;
      if ((error as NodeJS.ErrnoException).code === "EPIPE") return;
      throw error;
    }
  }
}

// C0 controls except tab and newline, DEL, and C1 controls (which include the 8-bit CSI).
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

export function safeText(text: string): string {
  return text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows.map((r) =>
    r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ").trimEnd()
  );
}
