/**
 * Pending state: what was in flight when the source harness stopped. Computed from the live thread by position,
 * so it means the same thing whichever harness the session came from.
 */
import type { Message, OpenToolCall, Pending, QueuedInput } from "./schema.ts";

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
  const resolved = new Set<string>();
  for (const m of messages) for (const b of m.blocks) if (b.type === "tool_result") resolved.add(b.callId);

  // The last assistant response can still be in flight. An unanswered call in an earlier response that the
  // model moved on from was abandoned (a retry), unless an abort record followed it: then it was interrupted.
  const last = new Set(lastAssistantResponse(messages));
  const lastAbort = Math.max(-1, ...abortedAt);
  const openToolCalls: OpenToolCall[] = [];
  messages.forEach((m, index) => {
    if (m.role !== "assistant" || (!last.has(m) && index >= lastAbort)) return;
    for (const b of m.blocks) {
      if (b.type === "tool_call" && !resolved.has(b.id)) {
        openToolCalls.push({ callId: b.id, name: b.name, messageUid: m.uid });
      }
    }
  });
  return { openToolCalls, queuedInput, interruptedTurn: isInterrupted(messages, openToolCalls.length > 0) };
}

/** The last assistant message and its siblings: one API response may be split over several records. */
function lastAssistantResponse(messages: Message[]): Message[] {
  const last = messages.findLast((m) => m.role === "assistant");
  if (!last) return [];
  if (!last.providerMessageId) return [last];
  return messages.filter((m) => m.role === "assistant" && m.providerMessageId === last.providerMessageId);
}

/** The last turn ended before the model answered: an open call, or tool results nobody has read yet. */
function isInterrupted(messages: Message[], hasOpenCalls: boolean): boolean {
  if (hasOpenCalls) return true;
  const last = messages.findLast((m) => m.kind === "turn");
  return !!last && last.role !== "assistant" && last.blocks.some((b) => b.type === "tool_result");
}
