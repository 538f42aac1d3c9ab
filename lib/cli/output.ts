/**
 * Everything the CLI prints goes through here: the one JSON document of `--json`, human lines on stdout, and
 * reports, warnings and errors on stderr. Transcript text, titles, paths and ids are data: every character
 * that could steer the terminal is escaped here, in the one place all output passes, so no command can forget
 * it. (Inside `--json` the escapes are JSON escapes: the document parses to the same values.)
 */
import { writeSync } from "node:fs";
import { terminalField, terminalText } from "../io/control-characters.ts";

export const JSON_SCHEMA = "session-bridge/1";

/** Takes what the CLI prints, already neutralized: `fd` 1 is stdout, 2 is stderr. */
export type OutputWriter = (fd: 1 | 2, text: string) => void;

/**
 * Where one run prints: made once at its entry (this process's stdout and stderr, or a caller's capture: a
 * test, the demo, a program driving the CLI in-process) and passed down with its context, so two runs in one
 * process each print where their caller said.
 */
export interface Output {
  /** One line on stdout. */
  out(text: string): void;
  /** One line on stderr. */
  err(text: string): void;
  /** The one `--json` document on stdout. */
  printJson(body: Record<string, unknown>, ok?: boolean): void;
  /**
   * A progress line's drawing on stderr (lib/cli/progress.ts): passed through as is, because it moves the
   * cursor itself; whatever session text it shows was escaped where the line was made.
   */
  drawProgress(text: string): void;
}

/** Everything printed handed to `writer`, neutralized first. */
export function outputTo(writer: OutputWriter): Output {
  const out = (text: string) => writer(1, `${terminalText(text)}\n`);
  return {
    out,
    err: (text) => writer(2, `${terminalText(text)}\n`),
    printJson: (body, ok = true) => out(JSON.stringify({ schema: JSON_SCHEMA, ok, ...body }, null, 2)),
    drawProgress: (text) => writer(2, text),
  };
}

/** This process's stdout and stderr: what the entry point prints to. */
export const PROCESS_OUTPUT: Output = outputTo(writeAll);

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

/** Columns padded to their widest cell; a cell is one line, whatever newlines its text holds. */
export function table(cells: string[][]): string[] {
  const rows = cells.map((r) => r.map(terminalField));
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows.map((r) =>
    r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ").trimEnd()
  );
}

/**
 * A stored time as the person's clock shows it ("2026-12-01 09:30", in the local time zone): the stores keep
 * UTC, and a session used a minute ago must not look hours old. (--json keeps the stored UTC values.)
 */
export function localMinute(iso: string | undefined): string {
  const at = iso ? new Date(iso) : undefined;
  if (!at || Number.isNaN(at.getTime())) return "";
  const two = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${two(at.getHours())}:${
    two(at.getMinutes())
  }`;
}
