/**
 * Codex's own compaction, as the real binary writes it (fixtures/codex/<version>/compacted.jsonl, checked by
 * tests/native-compaction.test.ts): a `compacted` line whose `replacement_history` is the model's whole context
 * from then on (the user messages Codex keeps, then the summary as a user message) and whose `message` is the
 * summary. On resume Codex rebuilds the context from the last such line and the items after it, so the turns
 * written before it stay on disk for the user to scroll and cost the model nothing.
 */
import type { Message } from "../../ir/schema.ts";
import { summaryText } from "../../ir/compacted.ts";
import { isHandshake } from "../../handshake/handshake.ts";
import type { CodexResponseItemMessage } from "../../generated/codex/0.169.0.ts";
import { messageItem } from "./items.ts";
import type { LineWriter } from "./lines.ts";

/**
 * The line for `kept` (the live thread up to and including the summary, its last message): each message's
 * words as Codex keeps them, in order; harness context is the target's own to add again.
 */
export function compactedLine(out: LineWriter, kept: readonly Message[]): string {
  const summary = kept.at(-1)!;
  const items = kept.flatMap((m): CodexResponseItemMessage[] => {
    if (m.kind === "context" || isHandshake(m)) return [];
    const item = messageItem(m.role === "assistant" ? "assistant" : "user", m.blocks);
    return item ? [item] : [];
  });
  return out.line(
    "compacted",
    { message: summaryText(summary), replacement_history: items },
    summary.timestamp,
  );
}
