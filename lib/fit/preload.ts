/**
 * Whether a conversion about to read a session will fit it with a tokenizer, guessed before the read from what
 * is known then (the target, the flags, the file's size), so the tokenizer loads on a second thread while the
 * session is read (tokenizer-thread.ts). A wrong guess costs only time: a thread loaded for nothing (on the
 * other core; a file this large seldom holds so little text), or a fit that loads the tokenizer itself.
 */
import { statSync } from "node:fs";
import type { Harness } from "../harnesses/types.ts";
import type { FitMode } from "./fit.ts";
import { startTokenizerThread } from "./tokenizer.ts";
import type { TokenizerThread } from "./tokenizer-thread.ts";
import { tokenFamily } from "./tokens.ts";
import { fitBudget, fittedModel, modelWindow } from "./windows.ts";

/**
 * Bytes of a session's file per character of its text, at least, for the sessions that matter here: a
 * harness's records carry ids, times and metadata beside each text, so a file this many times the budget
 * holds more characters than the budget, the point where a fit loads the tokenizer (fit.ts).
 */
const FILE_BYTES_PER_CHARACTER = 4;

export interface FitGuess {
  fit?: FitMode;
  context?: number;
  /** --model, when given: else the target's own default decides the family. */
  model?: string;
}

/**
 * The tokenizer loading on a second thread when converting the file at `path` from `from` into `target` will
 * need it (the conversion gives it to its fit, then stops it).
 */
export function preloadForFit(
  from: Harness,
  target: Harness,
  path: string,
  guess: FitGuess,
): TokenizerThread | undefined {
  // A copy within one harness is never fitted.
  if (from.name === target.name || guess.fit === "off") return undefined;
  const rules = target.conversation.models;
  const family = tokenFamily(fittedModel(rules, guess.model));
  if (family !== "openai") return undefined;
  const budget = typeof guess.fit === "number"
    ? guess.fit
    : fitBudget(modelWindow(rules, guess.model, guess.context ? { flag: guess.context } : {}).tokens);
  let bytes: number;
  try {
    bytes = statSync(path).size;
  } catch {
    return undefined;
  }
  return bytes >= FILE_BYTES_PER_CHARACTER * budget ? startTokenizerThread(family) : undefined;
}

/** What a conversion's read and fit are given of a tokenizer preloaded for it. */
export interface TokenizerPreload {
  /** For the read (LoadRequest.beforeRead): starts the thread once the file is known, when the fit will need it. */
  beforeRead(from: Harness, path: string): void;
  /** For the fit (ConversionRequest.tokenizer): the thread, once started. */
  request(): { tokenizer?: TokenizerThread };
}

/** Runs a conversion into `target` whose read may start the tokenizer's thread; the thread is stopped after. */
export async function withTokenizerPreload<T>(
  target: Harness,
  guess: FitGuess,
  conversion: (preload: TokenizerPreload) => Promise<T>,
): Promise<T> {
  let thread: TokenizerThread | undefined;
  try {
    return await conversion({
      beforeRead: (from, path) => {
        thread ??= preloadForFit(from, target, path, guess);
      },
      request: () => (thread ? { tokenizer: thread } : {}),
    });
  } finally {
    await thread?.stop();
  }
}
