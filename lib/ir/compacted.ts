/**
 * The history a compaction replaced, as a writer that keeps it writes it: before the target's own compaction
 * record, which stands where the live thread's summary is.
 */
import type { Message } from "./schema.ts";
import type { SessionStream } from "./stream.ts";

/**
 * The compacted threads' messages in order, when the live thread opens with the summary standing for them
 * (after the harness's own context); none otherwise, and the history stays unwritten as before: a source whose
 * compaction left no summary its reader could name (written as conversation, the history would reach the model
 * whole), or one that keeps turns before its summary (Codex's replacement history keeps the user's messages
 * first), which a compaction record written before them would hide from the model. A session with no
 * compacted thread is not read at all.
 */
export async function compactedHistory(session: SessionStream): Promise<Message[]> {
  const history = session.threads.filter((t) => t.kind === "compacted").flatMap((t) => t.messages);
  if (!history.length) return [];
  for await (const m of session.messages) {
    if (m.kind !== "context") return m.kind === "summary" ? history : [];
  }
  return [];
}
