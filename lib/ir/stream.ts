/**
 * A session's live thread either held (an array, as every reader's `read` gives it) or streamed: read again
 * from its store each time it is iterated, one message at a time, so a conversion of a session of hundreds of
 * megabytes holds only the message in hand. Writers and the conversion pipeline take either and iterate it
 * with `for await`; nothing else may assume a streamed thread fits in memory.
 */
import type { Message, Session, Thread } from "./schema.ts";

/** A thread read from its store as it is iterated; every iteration reads it again from the start. */
export interface StreamedMessages extends AsyncIterable<Message> {
  readonly streamed: true;
}

export type Messages = Message[] | StreamedMessages;

/**
 * The messages of a thread kept apart from the live one: held, or made from held ones as they are read, anew on
 * each iteration (a writer may read a thread twice), so a thread made fit for a target is never held whole
 * beside its source's (a fitted session's compacted thread is its whole history).
 */
export interface ThreadMessages extends Iterable<Message> {
  readonly length: number;
}

/** A thread kept apart from the live one, whose messages may be made as they are read (ThreadMessages). */
export interface ThreadStream extends Omit<Thread, "messages"> {
  messages: ThreadMessages;
}

/** A session whose live thread may be streamed, and its other threads made as read (a held `Session` is one too). */
export interface SessionStream extends Omit<Session, "messages" | "threads"> {
  messages: Messages;
  threads: ThreadStream[];
  /**
   * Lets go of what its reader keeps outside memory for it (spill files of threads too long to hold), once it
   * is written; its threads cannot be read after that. Absent when there is nothing to let go.
   */
  release?: () => void;
}

/** Everything of a session but its live thread. */
export type SessionHead = Omit<SessionStream, "messages">;

/** Everything of a session but its live thread, its other threads held (as readers make them). */
export type HeldSessionHead = Omit<Session, "messages">;

/**
 * Held messages with `each` applied to every one as it is read: `pass` makes a fresh `each` for every
 * iteration (which must give the same messages each time).
 */
export function madeMessages(
  messages: ThreadMessages,
  pass: () => (m: Message) => Message,
): ThreadMessages {
  return {
    length: messages.length,
    *[Symbol.iterator]() {
      const each = pass();
      for (const m of messages) yield each(m);
    },
  };
}

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

/** The messages of `threads`, one thread after another, each read as it is reached. */
export function joinedMessages(threads: readonly ThreadStream[]): ThreadMessages {
  if (threads.length === 1) return threads[0]!.messages;
  return {
    length: threads.reduce((n, t) => n + t.messages.length, 0),
    *[Symbol.iterator]() {
      for (const t of threads) yield* t.messages;
    },
  };
}

/** The thread held whole: for the consumers that need it all at once (they must not be given a huge one). */
export async function holdMessages(messages: Messages): Promise<Message[]> {
  if (Array.isArray(messages)) return messages;
  const held: Message[] = [];
  for await (const m of messages) held.push(m);
  return held;
}

/** The session with its threads held whole (see holdMessages): nothing of it is left to release. */
export async function holdSession(session: SessionStream): Promise<Session> {
  const { release: _kept, ...held } = session;
  const threads = held.threads.map((t) => ({ ...t, messages: [...t.messages] }));
  return { ...held, threads, messages: await holdMessages(held.messages) };
}
