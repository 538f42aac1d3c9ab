/**
 * Everything the CLI prints goes through here: the one JSON document of `--json`, human lines on stdout, and
 * reports, warnings and errors on stderr. Transcript text, titles, paths and ids are data: every character
 * that could steer the terminal is escaped here, in the one place all output passes, so no command can forget
 * it. (Inside `--json` the escapes are JSON escapes: the document parses to the same values.) Colour is
 * added here too, after that escaping and only where the display says the descriptor shows it, so the only
 * escape sequences that reach a terminal are the ones this module writes, and none reaches a pipe.
 */
import { writeSync } from "node:fs";
import { terminalField, terminalText } from "../io/control-characters.ts";

export const JSON_SCHEMA = "session-bridge/1";

/** Takes what the CLI prints, already neutralized: `fd` 1 is stdout, 2 is stderr. */
export type OutputWriter = (fd: 1 | 2, text: string) => void;

/** What a piece of a line means, which a terminal shows in colour: never the only way it is told. */
export type Tone = "error" | "warning" | "heading" | "subtle";

/** A piece of a line in one tone (none: as the terminal shows text). */
export interface Span {
  text: string;
  tone?: Tone;
}

/** One line (or several, for plain text holding newlines): plain text, or spans each in a tone. */
export type Line = string | readonly Span[];

/** Where output goes: whether each descriptor shows colour, and stdout's width when it is a terminal. */
export interface Display {
  color(fd: 1 | 2): boolean;
  /** stdout's width in columns on a terminal; undefined in a pipe or a file, where output keeps one form. */
  readonly columns: number | undefined;
}

/** No colour, no width: pipes, files, in-process captures. */
export const PLAIN: Display = { color: () => false, columns: undefined };

/** Shows a long text a page at a time ($PAGER); resolves once the person has left it. */
export type Pager = (text: string) => Promise<void>;

/**
 * Where one run prints: made once at its entry (this process's stdout and stderr, or a caller's capture: a
 * test, the demo, a program driving the CLI in-process) and passed down with its context, so two runs in one
 * process each print where their caller said.
 */
export interface Output {
  /** One line on stdout. */
  out(line: Line): void;
  /** One line on stderr. */
  err(line: Line): void;
  /** A warning on stderr: `session-bridge: warning: TEXT`, yellow on a terminal. */
  warn(text: string): void;
  /** A failure on stderr: `session-bridge: TEXT`, red on a terminal. */
  fail(text: string): void;
  /** The one `--json` document on stdout. */
  printJson(body: Record<string, unknown>, ok?: boolean): void;
  /**
   * A progress line's drawing on stderr (lib/cli/progress.ts): passed through as is, because it moves the
   * cursor itself; whatever session text it shows was escaped where the line was made.
   */
  drawProgress(text: string): void;
  /** stdout's width on a terminal (undefined otherwise: lay out as for a pipe). */
  readonly columns: number | undefined;
  /**
   * Long text for a person to read (`show`): through the pager when stdout is a terminal and one is set,
   * else line by line on stdout as `out` prints.
   */
  page(lines: readonly Line[]): Promise<void>;
}

type StyleText = typeof import("node:util").styleText;

/**
 * How each tone looks, drawn by node's own styleText (the runtime's, under Bun and Deno too), loaded when a
 * first tone is shown: `--version` and every pipe pay nothing for it.
 */
const STYLE: Record<Tone, Parameters<StyleText>[0]> = {
  error: "red",
  warning: "yellow",
  heading: "bold",
  subtle: "dim",
};

/**
 * `line` as text for a descriptor: every piece neutralized, toned only if the descriptor shows colour. Whether
 * it does is asked only of a toned piece: a plain line (`--version`'s) asks the terminal nothing.
 */
function rendered(line: Line, color: () => boolean): string {
  if (typeof line === "string") return terminalText(line);
  return line.map(({ text, tone }) => {
    const safe = terminalText(text);
    if (!tone || !safe || !color()) return safe;
    return process.getBuiltinModule("node:util").styleText(STYLE[tone], safe, { validateStream: false });
  }).join("");
}

/** Everything printed handed to `writer`, neutralized first, toned and paged as `display` and `pager` allow. */
export function outputTo(writer: OutputWriter, display: Display = PLAIN, pager?: Pager): Output {
  const out = (line: Line) => writer(1, `${rendered(line, () => display.color(1))}\n`);
  const err = (line: Line) => writer(2, `${rendered(line, () => display.color(2))}\n`);
  return {
    out,
    err,
    warn: (text) => err([{ text: `session-bridge: warning: ${text}`, tone: "warning" }]),
    fail: (text) => err([{ text: `session-bridge: ${text}`, tone: "error" }]),
    printJson: (body, ok = true) => out(JSON.stringify({ schema: JSON_SCHEMA, ok, ...body }, null, 2)),
    drawProgress: (text) => writer(2, text),
    get columns() {
      return display.columns;
    },
    page: async (lines) => {
      if (pager && display.columns !== undefined) {
        return await pager(lines.map((l) => `${rendered(l, () => display.color(1))}\n`).join(""));
      }
      for (const l of lines) out(l);
    },
  };
}

/** This process's stdout and stderr, plain: for a program that prints as the CLI does, in a pipe. */
export const PROCESS_OUTPUT: Output = outputTo(writeAll);

/** writeSync may write less than asked on pipes; loop so large outputs arrive whole before exit. */
export function writeAll(fd: number, text: string): void {
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
