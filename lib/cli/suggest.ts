/**
 * "Did you mean": the word nearest to a mistyped command or flag, by edit distance, when it is near enough to
 * have been meant. Loaded only on that error path.
 */
import { closest, distance } from "fastest-levenshtein";

/**
 * The candidate `typed` most likely meant (the same letters in another case, a candidate it starts, else one a
 * few edits away), if any.
 */
export function nearest(typed: string, candidates: readonly string[]): string | undefined {
  if (!typed || !candidates.length) return undefined;
  const sameLetters = candidates.find((c) => c.toLowerCase() === typed.toLowerCase());
  if (sameLetters) return sameLetters;
  const started = candidates.filter((c) => typed.length >= 2 && c.startsWith(typed));
  if (started.length === 1) return started[0];
  const best = closest(typed, [...candidates]);
  return distance(typed, best) <= Math.max(2, Math.ceil(best.length / 3)) ? best : undefined;
}

/** `: did you mean X?`, or `otherwise` when no candidate is near. */
export function didYouMean(typed: string, candidates: readonly string[], otherwise = ""): string {
  const found = nearest(typed, candidates);
  return found === undefined ? otherwise : `: did you mean ${found}?`;
}
