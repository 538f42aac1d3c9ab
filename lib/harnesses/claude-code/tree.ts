/**
 * A transcript's uuid/parentUuid tree as decode.ts indexes it: for each record, what resolving the live thread
 * and its pending state needs, and where the record is so its message can be read again, in columns of numbers
 * (see lib/io/columns.ts) rather than an object per record. Records are numbered in the order they are read;
 * uuids are numbered by a UuidTable. A streamed session of 400,000 records keeps its tree in tens of megabytes
 * this way, where objects and strings took over a hundred.
 */
import type { Block, Message } from "../../ir/schema.ts";
import { float64Column, int32Column, uint8Column } from "../../io/columns.ts";
import { StringPool } from "../../io/string-pool.ts";
import { UuidTable } from "../../io/uuid-table.ts";

/** One record of the tree as it is read. */
export interface TreeRecord {
  uuid: string;
  parentUuid?: string;
  /** Set on compaction boundaries: the pre-compaction leaf the boundary replaces. */
  logicalParentUuid?: string;
  /** Set on 2.1.x compaction boundaries: messages kept verbatim, replayed right after the summary (`anchor`). */
  preserved?: { head: string; tail: string; anchor: string };
  sidechain: boolean;
  /** A prompt the person typed while the agent was busy, delivered when the turn ended (`promptSource`). */
  queuedPrompt: boolean;
  /** For user and assistant records (and handshakes): what the thread needs of the message but its text. */
  facts?: MessageFacts;
}

/** What resolving the thread and its pending state needs of a message, kept while its text is not. */
export interface MessageFacts {
  /** Where the record is in its transcript. */
  offset: number;
  length: number;
  role: Message["role"];
  kind: Message["kind"];
  providerMessageId?: string;
  model?: string;
  /**
   * Its blocks, of which the tree keeps the calls (by id and name) and the ids of the calls its results answer:
   * the message's own list, so no list of calls and results is made per record to be read once.
   */
  blocks: readonly Block[];
}

/** A preserved segment's uuids, by number. */
export interface Preserved {
  head: number;
  tail: number;
  anchor: number;
}

const ROLES: readonly Message["role"][] = ["user", "assistant", "system", "tool"];
const KINDS: readonly Message["kind"][] = ["turn", "context", "summary"];
/** A record's flags: three booleans, then its message's role and kind (two bits each). */
const SIDECHAIN = 1;
const QUEUED = 2;
const FACTS = 4;
const ROLE_SHIFT = 3;
const KIND_SHIFT = 5;

const NOTHING: readonly never[] = Object.freeze([]);

/** No uuid or record (the columns hold numbers plus one, so an entry never set reads as none). */
const NONE = -1;

export class RecordTree {
  private readonly uuids = new UuidTable();
  /** Per record. */
  private readonly uuid = int32Column();
  private readonly parent = int32Column();
  private readonly flags = uint8Column();
  private readonly offsets = float64Column();
  private readonly lengths = float64Column();
  private readonly models = int32Column();
  private readonly responses = int32Column();
  /** The calls and results of records 0..r are entries 0..callsEnd(r) - 1 of the call and result columns. */
  private readonly callsEnd = int32Column();
  private readonly resultsEnd = int32Column();
  private readonly callIds = int32Column();
  private readonly callNames = int32Column();
  private readonly resultIds = int32Column();
  /** Per uuid number: the last record with that uuid, plus one (a later record of a uuid replaces it). */
  private readonly nodeOfUuid = int32Column();
  /** Few records have these. */
  private readonly logicalParents = new Map<number, number>();
  private readonly preservedSegments = new Map<number, Preserved>();
  private readonly moved = new Map<number, number>();
  private readonly ids = new StringPool();
  /** Model and tool names: few, each kept once. */
  private readonly names: string[] = [];
  private readonly nameNumbers = new Map<string, number>();
  private lastResponse?: { text: string; id: number };
  /** The uuid of the record added last and its number (a string no uuid is, until a record is added). */
  private readonly lastUuid = { text: "", number: NONE };
  /** The response id last spelled out: the records of one response ask for the same one in turn. */
  private lastSpelled?: { id: number; text: string };

  /** How many records were added. */
  get size(): number {
    return this.uuid.length;
  }

  /** How many distinct uuids the records name (their own, their parents', ...). */
  get uuidCount(): number {
    return this.uuids.size;
  }

  /** Adds the next record; returns its number. */
  add(record: TreeRecord): number {
    const r = this.size;
    const uuid = this.uuids.intern(record.uuid);
    this.uuid.push(uuid);
    // A record's parent is nearly always the record before it: its number is known without interning again.
    const parent = record.parentUuid === this.lastUuid.text
      ? this.lastUuid.number
      : this.uuidOrNone(record.parentUuid);
    this.parent.push(parent + 1);
    this.lastUuid.text = record.uuid;
    this.lastUuid.number = uuid;
    this.nodeOfUuid.set(uuid, r + 1);
    if (record.logicalParentUuid !== undefined) {
      this.logicalParents.set(r, this.uuids.intern(record.logicalParentUuid));
    }
    if (record.preserved) {
      const { head, tail, anchor } = record.preserved;
      this.preservedSegments.set(r, {
        head: this.uuids.intern(head),
        tail: this.uuids.intern(tail),
        anchor: this.uuids.intern(anchor),
      });
    }
    const facts = record.facts;
    this.flags.push(
      (record.sidechain ? SIDECHAIN : 0) | (record.queuedPrompt ? QUEUED : 0) |
        (facts
          ? FACTS | (ROLES.indexOf(facts.role) << ROLE_SHIFT) | (KINDS.indexOf(facts.kind) << KIND_SHIFT)
          : 0),
    );
    this.offsets.push(facts?.offset ?? 0);
    this.lengths.push(facts?.length ?? 0);
    this.models.push(facts?.model === undefined ? 0 : this.nameNumber(facts.model) + 1);
    this.responses.push(this.responseNumber(facts?.providerMessageId) + 1);
    for (const b of facts?.blocks ?? NOTHING) {
      if (b.type === "tool_call") {
        this.callIds.push(this.ids.add(b.id));
        this.callNames.push(this.nameNumber(b.name));
      } else if (b.type === "tool_result") this.resultIds.push(this.ids.add(b.callId));
    }
    this.callsEnd.push(this.callIds.length);
    this.resultsEnd.push(this.resultIds.length);
    return r;
  }

