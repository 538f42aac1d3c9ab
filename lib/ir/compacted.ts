/**
 * A compacted source as writers that keep its history take it (issue 33): the compacted threads' messages, in
 * order, written to disk before the target's own compaction record, and where in the live thread the summary
 * that replaced them stands. The model is then sent the summary and the live thread, as the source's was.
 */
import type { Message } from "./schema.ts";
import type { SessionStream } from "./stream.ts";

export interface Compaction {
  /** Every compacted thread's messages, oldest thread first. */
  history: Message[];
  /** The position of the first `summary` message in the live thread (what stands before it is kept with it). */
  summaryAt: number;
}

/**
 * The compaction to write, or none when the source has no compacted history or its live thread no summary in
 * the user's words (Claude Code, Codex and Pi send theirs as the user's; one a harness gave the model as its
 * own answer, as Hermes and OpenCode may, stays an answer, and the history is left out as before). A streamed
 * thread is read only as far as its summary.
 */
export async function compactionOf(session: SessionStream): Promise<Compaction | undefined> {
  const history = session.threads.filter((t) => t.kind === "compacted").flatMap((t) => t.messages);
  if (!history.length) return undefined;
  let at = 0;
  for await (const m of session.messages) {
    if (m.kind === "summary") return m.role === "user" ? { history, summaryAt: at } : undefined;
    at++;
  }
  return undefined;
}

/** The summary's words, as one text (a harness's compaction record holds one string). */
export function summaryText(summary: Message): string {
  return summary.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n\n");
}
