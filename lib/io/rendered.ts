/**
 * What a writer yields: whole lines, and, for a line too long to hold (Hermes's export line is one line per
 * session, hundreds of MB for a long one), that line in pieces. A `string` is a line, or the end of a line
 * that parts began: a newline is written after it. A `LinePart` is text written with no newline after it.
 *
 * Invariant: a line is cut into pieces only at JSON value boundaries (between tokens, never inside a string
 * literal), so whatever works literal by literal (redaction, lib/observe/redact-transcript.ts) or character
 * by character (terminal neutralizing, lib/io/publish.ts) works on each piece alone.
 */

/** Text of a line still being written: no newline follows it. */
export interface LinePart {
  readonly part: string;
}

/** One item a writer yields: a whole line (or a line's last piece), or a part of a line. */
export type Rendered = string | LinePart;

export const linePart = (text: string): LinePart => ({ part: text });

/** The item's text, whichever it is. */
export const renderedText = (item: Rendered): string => typeof item === "string" ? item : item.part;

/** The same item with its text changed (redacted, neutralized), still a part if it was one. */
export const mapRendered = (item: Rendered, f: (text: string) => string): Rendered =>
  typeof item === "string" ? f(item) : linePart(f(item.part));

/**
 * The items joined back into whole lines, for consumers that look at lines (tests, small sessions): a long
 * line is then held whole, so nothing that may meet a large session goes through here.
 */
export async function* wholeLines(items: AsyncIterable<Rendered>): AsyncGenerator<string> {
  let begun: string[] = [];
  for await (const item of items) {
    if (typeof item !== "string") {
      begun.push(item.part);
      continue;
    }
    if (!begun.length) {
      yield item;
      continue;
    }
    begun.push(item);
    yield begun.join("");
    begun = [];
  }
  // Parts with no end are a writer's bug: every line ends with a string.
  if (begun.length) throw new Error("a rendered line was begun by parts and never ended");
}
