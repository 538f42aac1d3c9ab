/**
 * A compacted source as writers that keep its history take it (issue 33): the compacted threads' messages, in
 * order, written to disk before the target's own compaction record, and where in the live thread the summary
 * that replaced them stands. The model is then sent the summary and the live thread, as the source's was.
 */
import type { Message } from "./schema.ts";
import { joinedMessages, type SessionStream, type ThreadMessages } from "./stream.ts";

export interface Compaction {
  /** Every compacted thread's messages, oldest thread first (made as they are read: see ThreadMessages). */
  history: ThreadMessages;
  /** The position of the summary in the live thread (only harness context stands before it). */
  summaryAt: number;
}

/**
 * The compaction to write, or none unless the source has compacted history and its live thread opens with a
 * summary in the user's words (harness context aside), as a fitted session does. Otherwise the history is left
 * out as before: a summary a harness gave the model as its own answer stays an answer, and messages a source
 * kept ahead of its summary (the user's, in some harnesses) would move behind it in a target whose summary
 * comes first. A streamed thread is read only as far as its summary.
 */
export async function compactionOf(session: SessionStream): Promise<Compaction | undefined> {
  const history = compactedHistory(session);
  if (!history.length) return undefined;
  let at = 0;
  for await (const m of session.messages) {
    if (opensWithSummary(m) !== undefined) {
      return opensWithSummary(m) ? { history, summaryAt: at } : undefined;
    }
    at++;
  }
  return undefined;
}

/** Every compacted thread's messages, oldest thread first. */
export function compactedHistory(session: Pick<SessionStream, "threads">): ThreadMessages {
  return joinedMessages(session.threads.filter((t) => t.kind === "compacted"));
}

/**
 * What message `m` of a live thread, read in order, says of whether the thread opens with a summary: nothing
 * yet (undefined) for harness context, else whether `m` is a summary in the user's words.
 */
export function opensWithSummary(m: Message): boolean | undefined {
  if (m.kind === "context") return undefined;
  return m.kind === "summary" && m.role === "user";
}

/** The summary's words, as one text (a harness's compaction record holds one string). */
export function summaryText(summary: Message): string {
  return summary.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n\n");
}
