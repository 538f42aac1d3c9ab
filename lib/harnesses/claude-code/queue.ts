/**
 * Replays Claude Code's `queue-operation` records (input typed while the agent was busy) to find what is still
 * waiting. Semantics follow Claude's queue: enqueue appends, dequeue takes the oldest, remove drops the entry
 * with the same content, popAll empties the queue into the prompt.
 */
import type { QueuedInput } from "../../ir/schema.ts";

type Json = Record<string, unknown>;

export function replayQueue(operations: Json[]): QueuedInput[] {
  const queue: QueuedInput[] = [];
  for (const op of operations) {
    const text = typeof op.content === "string" ? op.content : "";
    const timestamp = typeof op.timestamp === "string" ? op.timestamp : undefined;
    switch (op.operation) {
      case "enqueue":
        queue.push({ text, ...(timestamp ? { timestamp } : {}) });
        break;
      case "dequeue":
        queue.shift();
        break;
      case "remove": {
        const at = queue.findIndex((q) => q.text === text);
        if (at !== -1) queue.splice(at, 1);
        break;
      }
      case "popAll":
        queue.length = 0;
        break;
    }
  }
  return queue;
}