  /** Record `r`'s uuid, by number. */
  uuidOf(r: number): number {
    return this.uuid.get(r);
  }

  /** Uuid number `id` as written. */
  uuidText(id: number): string {
    return this.uuids.uuidOf(id);
  }

  /** The record a uuid number stands for (the last with that uuid), or -1 when no record has it. */
  nodeOf(id: number): number {
    return id === NONE ? NONE : this.nodeOfUuid.get(id) - 1;
  }

  /** Whether record `r` is its uuid's node: a later record with the same uuid replaces it. */
  isNode(r: number): boolean {
    return this.nodeOf(this.uuidOf(r)) === r;
  }

  /** Record `r`'s parent uuid, by number, or -1 for none. */
  parentOf(r: number): number {
    return this.parent.get(r) - 1;
  }

  /** The node of record `r`'s parent, or -1. */
  parentNode(r: number): number {
    return this.nodeOf(this.parentOf(r));
  }

  logicalParentOf(r: number): number {
    return this.logicalParents.get(r) ?? NONE;
  }

  preservedOf(r: number): Preserved | undefined {
    return this.preservedSegments.get(r);
  }

  sidechain(r: number): boolean {
    return (this.flags.get(r) & SIDECHAIN) !== 0;
  }

  queuedPrompt(r: number): boolean {
    return (this.flags.get(r) & QUEUED) !== 0;
  }

  /** Whether record `r` is a message (it has facts), not a tree-only record (system, attachment). */
  hasFacts(r: number): boolean {
    return (this.flags.get(r) & FACTS) !== 0;
  }

  role(r: number): Message["role"] | undefined {
    return this.hasFacts(r) ? ROLES[(this.flags.get(r) >> ROLE_SHIFT) & 3] : undefined;
  }

  kind(r: number): Message["kind"] | undefined {
    return this.hasFacts(r) ? KINDS[(this.flags.get(r) >> KIND_SHIFT) & 3] : undefined;
  }

  offset(r: number): number {
    return this.offsets.get(r);
  }

  length(r: number): number {
    return this.lengths.get(r);
  }

  model(r: number): string | undefined {
    const n = this.models.get(r);
    return n === 0 ? undefined : this.names[n - 1];
  }

  providerMessageId(r: number): string | undefined {
    const n = this.responses.get(r) - 1;
    if (n === NONE) return undefined;
    if (this.lastSpelled?.id !== n) this.lastSpelled = { id: n, text: this.ids.get(n) };
    return this.lastSpelled.text;
  }

  /** The calls record `r` makes (most make none: those share one empty list). */
  calls(r: number): readonly { id: string; name: string }[] {
    const from = r === 0 ? 0 : this.callsEnd.get(r - 1);
    const to = this.callsEnd.get(r);
    if (from === to) return NOTHING;
    const calls: { id: string; name: string }[] = [];
    for (let c = from; c < to; c++) {
      calls.push({ id: this.ids.get(this.callIds.get(c)), name: this.names[this.callNames.get(c)]! });
    }
    return calls;
  }

  /** The calls record `r`'s tool results answer (most answer none: those share one empty list). */
  results(r: number): readonly string[] {
    const from = r === 0 ? 0 : this.resultsEnd.get(r - 1);
    const to = this.resultsEnd.get(r);
    if (from === to) return NOTHING;
    const results: string[] = [];
    for (let c = from; c < to; c++) results.push(this.ids.get(this.resultIds.get(c)));
    return results;
  }

  /** The message's parent in the live thread when a queued prompt put back in place moved it, else -1. */
  movedTo(r: number): number {
    return this.moved.get(r) ?? NONE;
  }

  /** Record `r`'s message now follows uuid number `parent` in the live thread. */
  moveTo(r: number, parent: number): void {
    if (this.hasFacts(r)) this.moved.set(r, parent);
  }

  private uuidOrNone(uuid: string | undefined): number {
    return uuid === undefined ? NONE : this.uuids.intern(uuid);
  }

  private nameNumber(name: string): number {
    let n = this.nameNumbers.get(name);
    if (n === undefined) {
      n = this.names.push(name) - 1;
      this.nameNumbers.set(name, n);
    }
    return n;
  }

  /** The records of one response share its id: kept once. */
  private responseNumber(id: string | undefined): number {
    if (id === undefined) return NONE;
    if (id !== this.lastResponse?.text) this.lastResponse = { text: id, id: this.ids.add(id) };
    return this.lastResponse.id;
  }
}
