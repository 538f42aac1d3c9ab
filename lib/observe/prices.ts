/**
 * What a model's tokens cost, for an estimate where the harness records tokens but no cost (Claude Code and
 * Codex; Hermes records its own cost, which is never replaced). Prices change: the table is dated
 * (`PRICES_AS_OF`), every estimate carries that date, and a model missing here gets no cost rather than a guess.
 *
 * US dollars per million tokens, at the standard (not batch, not priority) rate, as of 2026-12-01, from:
 * - Anthropic's and OpenAI's published price lists for the models up to Claude Opus 4.5 / Sonnet 4.5 /
 *   Haiku 4.5 and GPT-5 / GPT-5.1 (their codex variants included);
 * - for the models released after those, LazyBridge 1.8.3's provider price tables
 *   (`lazybridge/core/providers/anthropic.py` and `openai.py`, whose newest price note is of 2026-09-28),
 *   which copy the same vendor pages.
 * Anthropic bills cache reads at 10 % of the input price (Opus 5.5: 5 %) and 5-minute cache writes at 125 %;
 * the IR does not tell 1-hour writes (200 %) apart, so those are under-counted. OpenAI bills cached input at
 * its own rate and charges nothing extra for writing the cache. Long-context surcharges are not modelled.
 */

export const PRICES_AS_OF = "2026-12-01";

/** How a model response's cost was arrived at: its `cost_basis` in an event. */
export const CostBasis = { RECORDED: "recorded", ESTIMATED: "estimated", UNPRICED: "unpriced" } as const;
export type CostBasis = typeof CostBasis[keyof typeof CostBasis];

export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Tokens as the IR counts them: `input` is the uncached part of the prompt. */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** Written out as the price pages give them (not as shares of the input price: 3 × 0.1 is not 0.3 in floats). */
const anthropic = (input: number, output: number, cacheRead: number, cacheWrite: number): ModelPrice => ({
  input,
  output,
  cacheRead,
  cacheWrite,
});

const openai = (input: number, cachedInput: number, output: number): ModelPrice => ({
  input,
  output,
  cacheRead: cachedInput,
  cacheWrite: input,
});

/** By model id as the harnesses record it, without a date suffix. */
const PRICES: Readonly<Record<string, ModelPrice>> = {
  "claude-opus-5-5": anthropic(4, 20, 0.2, 5),
  "claude-opus-5": anthropic(5, 25, 0.5, 6.25),
  "claude-sonnet-5-5": anthropic(2, 10, 0.2, 2.5),
  "claude-sonnet-5": anthropic(2, 10, 0.2, 2.5),
  "claude-opus-4-8": anthropic(5, 25, 0.5, 6.25),
  "claude-opus-4-7": anthropic(5, 25, 0.5, 6.25),
  "claude-opus-4-6": anthropic(5, 25, 0.5, 6.25),
  "claude-opus-4-5": anthropic(5, 25, 0.5, 6.25),
  "claude-opus-4-1": anthropic(15, 75, 1.5, 18.75),
  "claude-opus-4": anthropic(15, 75, 1.5, 18.75),
  "claude-sonnet-4-6": anthropic(3, 15, 0.3, 3.75),
  "claude-sonnet-4-5": anthropic(3, 15, 0.3, 3.75),
  "claude-sonnet-4": anthropic(3, 15, 0.3, 3.75),
  "claude-haiku-4-5": anthropic(1, 5, 0.1, 1.25),
  "claude-3-7-sonnet": anthropic(3, 15, 0.3, 3.75),
  "claude-3-5-haiku": anthropic(0.8, 4, 0.08, 1),
  "gpt-5.6-sol": openai(5, 0.5, 30),
  "gpt-5.6-terra": openai(2, 0.2, 12),
  "gpt-5.6-luna": openai(0.2, 0.02, 1.2),
  "gpt-5.6": openai(5, 0.5, 30),
  "gpt-5.5": openai(5, 0.5, 30),
  "gpt-5.4-mini": openai(0.75, 0.075, 4.5),
  "gpt-5.4-nano": openai(0.2, 0.02, 1.25),
  "gpt-5.4": openai(2.5, 0.25, 15),
  "gpt-5.1-codex-max": openai(1.25, 0.125, 10),
  "gpt-5.1-codex-mini": openai(0.25, 0.025, 2),
  "gpt-5.1-codex": openai(1.25, 0.125, 10),
  "gpt-5.1": openai(1.25, 0.125, 10),
  "gpt-5-codex": openai(1.25, 0.125, 10),
  "gpt-5-mini": openai(0.25, 0.025, 2),
  "gpt-5-nano": openai(0.05, 0.005, 0.4),
  "gpt-5": openai(1.25, 0.125, 10),
};

/** The longest model name priceOf reads (the regex-safety test's allow-list names this bound). */
export const LONGEST_MODEL_NAME = 256;

/**
 * The model's price, or undefined. Ids are matched whole, after dropping what names the same model elsewhere:
 * a router's `provider/` prefix, Bedrock's `[region.]anthropic.` and `-v1:0`, a release date (`-20250929`,
 * `-2025-08-07`, Vertex's `@20250929`) and Claude Code's context tag (`[1m]`). Nothing else is stripped, so
 * `gpt-5.2` or `claude-opus-4-9` is unknown, not priced as a neighbour.
 */
export function priceOf(model: string): ModelPrice | undefined {
  // No priced id is near this long, and the suffix patterns below retry from each `[` or `@` of what they read:
  // a longer name (a hostile session's) is unknown without being read.
  if (model.length > LONGEST_MODEL_NAME) return undefined;
  const id = model.toLowerCase().trim()
    .replace(/^.*\//, "")
    .replace(/^(?:[a-z]{2,4}\.)?anthropic\./, "")
    .replace(/-v\d+(?::\d+)?$/, "")
    .replace(/\[[^\]]*\]$/, "")
    .replace(/@.*$/, "")
    .replace(/-(?:\d{8}|\d{4}-\d{2}-\d{2})$/, "");
  return Object.hasOwn(PRICES, id) ? PRICES[id] : undefined;
}

/** US dollars for these tokens at the model's price; undefined for a model the table does not have. */
export function estimateCost(model: string, tokens: TokenCounts): number | undefined {
  const price = priceOf(model);
  if (!price) return undefined;
  return (tokens.input * price.input + tokens.output * price.output + tokens.cacheRead * price.cacheRead +
    tokens.cacheWrite * price.cacheWrite) / 1_000_000;
}
