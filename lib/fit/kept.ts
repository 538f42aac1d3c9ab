/**
 * The tokens of the messages a cut keeps verbatim (those from the cut on), counted from the most recent back
 * only as far as the cut's search asks. A cut fits when its kept tokens are within what its summary leaves of
 * the budget, so a question is "at most `room`?", and once the messages counted from the end are over that,
 * the rest need no count: a long session's summary leaves a few thousand tokens, and counting back a whole
 * budget with the tokenizer, as every cut's tokens were counted before the search, cost more than the search.
 * Each message's count is what it would have been counted up front (`count`), so every answer is the same.
 */
export class KeptTokens {
  /** `suffix[k]`: the tokens of the last k messages, for the k counted so far. */
  readonly #suffix: number[] = [0];

  /**
   * `length`: the thread's messages; `count(i, after)`: message i's tokens, given the tokens of the messages
   * after it (no cut before message `from` is asked about).
   */
  constructor(
    readonly length: number,
    readonly from: number,
    readonly count: (i: number, after: number) => number,
  ) {}

  /** The tokens from cut `c` on when they are at most `room`; otherwise some number over `room`. */
  within(c: number, room: number): number {
    if (c < this.from || c > this.length) throw new Error(`cut ${c} is not among the held messages`);
    const suffix = this.#suffix;
    let k = suffix.length - 1;
    while (this.length - k > c && suffix[k]! <= room) {
      suffix.push(suffix[k]! + this.count(this.length - k - 1, suffix[k]!));
      k++;
    }
    return suffix[Math.min(k, this.length - c)]!;
  }
}
