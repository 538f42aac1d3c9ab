/**
 * The history a compaction replaced, as a writer that keeps it writes it: before the target's own compaction
 * record, which stands where the live thread's summary is.
 */
import type { Message } from "./schema.ts";
import type { SessionStream } from "./stream.ts";

/**
 * The compacted threads' messages in order, when the live thread holds a summary standing for them; none
 * otherwise (a source whose compaction left no summary its reader could name: written as conversation, the
 * history would reach the model whole, so it stays unwritten as before). A session with no compacted thread
 * is not read at all.
 */
export async function compactedHistory(session: SessionStream): Promise<Message[]> {
  const history = session.threads.filter((t) => t.kind === "compacted").flatMap((t) => t.messages);
  if (!history.length) return [];
  for await (const m of session.messages) if (m.kind === "summary") return history;
  return [];
}
