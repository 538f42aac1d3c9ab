/**
 * A set of names for a reader that makes most of its own: `prefix` and a number that grows as it reads (Codex
 * names an item without an id by its line, `line-N`, hundreds of thousands of them in a long rollout). Those are
 * kept as their numbers in a column, four bytes each, found by bisection; every other name (an item's own id) in a
 * StringSet, as bytes. Kept as strings in maps, the names of a 700 MB rollout took some 50 MB, held through
 * each of its passes (issue 34).
 */
import { type Column, int32Column } from "./columns.ts";
import { StringSet } from "./string-set.ts";

/** The largest number kept in the column: an int32's. */
const MAX_NUMBER = 2 ** 31 - 1;

export class NameSet {
  /** The numbers of the names `prefix` + a number kept here, ascending. */
  readonly #numbers: Column = int32Column();
  /** Every other name. */
  readonly #others = new StringSet();

  constructor(readonly prefix: string) {}

  /** How many distinct names were added. */
  get size(): number {
    return this.#numbers.length + this.#others.size;
  }

  has(name: string): boolean {
    return this.#has(name, this.#numberOf(name));
  }

  /** Adds `name` (nothing when it is there already). */
  add(name: string): void {
    const n = this.#numberOf(name);
    if (this.#has(name, n)) return;
    const numbers = this.#numbers;
    // Only a number past every one kept joins the column, so it stays ascending; an earlier one (a name an item
    // took for itself) is kept as it is.
    if (n !== -1 && (numbers.length === 0 || n > numbers.get(numbers.length - 1))) numbers.push(n);
    else this.#others.add(name);
  }

  /** Whether `name`, whose number is `n` (-1: none), is here. */
  #has(name: string, n: number): boolean {
    return (n !== -1 && this.#holds(n)) || this.#others.has(name);
  }

  /** Whether the column holds `n`. */
  #holds(n: number): boolean {
    let low = 0;
    let high = this.#numbers.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const at = this.#numbers.get(mid);
      if (at === n) return true;
      if (at < n) low = mid + 1;
      else high = mid;
    }
    return false;
  }

  /**
   * The number of a name that is `prefix` and the decimal digits of a number as JavaScript spells it (no sign,
   * no leading zero: "line-07" is another name than "line-7"), else -1.
   */
  #numberOf(name: string): number {
    const { prefix } = this;
    const digits = name.length - prefix.length;
    if (digits < 1 || digits > 10 || !name.startsWith(prefix)) return -1;
    if (digits > 1 && name.charCodeAt(prefix.length) === 48) return -1;
    let n = 0;
    for (let i = prefix.length; i < name.length; i++) {
      const d = name.charCodeAt(i) - 48;
      if (d < 0 || d > 9) return -1;
      n = n * 10 + d;
    }
    return n <= MAX_NUMBER ? n : -1;
  }
}
