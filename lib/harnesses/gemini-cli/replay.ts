/**
 * Replays a Gemini CLI session log as its own `loadConversationRecord` does (0.61.0, chatRecordingService.ts),
 * testing each line in its order: a `$rewindTo` drops that message and every later one (all of them when the
 * id is unknown); a line with a string `id` is a message, and a later line with the same id replaces it where
 * it stands; a `$set` is merged into the metadata, and its `messages` (a checkpoint) replace the whole list; a
 * line with `sessionId` and `projectHash` strings is (more) metadata, as is every resume's new first line.
 * Pure: the lines come in, the replayed log goes out.
 */
import type { JsonlLine } from "../../io/jsonl.ts";
import type { Origin } from "../../ir/schema.ts";
import { isObject, type Json } from "../../io/json.ts";
import { COMPRESSION_ACK, contentText } from "./parts.ts";

/** What a line is, by the test that claims it first (what drift checks it against). */
export type LineKind = "rewind" | "message" | "set" | "metadata";

export function lineKind(record: unknown): LineKind | undefined {
  if (!isObject(record)) return undefined;
  if (typeof record.$rewindTo === "string") return "rewind";
  if (typeof record.id === "string") return "message";
  if (isObject(record.$set)) return "set";
  if (typeof record.sessionId === "string" && typeof record.projectHash === "string") return "metadata";
  return undefined;
}

/** A message as the log holds it once replayed, with the line that last wrote it. */
export interface LoggedMessage {
  /** Empty when the replay is indexing (`placesOnly`): the record is read again from `origin` (see `restored`). */
  record: Json;
  origin: Origin;
  /** The line that wrote it (a checkpoint's line for a message it holds). */
  line: number;
  /** A checkpoint's message: its place in the checkpoint's list. */
  at?: number;
  /** A checkpoint's message: the line of its own it takes what a checkpoint leaves out from (see `recorded`). */
  own?: Origin;
}

const PLACE_ONLY: Json = Object.freeze({}) as Json;

/** The log replayed: its metadata merged, its message list, and what rewinds dropped (oldest first). */
export interface ReplayedLog {
  metadata: Json;
  /** The first run's start (every resume's metadata line names its own). */
  started?: string;
  messages: LoggedMessage[];
  rewound: LoggedMessage[][];
  /** The history each compression replaced (oldest first): its records are still in the log above it. */
  compacted: LoggedMessage[][];
  /** The ids of every compression's snapshot (a summary) and acknowledgement (the CLI's own words). */
  compression: ReadonlySet<string>;
}

export class LogReplay {
  private metadata: Json = {};
  private started?: string;
  private readonly messages = new MessageList();
  /**
   * What each message's own line recorded that a checkpoint's copy of it leaves out: a checkpoint rebuilds the
   * list from the live history, stamped with the time of the checkpoint and without model or token counts.
   */
  private readonly recorded = new Map<string, Json>();
  /** Indexing: each message's own last line, where `recorded` is read again from. */
  private readonly own = new Map<string, Origin>();
  private readonly rewound: LoggedMessage[][] = [];
  private readonly compacted: LoggedMessage[][] = [];
  private readonly compression = new Set<string>();

  /**
   * `placesOnly`: no record is held, only where it is (a large log is indexed so, its records read again by
   * their place: `restored`), so the replay holds a few numbers a message, not the log.
   */
  constructor(
    private readonly path: string,
    private readonly harness: string,
    private readonly placesOnly = false,
  ) {}

  /** One line; returns its kind, or undefined for a line none of the four tests claims (the CLI skips it). */
  add(line: JsonlLine): LineKind | undefined {
    const record = line.value;
    const kind = lineKind(record);
    if (!kind || !isObject(record)) return undefined;
    const origin = (type: string): Origin => ({
      harness: this.harness,
      path: this.path,
      offset: line.offset,
      length: line.length,
      type,
    });
    if (kind === "rewind") this.rewind(record.$rewindTo as string);
    else if (kind === "message") {
      const at = origin(String(record.type ?? "message"));
      if (this.placesOnly) this.own.set(record.id as string, at);
      else this.recorded.set(record.id as string, recordedFields(record));
      this.messages.set(record.id as string, {
        record: this.placesOnly ? PLACE_ONLY : record,
        origin: at,
        line: line.line,
      });
    } else if (kind === "set") {
      const set = record.$set as Json;
      if (Array.isArray(set.messages)) this.checkpoint(set.messages, origin("$set"), line.line);
      this.metadata = { ...this.metadata, ...set };
    } else {
      if (typeof record.startTime === "string") this.started ??= record.startTime;
      this.metadata = { ...this.metadata, ...record };
    }
    return kind;
  }

  /** A legacy whole-session file: its fields are the metadata, its `messages` the list. */
  addWhole(document: Json, origin: Origin) {
    this.metadata = { ...document };
    if (typeof document.startTime === "string") this.started = document.startTime;
    if (Array.isArray(document.messages)) this.checkpoint(document.messages, origin, 1);
  }

  result(): ReplayedLog {
    const { messages: _list, ...metadata } = this.metadata;
    const started = this.started === undefined ? {} : { started: this.started };
    return {
      metadata,
      ...started,
      messages: this.messages.values(),
      rewound: this.rewound,
      compacted: this.compacted,
      compression: this.compression,
    };
  }

