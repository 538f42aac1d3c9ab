/** `--fit auto|off|TOKENS` and `--context TOKENS` as words on a command line, read into what lib/fit takes. */
import { InputError } from "../errors.ts";
import type { FitMode } from "./fit.ts";

/** A positive whole number of tokens, written with digits only (`200000`, not `200k` or `2e5`). */
const TOKENS = /^[1-9][0-9]{0,9}$/;

function tokens(flag: string, word: string): number {
  if (!TOKENS.test(word)) {
    throw new InputError(`${flag} takes a number of tokens (digits), not ${JSON.stringify(word)}`);
  }
  return Number(word);
}

export function parseFit(word: string | undefined): FitMode | undefined {
  if (word === undefined) return undefined;
  if (word === "auto" || word === "off") return word;
  if (!TOKENS.test(word)) {
    throw new InputError(`--fit takes auto, off or a number of tokens, not ${JSON.stringify(word)}`);
  }
  return Number(word);
}

export function parseContext(word: string | undefined): number | undefined {
  return word === undefined ? undefined : tokens("--context", word);
}
