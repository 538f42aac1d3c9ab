/**
 * Many short strings (call ids, response ids) kept as bytes in a few large buffers instead of a string each:
 * about half the memory, and nothing for the collector to trace. A string comes back as a new string equal to
 * the one added.
 */
import { Buffer } from "node:buffer";
import { float64Column, int32Column } from "./columns.ts";

const CHUNK_BYTES = 1024 * 1024;

export class StringPool {
  private readonly chunks: Buffer[] = [];
  private used = CHUNK_BYTES;
  /** Where each string starts, counted over all chunks, and its length; -1 for one kept as it is. */
  private readonly starts = float64Column();
  private readonly lengths = int32Column();
  /** Strings that are not one byte a character (code units past 255), or longer than a chunk. */
  private readonly others = new Map<number, string>();

  get size(): number {
    return this.starts.length;
  }

  /** Adds `text`; returns its number. */
  add(text: string): number {
    const id = this.starts.length;
    if (text.length > CHUNK_BYTES || !isLatin1(text)) {
      this.others.set(id, text);
      this.starts.push(-1);
      this.lengths.push(0);
      return id;
    }
    if (this.used + text.length > CHUNK_BYTES) {
      this.chunks.push(Buffer.allocUnsafe(CHUNK_BYTES));
      this.used = 0;
    }
    this.chunks.at(-1)!.write(text, this.used, "latin1");
    this.starts.push((this.chunks.length - 1) * CHUNK_BYTES + this.used);
    this.lengths.push(text.length);
    this.used += text.length;
    return id;
  }

  /** Whether string `id` is `text`, read in place (no string made). */
  equals(id: number, text: string): boolean {
    const start = this.starts.get(id);
    if (start === -1) return this.others.get(id) === text;
    if (this.lengths.get(id) !== text.length) return false;
    const chunk = this.chunks[Math.floor(start / CHUNK_BYTES)]!;
    const at = start % CHUNK_BYTES;
    for (let i = 0; i < text.length; i++) if (chunk[at + i] !== text.charCodeAt(i)) return false;
    return true;
  }

  get(id: number): string {
    const start = this.starts.get(id);
    if (start === -1) return this.others.get(id)!;
    const chunk = this.chunks[Math.floor(start / CHUNK_BYTES)]!;
    const at = start % CHUNK_BYTES;
    return chunk.toString("latin1", at, at + this.lengths.get(id));
  }
}

function isLatin1(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 255) return false;
  return true;
}
