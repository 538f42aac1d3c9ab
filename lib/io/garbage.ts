/**
 * A long pass's garbage collected as it goes (see runtime.ts): the young generation every few megabytes of
 * work, and everything every few dozen where the pass asks for it. Without it a pass over a session of hundreds
 * of megabytes ran up to twice what it holds live.
 */
import { collectYoungGarbage, reclaimMemory } from "../runtime.ts";

const MB = 1024 * 1024;
/** Work (bytes read or written, characters counted) between two young collections: a few milliseconds' worth. */
export const YOUNG_EVERY = 4 * MB;
/** Work between two full collections: they take what outlived the young ones. */
export const ALL_EVERY = 64 * MB;

/** A counter of a pass's work that collects the young garbage every `young` of it, and everything every `all`. */
export function garbagePacer(young = YOUNG_EVERY, all = Infinity): (work: number) => void {
  let sinceYoung = 0;
  let sinceAll = 0;
  return (work) => {
    sinceYoung += work;
    sinceAll += work;
    if (sinceAll >= all) {
      sinceAll = 0;
      sinceYoung = 0;
      reclaimMemory();
    } else if (sinceYoung >= young) {
      sinceYoung = 0;
      collectYoungGarbage();
    }
  };
}
