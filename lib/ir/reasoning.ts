/**
 * Reasoning that cannot go back to the provider that made it (another vendor's signature or encrypted payload
 * means nothing to the target's provider) is carried as plain text, marked so a reader sees what it was. The
 * proof is detached before the text leaves, and remembered (provenance) so a hop back to a harness whose
 * provider made it restores the native block exactly.
 */
import type { Block, ReasoningBlock, Session, TextBlock } from "./schema.ts";

export const REASONING_PREFIX = "[reasoning] ";

export function reasoningAsText(block: ReasoningBlock): TextBlock | undefined {
  return block.text.trim() ? { type: "text", text: `${REASONING_PREFIX}${block.text}` } : undefined;
}

export type ProofProvider = "anthropic" | "openai" | "none";

export interface Detached {
  session: Session;
  /** The original blocks whose proof was detached, with the text they travel as. */
  detached: { text: string; block: ReasoningBlock }[];
  /** How many of them carried a proof the target's provider would not accept. */
  proofs: number;
  /** How many reasoning blocks the target shows its model as `[reasoning]` text (no native form there). */
  asText: number;
  /** Blocks whose proof names a provider the source cannot prove it came from (e.g. a router's). */
  unproven: number;
}

/**
 * Detaches every reasoning proof the target's provider would not accept. A proof is accepted only when it is
 * the target's provider's and the source can prove where it came from: a Hermes session run through a router
 * (OpenRouter, ...) records Anthropic-format signatures that no one can show Anthropic made, so those are
 * never replayed, whatever the target.
 * @param travel how the text will read in the target (the neutralized form), for matching on the way back
 * @param provable whether the source harness can prove a block's proof is its named provider's (its
 *   descriptor's `provesReasoning`)
 */
export function detachProofs(
  session: Session,
  accepts: ProofProvider,
  travel: (text: string) => string,
  provable: (session: Session, block: ReasoningBlock) => boolean,
): Detached {
  const out: Detached = { session, detached: [], proofs: 0, asText: 0, unproven: 0 };
  // Claude Code and Codex targets hold reasoning natively only with their provider's proof; there any other
  // reasoning becomes `[reasoning]` text, remembered so a hop back makes it reasoning again. Hermes holds
  // reasoning text natively (only a proof has to stay behind).
  const textTarget = accepts !== "none";
  const block = (b: Block): Block => {
    if (b.type !== "reasoning") return b;
    const proof = !!b.signature || !!b.encrypted;
    const ok = proof && (b.restored || provable(session, b));
    if (proof && !ok) out.unproven++;
    if (ok && b.provider === accepts) return b;
    if (!proof && !textTarget) return b;
    const text = proof ? travel(b.text) : b.text;
    if (ok || (!proof && text.trim())) out.detached.push({ text, block: b });
    if (ok) out.proofs++;
    if (textTarget && text.trim()) out.asText++;
    return { type: "reasoning", text, provider: b.provider };
  };
  const messages = session.messages.map((m) =>
    m.blocks.some((b) => b.type === "reasoning") ? { ...m, blocks: m.blocks.map(block) } : m
  );
  return { ...out, session: { ...session, messages } };
}

/**
 * Puts detached proofs back: a reasoning block, or a `[reasoning]` text block, whose text is one that left
 * with a proof becomes the original block again. Text that no longer matches (edited since) stays as it is.
 */
export function reattachProofs(
  session: Session,
  detached: { text: string; block: ReasoningBlock }[],
): number {
  if (!detached.length) return 0;
  const byText = new Map(detached.map((d) => [d.text, d.block]));
  let restored = 0;
  for (const m of session.messages) {
    m.blocks = m.blocks.map((b) => {
      const text = b.type === "reasoning" && !b.signature && !b.encrypted
        ? b.text
        : b.type === "text" && b.text.startsWith(REASONING_PREFIX)
        ? b.text.slice(REASONING_PREFIX.length)
        : undefined;
      const original = text === undefined ? undefined : byText.get(text);
      if (!original) return b;
      restored++;
      return original.signature || original.encrypted ? { ...original, restored: true } : original;
    });
  }
  return restored;
}
