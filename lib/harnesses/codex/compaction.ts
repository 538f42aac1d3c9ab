/**
 * Codex's own compaction, as the real binary writes it (fixtures/codex/<version>/compacted.jsonl, checked by
 * tests/native-compaction.test.ts): a `compacted` line whose `replacement_history` is the model's whole context
 * from then on (Codex's own holds its context and the user messages it keeps, then the summary as a user
 * message) and whose `message` is the summary. On resume Codex rebuilds the context from the last such line
 * and the items after it, so the turns written before it stay on disk for the user to scroll and cost the
 * model nothing.
 */
import type { Message } from "../../ir/schema.ts";
import { summaryText } from "../../ir/compacted.ts";
import { messageItem } from "./items.ts";
import type { LineWriter } from "./lines.ts";

/**
 * The line for `summary`: the model's context from here on is the summary, as the user's message (what stands
 * before it in the live thread is harness context, which the target adds again of its own).
 */
export function compactedLine(out: LineWriter, summary: Message): string {
  const text = summaryText(summary);
  const item = messageItem("user", [{ type: "text", text }]);
  return out.line("compacted", { message: text, replacement_history: item ? [item] : [] }, summary.timestamp);
}
