/** Where a thread's turns begin and which cuts keep every tool call beside its result. */
import type { Message } from "../ir/schema.ts";
import { int32Column } from "../io/columns.ts";

/** A message the user typed: a turn's first message (a user message carrying only tool results is not one). */
export function isPrompt(m: Message): boolean {
  return m.role === "user" && m.kind === "turn" && m.blocks.some((b) => b.type === "text") &&
    !m.blocks.some((b) => b.type === "tool_result");
}

/**
 * For each position c in 0..n of a thread of n messages, told one message at a time, whether cutting before
 * message c leaves every tool call on the same side as its result: no call made before c is answered at or
 * after c. A result answers the latest call of its id not answered yet (an id used again, as some sessions do,
 * starts a new pair); the pairs spanning each cut are counted once the thread is told.
 */
export class CleanCuts {
  readonly #open = new Map<string, number>();
  /** +1 where a pair starts spanning (after its call), -1 once its result is passed; by position + 1. */
  readonly #change = int32Column();
  #length = 0;

  add(m: Message): void {
    const i = this.#length++;
    for (const b of m.blocks) {
      if (b.type === "tool_call") this.#open.set(b.id, i);
      if (b.type !== "tool_result") continue;
      const call = this.#open.get(b.callId);
      this.#open.delete(b.callId);
      if (call === undefined || call >= i) continue;
      this.#change.set(call + 1, this.#change.get(call + 1) + 1);
      this.#change.set(i + 1, this.#change.get(i + 1) - 1);
    }
  }

  /** The clean cuts from `from` on, ascending, cutting before some message (0 < c <= n). */
  cleanFrom(from: number): number[] {
    const clean: number[] = [];
    let spanning = 0;
    for (let c = 0; c <= this.#length; c++) {
      spanning += this.#change.get(c);
      if (spanning === 0 && c > 0 && c >= from) clean.push(c);
    }
    return clean;
  }
}
