/**
 * The campaign's randomness: one generator per mutant, derived from the campaign seed and the mutant's index,
 * so any mutant can be replayed alone (`--only`) without generating the ones before it.
 */
import { xoroshiro128plus } from "pure-rand/generator/xoroshiro128plus";
import { uniformInt } from "pure-rand/distribution/uniformInt";

export interface Random {
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  bytes(count: number): Buffer;
}

export function mutantRandom(seed: number, index: number): Random {
  const generator = xoroshiro128plus(mix(seed, index));
  const random: Random = {
    int: (min, max) => uniformInt(generator, min, max),
    pick(items) {
      if (!items.length) throw new Error("pick from nothing");
      return items[random.int(0, items.length - 1)]!;
    },
    bytes: (count) => Buffer.from(Array.from({ length: count }, () => random.int(0, 255))),
  };
  return random;
}

/** A 32-bit seed from two numbers (murmur3's finalizer): neighbouring indexes get unrelated streams. */
function mix(seed: number, index: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ index;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}
