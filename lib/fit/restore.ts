/**
 * A hop back from a fitted session: its live thread starts with session-bridge's summary and its compacted
 * thread holds what the summary stands for, verbatim. The full history is put back (those messages, then the
 * live thread without the summary) so the next target is fitted from everything, not from a summary of one.
 */
import type { Message } from "../ir/schema.ts";
import type { SessionStream } from "../ir/stream.ts";
import { fitThreadOf, isFitSummary } from "./marker.ts";

/**
 * The session with its fitted-away history put back, or the session itself when it was never fitted. Text a
 * harness injects ahead of the conversation (context) may precede the summary, and stays first.
 */
export async function restoreFitted(session: SessionStream): Promise<SessionStream> {
  const thread = fitThreadOf(session);
  if (!thread) return session;
  const head: Message[] = [];
  const live: Message[] = [];
  let summary: Message | undefined;
  // A streamed thread is read anew on each pass, once here, as far as the summary when there is none.
  for await (const m of session.messages) {
    if (summary) live.push(m);
    else if (m.kind === "context") head.push(m);
    else if (isFitSummary(m)) summary = m;
    else return session;
  }
  if (!summary) return session;
  return {
    ...session,
    messages: [...head, ...thread.messages, ...live],
    threads: session.threads.filter((t) => t !== thread),
  };
}
