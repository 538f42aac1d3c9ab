/**
 * Reasoning that cannot go back to the provider that made it (another vendor's signature or encrypted payload
 * means nothing to the target's provider) is carried as plain text, marked so a reader sees what it was. The
 * proof is detached before the text leaves, and remembered (provenance) so a hop back to a harness whose
 * provider made it restores the native block exactly.
 */
import type { Block, Message, ReasoningBlock, TextBlock } from "./schema.ts";

export const REASONING_PREFIX = "[reasoning] ";

export function reasoningAsText(block: ReasoningBlock): TextBlock | undefined {
  const text = reasoningText(block);
  return text === undefined ? undefined : { type: "text", text };
}

/** The text reasoningAsText carries, for a writer that puts it straight into its own part. */
export function reasoningText(block: ReasoningBlock): string | undefined {
  return block.text.trim() ? `${REASONING_PREFIX}${block.text}` : undefined;
}

/**
 * The provider whose reasoning proofs a target's provider accepts back: a provider id as reasoning blocks name
 * it (PROVIDER_ID), or `none` for a target whose provider is not known (it holds reasoning as text).
 */
export type ProofProvider = string;

/**
 * The original blocks whose proof was detached, with the text they travel as, kept serialized (the JSON array
 * provenance saves them as) in strings of about a megabyte: a long session detaches tens of thousands, which
 * as objects were live to the end of the write for every collection to trace again.
 */
export class DetachedProofs {
  private readonly chunks: string[] = [];
  private pending: string[] = [];
  private pendingLength = 0;
  private added = 0;
  private bytes = 0;

  get count(): number {
    return this.added;
  }

  /** How many bytes json() is in UTF-8: known before it is built (the room its file takes is reserved). */
  get jsonBytes(): number {
    return this.bytes + Math.max(this.added - 1, 0) + 2;
  }

  add(text: string, block: ReasoningBlock): void {
    const json = JSON.stringify({ text, block });
    this.pending.push(json);
    this.pendingLength += json.length;
    this.bytes += Buffer.byteLength(json);
    this.added++;
    if (this.pendingLength >= CHUNK_LENGTH) this.flush();
  }

  /**
   * As a JSON array of `{ text, block }`, in pieces of about a megabyte, to be written one after another: a
   * long session's proofs made one string (then copied into the file's text and its bytes) took some 90 MB
   * above the 700 MB session's handoff as it saved them.
   */
  *json(): Generator<string> {
    this.flush();
    yield "[";
    for (let i = 0; i < this.chunks.length; i++) {
      if (i) yield ",";
      yield this.chunks[i]!;
    }
    yield "]";
  }

  private flush(): void {
    if (!this.pending.length) return;
    this.chunks.push(this.pending.join(","));
    this.pending = [];
    this.pendingLength = 0;
  }
}

const CHUNK_LENGTH = 1 << 20;

export interface Detached {
  /**
   * The proofs detached; not kept by a pass that only renders (each would be held to the end of the write,
   * and the survey already remembered them).
   */
  detached?: DetachedProofs;
  /** How many of them carried a proof the target's provider would not accept. */
  proofs: number;
  /** How many reasoning blocks the target shows its model as `[reasoning]` text (no native form there). */
  asText: number;
  /** Blocks whose proof names a provider the source cannot prove it came from (e.g. a router's). */
  unproven: number;
}

export const nothingDetached = (keep = true): Detached => ({
  ...(keep ? { detached: new DetachedProofs() } : {}),
  proofs: 0,
  asText: 0,
  unproven: 0,
});

/**
 * Detaches every reasoning proof the target's provider would not accept, one message at a time, recording what
 * it detached in `out`. A proof is accepted only when it is the target's provider's and the source can prove
 * where it came from: a Hermes session run through a router (OpenRouter, ...) records Anthropic-format
 * signatures that no one can show Anthropic made, so those are never replayed, whatever the target.
 * @param travel how the text will read in the target (the neutralized form), for matching on the way back
 * @param provable whether the source harness can prove a block's proof is its named provider's (its
 *   descriptor's `provesReasoning`)
 */
export function proofDetacher(
  accepts: ProofProvider,
  travel: (text: string) => string,
  provable: (block: ReasoningBlock) => boolean,
): (m: Message, out: Detached) => Message {
  // A target bound to one provider (Claude Code: anthropic) holds reasoning natively only with that
  // provider's proof; there any other reasoning becomes `[reasoning]` text, remembered so a hop back makes it
  // reasoning again. A target of no one provider (`none`: Hermes) holds reasoning text natively (only a proof
  // has to stay behind).
  const textTarget = accepts !== "none";
  const block = (b: Block, out: Detached): Block => {
    if (b.type !== "reasoning") return b;
    const proof = !!b.signature || !!b.encrypted;
    const ok = proof && (b.restored || provable(b));
    if (proof && !ok) out.unproven++;
    if (ok && b.provider === accepts) return b;
    if (!proof && !textTarget) return b;
    const text = proof ? travel(b.text) : b.text;
    if (ok || (!proof && text.trim())) out.detached?.add(text, b);
    if (ok) out.proofs++;
    if (textTarget && text.trim()) out.asText++;
    return { type: "reasoning", text, provider: b.provider };
  };
  return (m, out) =>
    m.blocks.some((b) => b.type === "reasoning") ? { ...m, blocks: m.blocks.map((b) => block(b, out)) } : m;
}

/**
 * Puts detached proofs back, one message at a time: a reasoning block, or a `[reasoning]` text block, whose
 * text is one that left with a proof becomes the original block again. Text that no longer matches (edited
 * since) stays as it is.
 */
export function proofReattacher(
  detached: { text: string; block: ReasoningBlock }[],
): (m: Message) => Message {
  const byText = new Map(detached.map((d) => [d.text, d.block]));
  const block = (b: Block): Block => {
    const text = b.type === "reasoning" && !b.signature && !b.encrypted
      ? b.text
      : b.type === "text" && b.text.startsWith(REASONING_PREFIX)
      ? b.text.slice(REASONING_PREFIX.length)
      : undefined;
    const original = text === undefined ? undefined : byText.get(text);
    if (!original) return b;
    return original.signature || original.encrypted ? { ...original, restored: true } : original;
  };
  return (m) => (byText.size ? { ...m, blocks: m.blocks.map(block) } : m);
}
