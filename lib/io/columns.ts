/**
 * Numbers kept one column per field in typed arrays, for indexes of hundreds of thousands of entries: a few
 * bytes an entry instead of an object each (a hundred bytes or more, and work for the collector). The column
 * grows a chunk at a time, so it is never copied and never more than one chunk larger than it has to be.
 */

/** The typed arrays a column can be made of. */
type Typed = Float64Array | Int32Array | Uint8Array;

const CHUNK_BITS = 16;
const CHUNK = 1 << CHUNK_BITS;

export class Column {
  private readonly chunks: Typed[] = [];
  private size = 0;

  /** `make` gives a chunk, zero-filled: an entry never set reads 0. */
  constructor(private readonly make: (length: number) => Typed) {}

  get length(): number {
    return this.size;
  }

  push(value: number): void {
    this.set(this.size, value);
  }

  /** Sets entry `at`, growing the column to hold it (the entries between read 0). */
  set(at: number, value: number): void {
    while (this.chunks.length <= at >>> CHUNK_BITS) this.chunks.push(this.make(CHUNK));
    this.chunks[at >>> CHUNK_BITS]![at & (CHUNK - 1)] = value;
    if (at >= this.size) this.size = at + 1;
  }

  /** Entry `at`; 0 past the end. */
  get(at: number): number {
    return at < this.size ? this.chunks[at >>> CHUNK_BITS]![at & (CHUNK - 1)]! : 0;
  }
}

export const float64Column = (): Column => new Column((n) => new Float64Array(n));
export const int32Column = (): Column => new Column((n) => new Int32Array(n));
export const uint8Column = (): Column => new Column((n) => new Uint8Array(n));