  private checkpoint(list: unknown[], origin: Origin, line: number) {
    const pair = compressionPair(list, (id) => this.messages.has(id));
    if (pair) {
      for (const id of pair) this.compression.add(id);
      const kept = new Set(list.flatMap((m) => (isObject(m) && typeof m.id === "string" ? [m.id] : [])));
      const replaced = this.messages.whose((id) => !kept.has(id));
      if (replaced.length) this.compacted.push(replaced);
    }
    this.messages.clear();
    list.forEach((m, at) => {
      if (isObject(m) && typeof m.id === "string") {
        // The origin names the checkpoint's line: the message has no line of its own to copy.
        const type = `checkpoint:${String(m.type ?? "message")}`;
        const place = { origin: { ...origin, type }, line };
        if (!this.placesOnly) {
          this.messages.set(m.id, { record: { ...m, ...this.recorded.get(m.id) }, ...place });
        } else {
          const own = this.own.get(m.id);
          this.messages.set(m.id, { record: PLACE_ONLY, ...place, at, ...(own ? { own } : {}) });
        }
      }
    });
  }

  private rewind(id: string) {
    const branch = this.messages.dropFrom(id);
    if (branch.length) this.rewound.push(branch);
  }
}

/**
 * The replayed message list: a new id is appended, a known one replaced where it stands, a rewind drops a
 * message and every later one. A rewind costs what it drops, not the whole list (a hostile log of a rewind a
 * line made each one copy every id: quadratic).
 */
class MessageList {
  private readonly ids: string[] = [];
  private readonly list: LoggedMessage[] = [];
  /**
   * Where each id stands, or stood before a rewind dropped it: never deleted, as taking a key out of a large
   * map and putting it back cost some 25 us in both runtimes (the list's own `ids` tell a stale place).
   */
  private readonly places = new Map<string, number>();

  private placeOf(id: string): number | undefined {
    const at = this.places.get(id);
    return at !== undefined && this.ids[at] === id ? at : undefined;
  }

  has(id: string): boolean {
    return this.placeOf(id) !== undefined;
  }

  set(id: string, message: LoggedMessage): void {
    const at = this.placeOf(id);
    if (at !== undefined) this.list[at] = message;
    else {
      this.places.set(id, this.list.length);
      this.ids.push(id);
      this.list.push(message);
    }
  }

  /** The messages in order (a copy: the list goes on changing). */
  values(): LoggedMessage[] {
    return this.list.slice();
  }

  /** The messages whose id passes `test`, in order. */
  whose(test: (id: string) => boolean): LoggedMessage[] {
    return this.list.filter((_, i) => test(this.ids[i]!));
  }

  clear(): void {
    this.ids.length = 0;
    this.list.length = 0;
  }

  /** Drops message `id` and every later one (all of them when `id` is unknown); returns them, oldest first. */
  dropFrom(id: string): LoggedMessage[] {
    const at = this.placeOf(id) ?? 0;
    const dropped = this.list.slice(at);
    this.ids.length = this.list.length = at;
    return dropped;
  }
}

/** What a message's own line recorded that a checkpoint's copy of it leaves out. */
function recordedFields(record: Json): Json {
  const kept: Json = {};
  for (const key of ["timestamp", "model", "tokens"]) {
    if (record[key] !== undefined) kept[key] = record[key];
  }
  return kept;
}

/**
 * A message an indexing replay placed, its record read again (`read` gives the line at a place, parsed) as the
 * held replay would have kept it. A line that is not what the index found there is the file changed.
 */
export function restored(
  logged: LoggedMessage,
  read: (place: Origin) => unknown,
  changed: () => Error,
): LoggedMessage {
  const value = read(logged.origin);
  const id = (m: unknown) => (isObject(m) && typeof m.id === "string" ? m.id : undefined);
  // The type its origin names is the record's own: a record of another type at the place is another record.
  const typed = (m: Json, prefix: string) => `${prefix}${String(m.type ?? "message")}` === logged.origin.type;
  if (logged.at === undefined) {
    if (!isObject(value) || lineKind(value) !== "message" || !typed(value, "")) throw changed();
    return { record: value, origin: logged.origin, line: logged.line };
  }
  const set = isObject(value) && isObject(value.$set) ? value.$set : undefined;
  const m = set && Array.isArray(set.messages) ? set.messages[logged.at] : undefined;
  if (!isObject(m) || id(m) === undefined || !typed(m, "checkpoint:")) throw changed();
  const own = logged.own ? read(logged.own) : undefined;
  if (logged.own && (!isObject(own) || id(own) !== id(m))) throw changed();
  const record = { ...m, ...(isObject(own) ? recordedFields(own) : {}) };
  return { record, origin: logged.origin, line: logged.line };
}

/**
 * The snapshot and acknowledgement a compression's checkpoint lists, if it is one: a user message the log had
 * not held followed by the model's acknowledgement, new too (0.61.0 writes them, then the kept turns under new
 * ids, in place of the history). Told by its place and the acknowledgement's words, not the snapshot's, which
 * are whatever the summary said.
 */
function compressionPair(list: unknown[], held: (id: string) => boolean): [string, string] | undefined {
  const fresh = (m: unknown, type: string): m is Json =>
    isObject(m) && typeof m.id === "string" && !held(m.id) && m.type === type;
  for (let i = 0; i + 1 < list.length; i++) {
    const [snapshot, ack] = [list[i], list[i + 1]];
    if (fresh(snapshot, "user") && fresh(ack, "gemini") && contentText(ack.content) === COMPRESSION_ACK) {
      return [snapshot.id as string, ack.id as string];
    }
  }
  return undefined;
}
