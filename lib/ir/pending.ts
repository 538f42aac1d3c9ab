/**
 * Pending state: what was in flight when the source harness stopped. Computed from the live thread by position,
 * so it means the same thing whichever harness the session came from.
 */
import type { Message, OpenToolCall, Pending, QueuedInput } from "./schema.ts";
import { StringSet } from "../io/string-set.ts";

/**
 * @param abortedAt positions in `messages` (the number of messages read before it) where the source recorded
 *   that a turn was aborted (Codex `turn_aborted`, Hermes's interruption); a call still unanswered there was
 *   interrupted, not abandoned, wherever it is in the thread.
 */
export function findPending(
  messages: Message[],
  queuedInput: QueuedInput[],
  abortedAt: number[] = [],
): Pending {
  const tracker = new PendingTracker();
  for (const at of abortedAt) tracker.abortAt(at);
  for (const m of messages) tracker.add(m);
  return tracker.pending(queuedInput);
}

/** A call not answered so far, with what deciding whether it is still in flight needs of its message. */
interface UnansweredCall extends OpenToolCall {
  index: number;
  providerMessageId?: string;
}

/**
 * findPending one message at a time, for a thread too large to hold (a streamed reader's indexing pass): it
 * keeps only the calls not answered yet, the ids answered, and the last response and turn.
 */
export class PendingTracker {
  private count = 0;
  private lastAbort = -1;
  /** Every call id answered so far: kept as bytes, as a long thread answers hundreds of thousands. */
  private readonly answered = new StringSet();
  /** By the order they were made in: openToolCalls keeps the thread's order. */
  private readonly unanswered = new Map<number, UnansweredCall>();
  private readonly byCall = new Map<string, number[]>();
  private made = 0;
  private lastResponse?: { index: number; providerMessageId?: string };
  private lastTurn?: { role: Message["role"]; answers: boolean };

  /** A turn was aborted once `position` messages were read. */
  abortAt(position: number) {
    this.lastAbort = Math.max(this.lastAbort, position);
  }

  /** The thread's next message. */
  add(m: Message) {
    const index = this.count++;
    for (const b of m.blocks) {
      if (b.type !== "tool_result") continue;
      this.answered.add(b.callId);
      for (const at of this.byCall.get(b.callId) ?? []) this.unanswered.delete(at);
      this.byCall.delete(b.callId);
    }
    if (m.kind === "turn") {
      this.lastTurn = { role: m.role, answers: m.blocks.some((b) => b.type === "tool_result") };
    }
    // Only a response's calls can be in flight.
    if (m.role !== "assistant") return;
    this.lastResponse = { index, ...(m.providerMessageId ? { providerMessageId: m.providerMessageId } : {}) };
    for (const b of m.blocks) {
      if (b.type !== "tool_call" || this.answered.has(b.id)) continue;
      const at = this.made++;
      this.unanswered.set(at, {
        callId: b.id,
        name: b.name,
        messageUid: m.uid,
        index,
        ...(m.providerMessageId ? { providerMessageId: m.providerMessageId } : {}),
      });
      this.byCall.set(b.id, [...(this.byCall.get(b.id) ?? []), at]);
    }
  }

  /** Where the messages that make calls not answered so far stand in the thread, in its order. */
  unansweredAt(): number[] {
    return [...this.unanswered.values()].map((c) => c.index);
  }

  /**
   * The last assistant response (one API response may be split over several messages sharing its id) can
   * still be in flight. An unanswered call in an earlier response that the model moved on from was abandoned
   * (a retry), unless an abort followed it: then it was interrupted.
   */
  pending(queuedInput: QueuedInput[]): Pending {
    const last = this.lastResponse;
    const inLast = (c: UnansweredCall) =>
      c.index === last?.index ||
      (!!last?.providerMessageId && c.providerMessageId === last.providerMessageId);
    const openToolCalls: OpenToolCall[] = [...this.unanswered.values()]
      .filter((c) => inLast(c) || c.index < this.lastAbort)
      .map(({ callId, name, messageUid }) => ({ callId, name, messageUid }));
    // The last turn ended before the model answered: an open call, or tool results nobody has read yet.
    const interruptedTurn = openToolCalls.length > 0 ||
      (!!this.lastTurn && this.lastTurn.role !== "assistant" && this.lastTurn.answers);
    return { openToolCalls, queuedInput, interruptedTurn };
  }
}
