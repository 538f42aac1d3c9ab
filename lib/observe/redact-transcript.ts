/**
 * Redaction for sharing a transcript (`show`, `export`, `convert` with `--redact`): every text of the session
 * goes through the default secret redactor, and the number of secrets replaced is kept for the report.
 * Rendered output is redacted line by line (or part by part), string literal by string literal, rather than
 * through the IR: a same-harness export copies the source records from disk, so only the written bytes are
 * certain to be clean, and lines without a secret stay byte for byte as the harness wrote them.
 */
import type { Session } from "../ir/schema.ts";
import { mapRendered, type Rendered } from "../io/rendered.ts";
import { DEFAULT_PATTERNS, redactCounting, type SecretPattern } from "./redact.ts";

/** How many secrets a redaction replaced so far (shared by a stream of lines, read once it is drained). */
export interface RedactionTally {
  count: number;
}

/**
 * A JSON string literal, escapes included. The closing quote is optional so that an unterminated literal is
 * read once to its end (and left as it is: it does not parse) rather than again from each escaped quote in it.
 */
const STRING_LITERAL = /"(?:[^"\\]|\\.)*"?/g;

/**
 * Redacts the string literals of one JSON line in place: each is decoded (so a PEM block's escaped newlines are
 * newlines again), redacted, and re-encoded only when something was replaced.
 */
export function redactJsonLine(
  line: string,
  tally: RedactionTally,
  patterns: readonly SecretPattern[] = DEFAULT_PATTERNS,
): string {
  return line.replace(STRING_LITERAL, (literal) => {
    let decoded: string;
    try {
      decoded = JSON.parse(literal) as string;
    } catch {
      return literal;
    }
    const { text, count } = redactCounting(decoded, patterns);
    if (count === 0) return literal;
    tally.count += count;
    return JSON.stringify(text);
  });
}

/**
 * The rendered lines of a session, redacted as they stream past; a line in parts is redacted part by part
 * (parts are cut between JSON values, so every string literal lies whole in one of them).
 */
export async function* redactingLines(
  lines: AsyncIterable<Rendered>,
  tally: RedactionTally,
): AsyncGenerator<Rendered> {
  for await (const item of lines) yield mapRendered(item, (text) => redactJsonLine(text, tally));
}

/** A copy of the session with every string in it redacted (messages, threads, tool inputs, metadata). */
export function redactSession(session: Session): { session: Session; redacted: number } {
  const tally: RedactionTally = { count: 0 };
  return { session: walk(session, tally) as Session, redacted: tally.count };
}

function walk(node: unknown, tally: RedactionTally): unknown {
  if (typeof node === "string") {
    const { text, count } = redactCounting(node);
    tally.count += count;
    return text;
  }
  if (Array.isArray(node)) return node.map((item) => walk(item, tally));
  if (node !== null && typeof node === "object") {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, tally)]));
  }
  return node;
}
