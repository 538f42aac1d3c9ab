/**
 * A set of strings for hundreds of thousands of entries (every call id a long thread answered): the strings
 * kept as bytes in a StringPool and found through a hash table of numbers (hash-slots.ts), instead of a Set whose every string
 * the collector traces again at each full collection (a set growing with the thread made a 700 MB conversion's
 * collections grow with it).
 */
import { int32Column } from "./columns.ts";
import { StringPool } from "./string-pool.ts";
import { probe, roomFor } from "./hash-slots.ts";

export class StringSet {
  private readonly pool = new StringPool();
  /** Each entry's hash, so growing the table reads no string back. */
  private readonly hashes = int32Column();
  /** Open addressing: each slot holds an entry's number plus one, 0 when free. */
  private slots = new Int32Array(1 << 10);

  get size(): number {
    return this.pool.size;
  }

  has(text: string): boolean {
    return this.slots[this.slotOf(text, hashOf(text))] !== 0;
  }

  /** The number `text` is held as (0, 1, 2, ... as first added), or -1 when it was never added. */
  indexOf(text: string): number {
    return this.slots[this.slotOf(text, hashOf(text))]! - 1;
  }

  /** Adds `text` unless it is held; returns its number. */
  add(text: string): number {
    const hash = hashOf(text);
    const slot = this.slotOf(text, hash);
    if (this.slots[slot] !== 0) return this.slots[slot]! - 1;
    const id = this.pool.add(text);
    this.slots[slot] = id + 1;
    this.hashes.push(hash);
    this.slots = roomFor(this.slots, this.pool.size, (held) => this.hashes.get(held));
    return id;
  }

  /** String number `id`. */
  get(id: number): string {
    return this.pool.get(id);
  }

  /** Where `text` is held, else the free slot where it would go. */
  private slotOf(text: string, hash: number): number {
    return probe(this.slots, hash, (held) => this.hashes.get(held) === hash && this.pool.equals(held, text));
  }
}

/** FNV-1a over the UTF-16 code units, as a signed 32-bit number (what an Int32 column holds). */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}
