/** Where a thread's turns begin and which cuts keep every tool call beside its result. */
import type { Message } from "../ir/schema.ts";

/** A message the user typed: a turn's first message (a user message carrying only tool results is not one). */
export function isPrompt(m: Message): boolean {
  return m.role === "user" && m.kind === "turn" && m.blocks.some((b) => b.type === "text") &&
    !m.blocks.some((b) => b.type === "tool_result");
}

/**
 * For each position c in 0..messages.length, whether cutting before message c leaves every tool call on the
 * same side as its result: no call made before c is answered at or after c. A result answers the latest call
 * of its id not answered yet (an id used again, as some sessions do, starts a new pair), found in one pass;
 * a second counts the pairs spanning each cut.
 */
export function cleanCuts(messages: readonly Message[]): boolean[] {
  const open = new Map<string, number>();
  // +1 where a pair starts spanning (after its call), -1 once its result is passed.
  const change = new Array<number>(messages.length + 2).fill(0);
  messages.forEach((m, i) => {
    for (const b of m.blocks) {
      if (b.type === "tool_call") open.set(b.id, i);
      if (b.type !== "tool_result") continue;
      const call = open.get(b.callId);
      open.delete(b.callId);
      if (call === undefined || call >= i) continue;
      change[call + 1]!++;
      change[i + 1]!--;
    }
  });
  const clean: boolean[] = [];
  let spanning = 0;
  for (let c = 0; c <= messages.length; c++) {
    spanning += change[c]!;
    clean.push(spanning === 0);
  }
  return clean;
}
