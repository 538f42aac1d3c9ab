/**
 * Reasoning that cannot go back to the provider that made it (another vendor's signature or encrypted payload
 * means nothing to the target's provider) is carried as plain text, marked so a reader sees what it was.
 */
import type { ReasoningBlock, TextBlock } from "./schema.ts";

export function reasoningAsText(block: ReasoningBlock): TextBlock | undefined {
  return block.text.trim() ? { type: "text", text: `[reasoning] ${block.text}` } : undefined;
}
