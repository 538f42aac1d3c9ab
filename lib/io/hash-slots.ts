/**
 * Open addressing over numbered entries, shared by the compact stores (uuid-table.ts, string-set.ts): each slot
 * of an Int32Array holds an entry's number plus one, 0 when free, and a table is kept at most half full.
 */

/** The slot of the entry `same` accepts among those hashed like it, else the free slot where it would go. */
export function probe(slots: Int32Array, hash: number, same: (entry: number) => boolean): number {
  const mask = slots.length - 1;
  for (let slot = hash & mask;; slot = (slot + 1) & mask) {
    const held = slots[slot]! - 1;
    if (held === -1 || same(held)) return slot;
  }
}

/** `slots` with room for `entries` (twice as large, its entries placed again by `hashOf`), or as it is. */
export function roomFor(
  slots: Int32Array<ArrayBuffer>,
  entries: number,
  hashOf: (entry: number) => number,
): Int32Array<ArrayBuffer> {
  if (entries * 2 <= slots.length) return slots;
  const grown = new Int32Array(slots.length * 2);
  const mask = grown.length - 1;
  for (const held of slots) {
    if (held === 0) continue;
    let slot = hashOf(held - 1) & mask;
    while (grown[slot] !== 0) slot = (slot + 1) & mask;
    grown[slot] = held;
  }
  return grown;
}
