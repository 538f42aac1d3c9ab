/**
 * OpenAI's o200k_base byte-pair core (gpt-tokenizer), made as the package's own o200k_base module makes it but
 * for one step. The core's constructor sizes the vocabulary with `Object.keys` of its 200,000 ranks, which
 * makes and drops a string for every index (about 0.1 s of CPU, over a third of the load), for a size a count
 * never reads. It is handed the ranks behind a view that lists no keys (its size is then 0, read only by the
 * package's vocabulary check, not made here); everything else reads the ranks as they are. Counted by
 * `countNative` with no special token allowed, text is counted as `countTokens` with `disallowedSpecial` empty
 * counts it (tests/fit-tokenizer.test.ts checks one against the other).
 */
import { BytePairEncodingCore } from "gpt-tokenizer/BytePairEncodingCore";
import bpe from "gpt-tokenizer/bpeRanks/o200k_base";
import { O200KBase } from "gpt-tokenizer/encodingParams/o200k_base";

/**
 * The ranks as the core reads them, but listing no keys. The view's target is an empty array, not the ranks: a
 * proxy's key list is checked against its target's, which would list the ranks' 200,000 keys after all. The
 * constructor's walk (`forEach`) runs on the ranks themselves, not through the view's slower reads.
 */
const unlisted = new Proxy(bpe.slice(0, 0), {
  get: (_, key) => key === "forEach" ? bpe.forEach.bind(bpe) : Reflect.get(bpe, key),
});

const core = new BytePairEncodingCore({ ...O200KBase(unlisted), bytePairRankDecoder: unlisted });

/** The tokens of `text` by o200k_base, a special token's spelling counted as the characters it is. */
export const countO200k = (text: string): number => core.countNative(text);
