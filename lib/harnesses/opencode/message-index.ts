/**
 * What splitting an OpenCode session into its threads (decode.ts) reads of each message, by its number in
 * OpenCode's order: held messages seen through it, or a streamed session's index (rows.ts indexedSession) kept
 * in columns, a few dozen bytes a message and no object each (an object, its data and its parts' made an index
 * of 89 MB for a session of 251k messages). Pure: the store fills the columns from SQLite's JSON functions.
 */
import { float64Column, int32Column, uint8Column } from "../../io/columns.ts";
import { optStr } from "../../io/json.ts";
import { StringPool } from "../../io/string-pool.ts";
import type { StoredMessage, StoredPart } from "./stored.ts";

/** A message's role as the splits tell them apart. */
export const USER = 1;
export const ASSISTANT = 2;

/** What the splits read of a message's parts. */
export interface PartFacts {
  /** Whether any is text the user typed (not synthetic, not ignored, not empty). */
  typed: boolean;
  /** Its first compaction part: the message it keeps a tail from (`tail_start_id`), if any. */
  compaction?: { tail?: string };
  /** Whether any compaction part keeps a tail. */
  tailed: boolean;
}

export interface MessageIndex {
  readonly length: number;
  id(i: number): string;
  /** Whether message `i`'s id is `id` (an index need not make the string to tell). */
  is(i: number, id: string): boolean;
  time(i: number): number;
  /** USER, ASSISTANT, or another number for any other role or none. */
  role(i: number): number;
  /** The message it answers (`parentID`), when it names one. */
  parent(i: number): string | undefined;
  /** Whether it is a compaction's summary (`summary: true`). */
  summary(i: number): boolean;
  /** Whether it has finished (`finish`) and whether it failed (`error`), as JavaScript's truthiness finds them. */
  finished(i: number): boolean;
  failed(i: number): boolean;
  parts(i: number): PartFacts;
}

const NO_PARTS: PartFacts = Object.freeze({ typed: false, tailed: false });
const TYPED: PartFacts = Object.freeze({ typed: true, tailed: false });

/** The facts of `parts`, every one read (what a held message and a revert's cut give). */
export function partFacts(parts: readonly StoredPart[]): PartFacts {
  const facts = new FactsOf();
  for (const { data } of parts) {
    facts.add(
      data.type,
      data.tail_start_id,
      !!data.synthetic,
      !!data.ignored,
      optStr(data.text) !== undefined,
    );
  }
  return facts.facts();
}

/** Part facts gathered one part at a time. */
class FactsOf {
  typed = false;
  tailed = false;
  compaction?: { tail?: string };

  add(type: unknown, tail: unknown, synthetic: boolean, ignored: boolean, said: boolean): void {
    if (type === "text" && !synthetic && !ignored && said) this.typed = true;
    if (type !== "compaction") return;
    const from = optStr(tail);
    if (from !== undefined) this.tailed = true;
    this.compaction ??= from === undefined ? {} : { tail: from };
  }

  facts(): PartFacts {
    if (this.compaction) return { typed: this.typed, compaction: this.compaction, tailed: this.tailed };
    return this.typed ? TYPED : NO_PARTS;
  }
}

/** Message `i` of an index of session `sessionId`, read whole (the held read has it whole already). */
export type Whole<I extends MessageIndex> = (index: I, i: number, sessionId: string) => StoredMessage;

/** Held messages as an index, which gives each whole too (`message`). */
export interface HeldIndex extends MessageIndex {
  message(i: number): StoredMessage;
}

/** Held messages (a session read whole, or an export) as an index. */
export function heldIndex(messages: readonly StoredMessage[]): HeldIndex {
  const data = (i: number) => messages[i]!.data;
  return {
    length: messages.length,
    message: (i) => messages[i]!,
    id: (i) => messages[i]!.id,
    is: (i, id) => messages[i]!.id === id,
    time: (i) => messages[i]!.time_created,
    role: (i) => roleNumber(data(i).role),
    parent: (i) => optStr(data(i).parentID),
    summary: (i) => data(i).summary === true,
    finished: (i) => !!data(i).finish,
    failed: (i) => !!data(i).error,
    parts: (i) => partFacts(messages[i]!.parts),
  };
}

