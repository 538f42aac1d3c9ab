/**
 * A family's own tokenizer, where npm has one that matches its current models: OpenAI's o200k_base
 * (gpt-tokenizer) for GPT-5, GPT-4.1, GPT-4o and the o-series. Loaded only when a fit needs exact counts (its
 * tables take 0.2-0.5 s to load), and fed hostile text safely: a session's text is tokenized as text (a
 * special token's spelling in it is counted as the characters it is, as the API does), and in chunks of at
 * most CHUNK characters, cut before a word's space where one is near, because byte-pair merging is quadratic in the
 * length of a run with no break (100,000 letters in one run took 35 s; in chunks, 1 MB of any text takes under
 * a second). A cut before a word's space changes no count; a cut inside a run adds at most a token.
 */
import { garbagePacer } from "../io/garbage.ts";
import { collectYoungGarbage } from "../runtime.ts";
import { counterOf, type TokenCounter, type TokenFamily } from "./tokens.ts";

const CHUNK = 512;
const COLLECT_EVERY_CHARACTERS = 256 * 1024;
const SPACE = /\s/;

/** A space that starts a word: no piece of the tokenizer's split spans it, so a cut before it is invisible. */
const wordStart = (text: string, at: number) => text[at] === " " && !SPACE.test(text[at - 1] ?? " ");

/** `text` cut into chunks of at most CHUNK characters, each cut moved back to a word's space in its second half. */
function* chunks(text: string): Generator<string> {
  for (let start = 0; start < text.length;) {
    let end = Math.min(text.length, start + CHUNK);
    if (end < text.length) {
      let cut = end;
      while (cut > start + CHUNK / 2 && !wordStart(text, cut)) cut--;
      if (cut > start + CHUNK / 2) end = cut;
    }
    yield text.slice(start, end);
    start = end;
  }
}

/** Whether `family` has a tokenizer on npm (else its counts are estimates: tokens.ts). */
export const hasTokenizer = (family: TokenFamily): boolean => family === "openai";

/** The exact counter of `family`, when it has a tokenizer on npm. */
export async function exactCounter(family: TokenFamily): Promise<TokenCounter | undefined> {
  if (!hasTokenizer(family)) return undefined;
  const { countO200k } = await import("./o200k.ts");
  // Loading the tables leaves about as much garbage as they hold.
  collectYoungGarbage();
  // Counting leaves some 50 bytes of dead matches a character: collected as it goes (garbage.ts).
  const collect = garbagePacer(COLLECT_EVERY_CHARACTERS);
  return counterOf((text) => {
    let tokens = 0;
    for (const chunk of chunks(text)) {
      tokens += countO200k(chunk);
      collect(chunk.length);
    }
    return tokens;
  }, true);
}
