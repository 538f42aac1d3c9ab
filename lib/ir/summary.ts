/** Facts derived from IR messages that every harness reports the same way. */
import type { Message, Session, Usage } from "./schema.ts";

const TITLE_MAX = 100;

/**
 * A title as a person would give it: the first line of the first thing the user actually typed, looking at
 * compacted history first (after a compaction the live thread starts with a summary).
 */
export function titleFromFirstUserText(session: Session): string | undefined {
  const compacted = session.threads.filter((t) => t.kind === "compacted").flatMap((t) => t.messages);
  return firstUserTitle([...compacted, ...session.messages]);
}

/** The title of the first message of `messages` the user typed (iterated only as far as it takes). */
export function firstUserTitle(messages: Iterable<Message>): string | undefined {
  for (const m of messages) {
    if (m.role !== "user" || m.kind !== "turn") continue;
    for (const block of m.blocks) {
      if (block.type !== "text") continue;
      const line = titleLine(block.text);
      if (line) return line;
    }
  }
  return undefined;
}

/** The first line of a text, shortened to a title's length (an ellipsis marks the cut). */
export function titleLine(text: string): string | undefined {
  const line = text.trim().split("\n")[0]?.trim();
  if (!line) return undefined;
  return line.length > TITLE_MAX ? `${line.slice(0, TITLE_MAX - 1)}…` : line;
}

/** Distinct models in the order they were first used. */
export function modelsOf(messages: Message[]): string[] {
  return [...new Set(messages.flatMap((m) => (m.model ? [m.model] : [])))];
}

/** The newest message time: the conversation's last activity (not a later record that only names the session). */
export function lastMessageTime(messages: readonly Message[]): string | undefined {
  let last: string | undefined;
  for (const m of messages) if (m.timestamp && (!last || m.timestamp > last)) last = m.timestamp;
  return last;
}

/** The messages' usage added up; undefined when none has any. */
export function totalUsage(messages: readonly Message[]): Usage | undefined {
  const used = messages.flatMap((m) => (m.usage ? [m.usage] : []));
  if (!used.length) return undefined;
  return used.reduce(addUsage);
}

/** Two usages added up. */
export function addUsage(a: Usage, u: Usage): Usage {
  return {
    inputTokens: a.inputTokens + u.inputTokens,
    outputTokens: a.outputTokens + u.outputTokens,
    cacheReadTokens: a.cacheReadTokens + u.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + u.cacheWriteTokens,
  };
}

export interface BlockCounts {
  messages: number;
  text: number;
  reasoning: number;
  toolCalls: number;
  toolResults: number;
  images: number;
  raw: number;
}

export function countBlocks(messages: Message[]): BlockCounts {
  const counts: BlockCounts = {
    messages: messages.length,
    text: 0,
    reasoning: 0,
    toolCalls: 0,
    toolResults: 0,
    images: 0,
    raw: 0,
  };
  for (const m of messages) {
    for (const b of m.blocks) {
      if (b.type === "text") counts.text++;
      else if (b.type === "reasoning") counts.reasoning++;
      else if (b.type === "tool_call") counts.toolCalls++;
      else if (b.type === "tool_result") counts.toolResults++;
      else if (b.type === "image") counts.images++;
      else counts.raw++;
    }
  }
  return counts;
}
