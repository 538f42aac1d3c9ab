/**
 * A hop back from a fitted session: its live thread starts with session-bridge's summary and its compacted
 * thread holds what the summary stands for, verbatim. The full history is put back (those messages, then the
 * live thread without the summary) so the next target is fitted from everything, not from a summary of one.
 */
import type { Message } from "../ir/schema.ts";
import {
  type SessionStream,
  type StreamedMessages,
  streamedMessages,
  type ThreadMessages,
} from "../ir/stream.ts";
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
  const held = Array.isArray(session.messages);
  // A streamed thread is read anew on each pass: once here, as far as the summary.
  for await (const m of session.messages) {
    if (summary) live.push(m);
    else if (m.kind === "context") head.push(m);
    else if (isFitSummary(m)) {
      summary = m;
      // The rest is read again as the restored history is, not held.
      if (!held) break;
    } else return session;
  }
  if (!summary) return session;
  return {
    ...session,
    messages: Array.isArray(session.messages)
      ? [...head, ...thread.messages, ...live]
      : restoredStream(head, thread.messages, session.messages),
    threads: session.threads.filter((t) => t !== thread),
  };
}

/**
 * A streamed session's history put back as it is read, never held: its context, the compacted thread (which a
 * streamed reader may keep in a file too), then its live thread read anew past the summary.
 */
function restoredStream(head: Message[], history: ThreadMessages, live: StreamedMessages): StreamedMessages {
  return streamedMessages(async function* () {
    yield* head;
    yield* history;
    let past = false;
    for await (const m of live) {
      if (past) yield m;
      else past = isFitSummary(m);
    }
  });
}
