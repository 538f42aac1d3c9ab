/**
 * A session's live thread either held (an array, as every reader's `read` gives it) or streamed: read again
 * from its store each time it is iterated, one message at a time, so a conversion of a session of hundreds of
 * megabytes holds only the message in hand. Writers and the conversion pipeline take either and iterate it
 * with `for await`; nothing else may assume a streamed thread fits in memory.
 */
import type { Message, Session } from "./schema.ts";

/** A thread read from its store as it is iterated; every iteration reads it again from the start. */
export interface StreamedMessages extends AsyncIterable<Message> {
  readonly streamed: true;
}

export type Messages = Message[] | StreamedMessages;

/** A session whose live thread may be streamed (a held `Session` is one too). */
export interface SessionStream extends Omit<Session, "messages"> {
  messages: Messages;
}

/** Everything of a session but its live thread. */
export type SessionHead = Omit<Session, "messages">;

/** A thread that `open` reads anew on each iteration. */
export function streamedMessages(open: () => AsyncIterable<Message>): StreamedMessages {
  return { streamed: true, [Symbol.asyncIterator]: () => open()[Symbol.asyncIterator]() };
}

/**
 * The thread with `each` applied to every message (a message may become none, or several): at once for a held
 * thread, as it is read for a streamed one (so `each` runs again on every iteration and must be pure).
 */
export function mapMessages(messages: Messages, each: (m: Message) => Message | Message[]): Messages {
  if (Array.isArray(messages)) return messages.flatMap(each);
  return streamedMessages(async function* () {
    for await (const m of messages) {
      const out = each(m);
      if (Array.isArray(out)) yield* out;
      else yield out;
    }
  });
}

/** A pass over a thread that may hold a few messages back (to insert after them): fresh for each pass. */
export interface MessagePass {
  /** What to pass on now that `m` is read. */
  next(m: Message): Message[];
  /** What is still held when the thread ends. */
  end(): Message[];
}

/**
 * The thread run through a stateful pass (see MessagePass): at once for a held thread, as it is read for a
 * streamed one, with a fresh pass for each iteration.
 */
export function pipeMessages(messages: Messages, pass: () => MessagePass): Messages {
  if (Array.isArray(messages)) {
    const p = pass();
    return [...messages.flatMap((m) => p.next(m)), ...p.end()];
  }
  return streamedMessages(async function* () {
    const p = pass();
    for await (const m of messages) yield* p.next(m);
    yield* p.end();
  });
}

/** The thread held whole: for the consumers that need it all at once (they must not be given a huge one). */
export async function holdMessages(messages: Messages): Promise<Message[]> {
  if (Array.isArray(messages)) return messages;
  const held: Message[] = [];
  for await (const m of messages) held.push(m);
  return held;
}

/** The session with its thread held whole (see holdMessages). */
export async function holdSession(session: SessionStream): Promise<Session> {
  return { ...session, messages: await holdMessages(session.messages) };
}
