/**
 * Token counts of IR messages as the target's model would see them. OpenAI's models are counted by their own
 * tokenizer (tokenizer.ts) where a fit is close enough to matter; every other family is estimated from
 * characters, as no tokenizer on npm matches Claude's or Gemini's current models. The characters per token
 * are calibrated per provider family against the input usage the captured fixtures recorded
 * (bench/fit-estimate.ts measures the error; README, Fitting, gives the figures).
 */
import type { Block, Message } from "../ir/schema.ts";
import { bareModel } from "../harnesses/models.ts";

export type TokenFamily = "anthropic" | "openai" | "google" | "other";

/**
 * Characters per token, by family, calibrated on the fixtures (bench/fit-estimate.ts): a request's growth over
 * the previous one includes what the harness injects into each turn besides the session's own text, so these
 * are lower than a tokenizer's ratio for prose; erring low makes a fit keep less, never overflow. OpenAI's
 * fixtures record usage per thread only, so its ratio is measured against OpenAI's own tokenizer (o200k_base):
 * 4.4 characters a token on the fixtures, 3.9 on a generated long session, the lower taken (estimate/actual
 * 1.14 and 1.00); it decides only whether a session is far enough from its window not to need the tokenizer.
 * Models of no known family get the lowest measured ratio.
 */
export const CHARS_PER_TOKEN: Readonly<Record<TokenFamily, number>> = {
  anthropic: 2.35,
  openai: 3.9,
  google: 2.5,
  other: 2.35,
};

/**
 * Estimated tokens over this many budgets are over it whatever the tokenizer says (a count of under half the
 * estimate would take over 7.8 characters a token), so such texts are not tokenized: the tokenizer's work stays
 * within a few budgets' worth of text however long the session.
 */
export const SURELY_OVER = 2;

/** The most characters a token could take, by any family's estimate or tokenizer. */
const MOST_CHARS_PER_TOKEN = Math.max(...Object.values(CHARS_PER_TOKEN)) * SURELY_OVER;

/** The fewest tokens any text of `chars` characters could count, by any family's estimate or tokenizer. */
export const fewestTokens = (chars: number): number => chars / MOST_CHARS_PER_TOKEN;

/** What each message costs besides its content (role markers, turn separators), and an image, in tokens. */
const MESSAGE_OVERHEAD = 4;
const IMAGE_TOKENS = 1_600;

export function tokenFamily(model: string | undefined): TokenFamily {
  const bare = model === undefined ? "" : bareModel(model);
  if (/^claude-/.test(bare)) return "anthropic";
  if (/^(?:gpt-|o\d|codex-|chatgpt-)/.test(bare)) return "openai";
  if (/^gemini-/.test(bare)) return "google";
  return "other";
}

/** A counter of message tokens for one family. */
export interface TokenCounter {
  /** Counted by the family's own tokenizer, not estimated. */
  exact: boolean;
  text(text: string): number;
  message(message: Message): number;
}

/** The estimating counter of a family. */
export function tokenCounter(family: TokenFamily): TokenCounter {
  const perToken = CHARS_PER_TOKEN[family];
  return counterOf((t) => Math.ceil(t.length / perToken), false);
}

/** A message counter over a counter of text: a message is its blocks' text, tool inputs as JSON. */
export function counterOf(text: (text: string) => number, exact: boolean): TokenCounter {
  const block = (b: Block): number => {
    switch (b.type) {
      case "text":
      case "reasoning":
        return text(b.text);
      case "tool_call":
        return text(b.name) + text(typeof b.input === "string" ? b.input : JSON.stringify(b.input) ?? "");
      case "tool_result":
        return b.content.reduce((sum, part) => sum + block(part), 0);
      case "image":
        return IMAGE_TOKENS;
      case "raw":
        return text(JSON.stringify(b.value) ?? "");
    }
  };
  return {
    exact,
    text,
    message: (m) => m.blocks.reduce((sum, b) => sum + block(b), MESSAGE_OVERHEAD),
  };
}