const roleNumber = (role: unknown): number => role === "user" ? USER : role === "assistant" ? ASSISTANT : 0;

/** Flag bits of an indexed message, beside its role's two. */
const SUMMARY = 4;
const FINISHED = 8;
const FAILED = 16;
const TYPED_BIT = 32;
const COMPACTION = 64;
const TAILED = 128;

/**
 * A streamed session's messages indexed in columns: each one's id and (an assistant's) parent as bytes, its
 * time, its part count (how many of its parts a pass reads again) and its facts as bits; the tail of the rare
 * compaction part beside them. Filled a message, then its parts, at a time.
 */
export class IndexedMessages implements MessageIndex {
  private readonly ids = new StringPool();
  private readonly parents = new StringPool();
  /** Each message's parent's number in `parents`, -1 when it names none (or is no assistant's). */
  private readonly parentAt = int32Column();
  private readonly times = float64Column();
  private readonly counts = int32Column();
  private readonly flags = uint8Column();
  /** The tail of each message whose first compaction part keeps one. */
  private readonly tails = new Map<number, string>();
  private current = new FactsOf();

  get length(): number {
    return this.ids.size;
  }

  /** Adds the next message (its fields as its data holds them); its parts follow with `part`. */
  message(
    id: string,
    time: number,
    fields: { role: unknown; parent: unknown; summary: boolean; finished: boolean; failed: boolean },
  ): void {
    this.endMessage();
    this.ids.add(id);
    this.times.push(time);
    this.counts.push(0);
    const role = roleNumber(fields.role);
    const parent = role === ASSISTANT ? optStr(fields.parent) : undefined;
    this.parentAt.push(parent === undefined ? -1 : this.parents.add(parent));
    this.flags.push(
      role | (fields.summary ? SUMMARY : 0) | (fields.finished ? FINISHED : 0) | (fields.failed ? FAILED : 0),
    );
  }

  /** Adds a part of the message added last (see partFacts for what its fields are). */
  part(type: unknown, tail: unknown, synthetic: boolean, ignored: boolean, said: boolean): void {
    const i = this.length - 1;
    this.counts.set(i, this.counts.get(i) + 1);
    this.current.add(type, tail, synthetic, ignored, said);
  }

  /** Ends the index: the last message's parts are told. */
  end(): this {
    this.endMessage();
    return this;
  }

  private endMessage(): void {
    const i = this.length - 1;
    if (i < 0) return;
    const facts = this.current;
    this.current = new FactsOf();
    let bits = (facts.typed ? TYPED_BIT : 0) | (facts.tailed ? TAILED : 0);
    if (facts.compaction) {
      bits |= COMPACTION;
      if (facts.compaction.tail !== undefined) this.tails.set(i, facts.compaction.tail);
    }
    this.flags.set(i, this.flags.get(i) | bits);
  }

  id(i: number): string {
    return this.ids.get(i);
  }
  is(i: number, id: string): boolean {
    return this.ids.equals(i, id);
  }
  time(i: number): number {
    return this.times.get(i);
  }
  /** How many parts it had when indexed. */
  partCount(i: number): number {
    return this.counts.get(i);
  }
  role(i: number): number {
    return this.flags.get(i) & 3;
  }
  parent(i: number): string | undefined {
    const at = this.parentAt.get(i);
    return at < 0 ? undefined : this.parents.get(at);
  }
  summary(i: number): boolean {
    return (this.flags.get(i) & SUMMARY) !== 0;
  }
  finished(i: number): boolean {
    return (this.flags.get(i) & FINISHED) !== 0;
  }
  failed(i: number): boolean {
    return (this.flags.get(i) & FAILED) !== 0;
  }
  parts(i: number): PartFacts {
    const bits = this.flags.get(i);
    if (!(bits & COMPACTION)) return bits & TYPED_BIT ? TYPED : NO_PARTS;
    const tail = this.tails.get(i);
    return {
      typed: (bits & TYPED_BIT) !== 0,
      compaction: tail === undefined ? {} : { tail },
      tailed: (bits & TAILED) !== 0,
    };
  }
}
