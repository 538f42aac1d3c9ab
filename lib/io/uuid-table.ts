/**
 * Uuids numbered 0, 1, 2, ... as they are first seen, each distinct one kept once: a canonical uuid (lowercase
 * 8-4-4-4-12 hex, as Claude Code writes them) as its 16 bytes in a shared buffer, found again through a hash
 * table of numbers, instead of a string of 36 characters and a map entry (about a fifth of the memory, and
 * nothing for the collector to trace). Any other string is kept as it is. What a transcript of hundreds of
 * thousands of records indexes its tree with.
 */
import { Buffer } from "node:buffer";
import { probe, roomFor } from "./hash-slots.ts";

const PER_CHUNK = 1 << 16;
/** Each hex digit's character code. */
const HEX = [..."0123456789abcdef"].map((c) => c.charCodeAt(0));
/** Where the dashes of a canonical uuid are. */
const DASHES = [8, 13, 18, 23];

export class UuidTable {
  /** Uuid number n's bytes, at (n % PER_CHUNK) * 16 of chunk n / PER_CHUNK. */
  private readonly chunks: Uint8Array[] = [];
  /** Open addressing: each slot holds a uuid number plus one, 0 when free. */
  private slots = new Int32Array(1 << 10);
  private count = 0;
  private readonly others = new Map<string, number>();
  private readonly otherText = new Map<number, string>();
  /** Where a uuid is spelled out, so it becomes one flat string (not a rope of 20 pieces to collect). */
  private readonly spelled = Buffer.alloc(36, "-");
  /**
   * Whether uuid number `held` has the bytes just parsed into the next free number (what every look-up probes
   * for), and a number's hash: made once for the table, not a closure per record looked up.
   */
  private readonly sameAsNext = (held: number) => this.sameBytes(held, this.count);
  private readonly rehash = (held: number) => this.hashOf(held);

  get size(): number {
    return this.count;
  }

  /** The number of `uuid`, given it now if it is new. */
  intern(uuid: string): number {
    if (!this.parseInto(uuid, this.count)) return this.internOther(uuid);
    const slot = this.slotOfNext();
    const held = this.slots[slot]! - 1;
    if (held !== -1) return held;
    this.slots[slot] = this.count + 1;
    return this.added();
  }

  /** The number of `uuid`, or -1 when it was never interned (nothing is added). */
  find(uuid: string): number {
    // Both parse into the next free number's bytes: scratch space until `added` claims it.
    if (!this.parseInto(uuid, this.count)) return this.others.get(uuid) ?? -1;
    return this.slots[this.slotOfNext()]! - 1;
  }

  /** The slot of the uuid parsed into the next free number: where an equal one is held, else the free one. */
  private slotOfNext(): number {
    return probe(this.slots, this.hashOf(this.count), this.sameAsNext);
  }

  /** Uuid number `id` as the string it was read from. */
  uuidOf(id: number): string {
    const other = this.otherText.get(id);
    if (other !== undefined) return other;
    const chunk = this.chunkOf(id);
    const at = offsetOf(id);
    for (let i = 0, c = 0; i < 16; i++, c += 2) {
      if (c === 8 || c === 13 || c === 18 || c === 23) c++;
      this.spelled[c] = HEX[chunk[at + i]! >> 4]!;
      this.spelled[c + 1] = HEX[chunk[at + i]! & 15]!;
    }
    return this.spelled.toString("latin1");
  }

  private internOther(uuid: string): number {
    const known = this.others.get(uuid);
    if (known !== undefined) return known;
    this.others.set(uuid, this.count);
    this.otherText.set(this.count, uuid);
    return this.added();
  }

  /** Counts the uuid just placed at number `count`, growing the hash table to keep it at most half full. */
  private added(): number {
    const id = this.count++;
    this.slots = roomFor(this.slots, this.count, this.rehash);
    return id;
  }

  /** Writes `uuid`'s bytes at number `id` when it is canonical; false (nothing kept) when it is not. */
  private parseInto(uuid: string, id: number): boolean {
    if (uuid.length !== 36) return false;
    for (const d of DASHES) if (uuid.charCodeAt(d) !== 45) return false;
    while (this.chunks.length <= Math.floor(id / PER_CHUNK)) this.chunks.push(new Uint8Array(PER_CHUNK * 16));
    const chunk = this.chunkOf(id);
    const at = offsetOf(id);
    for (let i = 0, c = 0; i < 16; i++, c += 2) {
      if (c === 8 || c === 13 || c === 18 || c === 23) c++;
      const high = nibble(uuid.charCodeAt(c));
      const low = nibble(uuid.charCodeAt(c + 1));
      if (high < 0 || low < 0) return false;
      chunk[at + i] = (high << 4) | low;
    }
    return true;
  }

  private chunkOf(id: number): Uint8Array {
    return this.chunks[Math.floor(id / PER_CHUNK)]!;
  }

  /** FNV-1a over the 16 bytes: uuids of version 7 share their leading (time) bytes, so all of them count. */
  private hashOf(id: number): number {
    const chunk = this.chunkOf(id);
    const at = offsetOf(id);
    let hash = 0x811c9dc5;
    for (let i = 0; i < 16; i++) hash = Math.imul(hash ^ chunk[at + i]!, 0x01000193);
    return hash >>> 0;
  }

  private sameBytes(a: number, b: number): boolean {
    const chunkA = this.chunkOf(a);
    const chunkB = this.chunkOf(b);
    const atA = offsetOf(a);
    const atB = offsetOf(b);
    for (let i = 0; i < 16; i++) if (chunkA[atA + i] !== chunkB[atB + i]) return false;
    return true;
  }
}

/** Where uuid number `id`'s bytes start in its chunk. */
const offsetOf = (id: number): number => (id % PER_CHUNK) * 16;

/** A lowercase hex digit's value, else -1 (an uppercase uuid is kept as it is, so it is written back so). */
function nibble(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}
