/**
 * A live thread as fitting sees it, told in one pass as it is read: each message's estimated tokens, which
 * messages the user typed, the cuts no tool call spans, the summary's parts (TurnTeller), and the most recent
 * messages, the only ones a cut can keep verbatim. Nothing else is held: a streamed thread of any length is
 * fitted in the memory of its summary's parts and a few budgets of messages (issue 34); its messages pass
 * through a spill file (lib/ir/spill.ts), from which the compacted thread is read back as a writer reads it, and
 * the most recent messages too: held, every message lived on until a few budgets came after it, past the young
 * collections that would have taken it, and a 700 MB session's pass ran some 100 MB of them above what it holds.
 */
import type { Message } from "../ir/schema.ts";
import type { MessageSpill } from "../ir/spill.ts";
import { type Column, float64Column, uint8Column } from "../io/columns.ts";
import { SUMMARY_LEVELS, type SummaryTurns, TurnTeller } from "./summary.ts";
import { fewestTokens, type TokenCounter } from "./tokens.ts";
import { CleanCuts, isPrompt } from "./turns.ts";

export class FitHistory {
  /** Each message's tokens, estimated as told (fit.ts counts the recent ones again exactly). */
  readonly counts: Column = float64Column();
  /** 1 for each message that is a prompt the user typed. */
  readonly #prompts = uint8Column();
  /** Their estimated sum. */
  total = 0;
  readonly #turns = new TurnTeller();
  readonly #cuts = new CleanCuts();
  /**
   * The most recent messages, from `#head`, when there is no spill to read them back from: every one with at
   * most `keep` estimated tokens after it.
   */
  #recent: (Message | undefined)[] = [];
  #head = 0;
  #recentFrom = 0;
  #recentTokens = 0;

  /** The turns surely summarized (their prompts before `recentFrom`), and their prompts' length at each level. */
  #summarizedTurns = 0;
  readonly #promptChars = SUMMARY_LEVELS.map(() => 0);

  /**
   * `keep`: how many estimated tokens of the most recent messages could be kept beside a summary; `room`: the
   * most tokens any summary of the thread may take (the budget, or a summarizing model's window).
   */
  constructor(
    readonly estimate: TokenCounter,
    readonly keep: number,
    readonly room: number,
    readonly spill?: MessageSpill,
  ) {}

  add(m: Message): void {
    const count = this.estimate.message(m);
    this.counts.push(count);
    this.#prompts.push(isPrompt(m) ? 1 : 0);
    this.total += count;
    this.#turns.add(m);
    this.#cuts.add(m);
    if (this.spill) this.spill.add(m);
    else this.#recent.push(m);
    this.#recentTokens += count;
    while (this.#recentTokens - this.counts.get(this.#recentFrom) > this.keep) {
      this.#recentTokens -= this.counts.get(this.#recentFrom++);
      if (!this.spill) this.#recent[this.#head++] = undefined;
    }
    // Dropped messages are let go at once (above); the array itself is shortened once they are half of it.
    if (this.#head > 1024 && this.#head * 2 > this.#recent.length) {
      this.#recent = this.#recent.slice(this.#head);
      this.#head = 0;
    }
    this.#narrow();
  }

  /**
   * Every cut keeps only held messages, so every summary holds the prompts before the first held one: a level
   * whose prompts alone are over the room by any count (fewestTokens) can never fit, and the parts only it
   * would show are let go (TurnTeller.narrow). A session of thousands of prompts keeps a line of each.
   */
  #narrow(): void {
    const { turns, levels } = this.#turns.told;
    for (; this.#summarizedTurns < turns.length; this.#summarizedTurns++) {
      const turn = turns[this.#summarizedTurns]!;
      if (turn.at >= this.#recentFrom) break;
      const chars = turn.prompt?.length ?? 0;
      SUMMARY_LEVELS.forEach((limits, k) => this.#promptChars[k]! += Math.min(chars, limits.prompt));
    }
    let roomiest = SUMMARY_LEVELS.length - levels.length;
    while (roomiest < SUMMARY_LEVELS.length - 1 && fewestTokens(this.#promptChars[roomiest]!) > this.room) {
      this.#turns.narrow();
      roomiest++;
    }
  }

  get length(): number {
    return this.counts.length;
  }

  /** The position of the first message held: no cut before it can keep what follows within `keep`. */
  get recentFrom(): number {
    return this.#recentFrom;
  }

  /** Whether message `i` is a prompt the user typed. */
  isPrompt(i: number): boolean {
    return this.#prompts.get(i) === 1;
  }

  /** How many of the first `c` messages are prompts the user typed. */
  promptsBefore(c: number): number {
    let prompts = 0;
    for (let i = 0; i < c; i++) prompts += this.#prompts.get(i);
    return prompts;
  }

  /** The messages from position `at` on (at least `recentFrom`): held, or read back from the spill. */
  messagesFrom(at: number): Message[] {
    if (at < this.#recentFrom) throw new Error(`message ${at} is not held (from ${this.#recentFrom})`);
    if (this.spill) return [...this.spill.records(this.length - at, at)];
    return this.#recent.slice(this.#head + at - this.#recentFrom) as Message[];
  }

  /** The summary's parts. */
  get told(): SummaryTurns {
    return this.#turns.told;
  }

  /**
   * The cuts a fit can make, ascending: before a held message (the others have more than the budget after
   * them) or at the end, keeping every tool call beside its result.
   */
  cleanCuts(): number[] {
    return this.#cuts.cleanFrom(this.#recentFrom);
  }
}
