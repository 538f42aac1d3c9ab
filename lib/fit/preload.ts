/**
 * Whether a conversion about to read a session will fit it with a tokenizer, guessed before the read from what
 * is known then (the target, the flags, the file's size), so the tokenizer loads on a second thread while the
 * session is read (tokenizer-thread.ts). A wrong guess costs only time: a thread loaded for nothing (on the
 * other core; a file this large seldom holds so little text), or a fit that loads the tokenizer itself.
 */
import { statSync } from "node:fs";
import type { Harness } from "../harnesses/types.ts";
import type { FitMode } from "./fit.ts";
import { preloadTokenizer } from "./tokenizer.ts";
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
 * Starts the tokenizer loading when converting the file at `path` from `from` into `target` will need it;
 * returns whether it is loading.
 */
export function preloadForFit(from: Harness, target: Harness, path: string, guess: FitGuess): boolean {
  // A copy within one harness is never fitted.
  if (from.name === target.name || guess.fit === "off") return false;
  const rules = target.conversation.models;
  const family = tokenFamily(fittedModel(rules, guess.model));
  if (family !== "openai") return false;
  const budget = typeof guess.fit === "number"
    ? guess.fit
    : fitBudget(modelWindow(rules, guess.model, guess.context ? { flag: guess.context } : {}).tokens);
  let bytes: number;
  try {
    bytes = statSync(path).size;
  } catch {
    return false;
  }
  return bytes >= FILE_BYTES_PER_CHARACTER * budget && preloadTokenizer(family);
}
