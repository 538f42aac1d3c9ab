/**
 * A hop back from a fitted session: its live thread starts with session-bridge's summary and its compacted
 * thread holds what the summary stands for, verbatim. The full history is put back (those messages, then the
 * live thread without the summary) so the next target is fitted from everything, not from a summary of one.
 */
import type { Message } from "../ir/schema.ts";
import type { SessionStream } from "../ir/stream.ts";
import { FIT_THREAD_ID, fitThreadOf, isFitSummary } from "./marker.ts";

/** The first message of a thread, read no further. */
async function firstMessage(messages: SessionStream["messages"]): Promise<Message | undefined> {
  for await (const m of messages) return m;
  return undefined;
}

/** The session with its fitted-away history put back, or the session itself when it was never fitted. */
export async function restoreFitted(session: SessionStream): Promise<SessionStream> {
  const thread = fitThreadOf(session);
  if (!thread) return session;
  const first = await firstMessage(session.messages);
  if (!first || !isFitSummary(first)) return session;
  // A streamed thread is read anew on each pass: the summary is skipped by its place, not by identity.
  const live: Message[] = [];
  let index = 0;
  for await (const m of session.messages) if (index++ > 0) live.push(m);
  return {
    ...session,
    messages: [...thread.messages, ...live],
    threads: session.threads.filter((t) => t.id !== FIT_THREAD_ID),
  };
}
