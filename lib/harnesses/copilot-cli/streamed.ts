/**
 * A large Copilot CLI session with its live thread streamed from its events.jsonl, decoded by the same code as
 * the held read (decode.ts `decodeEvent`), each pass with a sink of its own:
 *
 *   index   every event once: the head, what it needs of the live thread, and where the live thread starts.
 *           Nothing of the main conversation is held but the compactions' summaries: the live thread is the
 *           last compaction's summary (and the summaries it kept), the messages it kept, and those after it.
 *           Subagents' messages go to spill files (lib/ir/spill.ts) as they come.
 *   spill   once, when the session was compacted: the events up to the last compaction again, each message
 *           into the spill of the compacted thread it went to, or of the messages the compaction kept
 *           (compacted threads can be the whole history: a fitted session keeps it in one).
 *   live    each time the live thread is iterated: its held and kept messages, then the events after the last
 *           compaction read again, their usage picking up where the index left it there.
 *
 * A file that changed between passes is bad input naming it; events appended after the index are not read.
 */
import type { Message, Usage } from "../../ir/schema.ts";
import type { JsonlLine, JsonlStart, JsonlTail } from "../../io/jsonl.ts";
import { InputError } from "../../errors.ts";
import { PendingTracker } from "../../ir/pending.ts";
import { addUsage, firstUserTitle } from "../../ir/summary.ts";
import {
  type SessionStream,
  streamedMessages,
  type ThreadMessages,
  type ThreadStream,
} from "../../ir/stream.ts";
import { type MessageSpill, spillMessages } from "../../ir/spill.ts";
import {
  decodeEvent,
  type Decoder,
  headOf,
  linked,
  newDecoder,
  type PendingUsage,
  type Sink,
  withLiveFacts,
} from "./decode.ts";

/** Where a streamed session's events are read, by the store: from `start` on (else from the first line). */
export interface EventSource {
  path: string;
  open(start?: JsonlStart): { lines: AsyncIterable<JsonlLine>; tail: JsonlTail };
}

/** A session with its live thread streamed, and the title its first prompt gives (see titleFromFirstUserText). */
export interface StreamedEvents {
  session: SessionStream;
  firstUserTitle?: string;
}

/** A compaction as the index saw it: the history it took is these summaries, then `lines` main messages. */
interface Compaction {
  summaries: Message[];
  lines: number;
}

/** What the head needs of the live thread, taken message by message (afresh at each compaction). */
class ThreadFacts {
  readonly pending = new PendingTracker();
  readonly models = new Set<string>();
  updatedAt?: string;

  add(m: Message) {
    this.pending.add(m);
    if (m.model) this.models.add(m.model);
    if (m.timestamp && (!this.updatedAt || m.timestamp > this.updatedAt)) this.updatedAt = m.timestamp;
  }

  live(aborted: number[], usage: Usage | undefined) {
    for (const at of aborted) this.pending.abortAt(at);
    return { pending: this.pending.pending([]), models: [...this.models], updatedAt: this.updatedAt, usage };
  }
}

/** A subagent's thread, spilled as it comes. */
interface AgentSpill {
  spill: MessageSpill;
  last: string | null;
}

/** The index pass: the head, and the live thread's place (see the module's comment). */
class Index implements Sink {
  /** The summaries that open the live thread. */
  summaries: Message[] = [];
  /** Main messages read so far, and where the live thread's first one stands among them. */
  lines = 0;
  runStart = 0;
  /** Main messages the last compaction kept (read before it). */
  keptLines = 0;
  readonly compactions: Compaction[] = [];
  /** The last compaction's event, and the main agent's usage pending there. */
  lastCompaction?: { start: JsonlStart; usage: PendingUsage };
  /** Where turns were aborted, by position in the live thread. */
  abortedAt: number[] = [];
  facts = new ThreadFacts();
  title?: string;
  usage?: Usage;
  readonly agents = new Map<string, AgentSpill>();

  constructor(private readonly dec: Decoder) {}

  /** The live thread's length so far. */
  get length() {
    return this.summaries.length + this.lines - this.runStart;
  }

  agent(agentId: string) {
    if (!this.agents.has(agentId)) this.agents.set(agentId, { spill: spillMessages(), last: null });
  }

  message(m: Message) {
    this.lines++;
    this.counted(m);
    this.facts.add(m);
    this.title ??= firstUserTitle([m]);
  }

  agentMessage(agentId: string, m: Message) {
    this.counted(m);
    const agent = this.agents.get(agentId)!;
    m.parentUid = agent.last;
    agent.last = m.uid;
    agent.spill.add(m);
  }

  /** As decode.ts `compact` does to the held messages, on their places alone. */
  compacted(summary: Message, kept: number, line: JsonlLine) {
    const length = this.length;
    const taken = length - Math.min(length, kept);
    const summaries = this.summaries.splice(0, Math.min(taken, this.summaries.length));
    const lines = taken - summaries.length;
    this.runStart += lines;
    this.compactions.push({ summaries, lines });
    this.summaries.unshift(summary);
    this.keptLines = this.lines - this.runStart;
    this.abortedAt = this.abortedAt.map((at) => Math.max(0, at - taken + 1));
    this.lastCompaction = { start: { offset: line.offset, line: line.line }, usage: new Map(this.dec.usage) };
    this.facts = new ThreadFacts();
    for (const s of this.summaries) this.facts.add(s);
  }

  aborted() {
    this.abortedAt.push(this.length);
  }

  release() {
    for (const { spill } of this.agents.values()) spill.close();
  }

  private counted(m: Message) {
    if (m.usage) this.usage = this.usage ? addUsage(this.usage, m.usage) : { ...m.usage };
  }
}

/** A sink that takes the main agent's messages alone. */
function mainMessages(message: (m: Message, line: JsonlLine) => void): Sink {
  return { agent: () => {}, message, agentMessage: () => {}, compacted: () => {}, aborted: () => {} };
}

/**
 * The session with its live thread streamed (see the module's comment). The session's `release` closes the
 * spill files of its other threads.
 */
export async function decodeCopilotStreamed(source: EventSource): Promise<StreamedEvents> {
  const { path } = source;
  const dec = newDecoder(path, true);
  const index = new Index(dec);
  const first = source.open();
  let through = -1;
  try {
    for await (const line of first.lines) {
      decodeEvent(dec, line, index);
      through = line.offset;
    }
  } catch (error) {
    index.release();
    throw error;
  }
  const spills = [...index.agents.values()].map((a) => a.spill);
  const release = () => spills.forEach((s) => s.close());
  const head = headOf(dec, first.tail);
  const threads: ThreadStream[] = [];
  let kept: ThreadMessages = [];
  try {
    if (index.compactions.length) {
      const spilled = await spillCompacted(source, index);
      spills.push(...spilled.spills);
      threads.push(...spilled.threads);
      kept = spilled.kept;
    }
  } catch (error) {
    release();
    throw error;
  }
  for (const [agentId, { spill }] of index.agents) {
    threads.push({ id: agentId, kind: "subagent", messages: spill.messages(spill.count) });
  }
  const changed = () => new InputError(`${path}: the events file changed while it was read; read it again`);
  const { summaries, lastCompaction } = index;
  const count = index.lines - index.runStart - kept.length;
  const messages = streamedMessages(async function* () {
    let parentUid: string | null = null;
    const link = (m: Message): Message => {
      const out = { ...m, parentUid };
      parentUid = m.uid;
      return out;
    };
    for (const m of summaries) yield link(m);
    for (const m of kept) yield link(m);
    const ready: Message[] = [];
    let last = -1;
    let read = 0;
    const pass = newDecoder(path, false, new Map(lastCompaction?.usage));
    const sink = mainMessages((m) => {
      read++;
      ready.push(link(m));
    });
    for await (const line of source.open(lastCompaction?.start).lines) {
      // Lines a live writer appended since the file was indexed are not part of this session.
      if (line.offset > through) break;
      last = line.offset;
      // The compaction the live thread starts at was read by the index: its summary is held.
      if (line.offset === lastCompaction?.start.offset) continue;
      decodeEvent(pass, line, sink);
      yield* ready.splice(0);
    }
    if (last !== through || read !== count) throw changed();
  });
  const session: SessionStream = { ...head, messages, threads, ...(spills.length ? { release } : {}) };
  const live = index.keptLines ? await factsOf(session, index.abortedAt) : index.facts;
  withLiveFacts(session, live.live(index.abortedAt, index.usage));
  return { session, ...(index.title === undefined ? {} : { firstUserTitle: index.title }) };
}

/** The live thread's facts read from it, when its compaction kept messages the index did not take them from. */
async function factsOf(session: SessionStream, abortedAt: number[]): Promise<ThreadFacts> {
  const facts = new ThreadFacts();
  for (const at of abortedAt) facts.pending.abortAt(at);
  for await (const m of session.messages) facts.add(m);
  return facts;
}

/**
 * The compacted threads, each spilled as its messages are read again, and the messages the last compaction
 * kept, spilled too: the events up to the last compaction, each main message to its place in the index's order.
 */
async function spillCompacted(
  source: EventSource,
  index: Index,
): Promise<{ threads: ThreadStream[]; kept: ThreadMessages; spills: MessageSpill[] }> {
  const spills: MessageSpill[] = [];
  const next = () => {
    const spill = spillMessages();
    spills.push(spill);
    return spill;
  };
  const { compactions } = index;
  const end = index.lastCompaction!.start.offset;
  let at = 0;
  let spill = next();
  let parentUid = compactions[0]!.summaries.at(-1)?.uid ?? null;
  const ended = () => {
    while (at < compactions.length && spill.count === compactions[at]!.lines) {
      at++;
      spill = next();
      parentUid = at < compactions.length ? compactions[at]!.summaries.at(-1)?.uid ?? null : null;
    }
  };
  try {
    ended();
    const dec = newDecoder(source.path, false);
    const sink = mainMessages((m) => {
      // The messages a compaction kept are the live thread's: linked as it is read.
      if (at < compactions.length) {
        m.parentUid = parentUid;
        parentUid = m.uid;
      }
      spill.add(m);
      ended();
    });
    for await (const line of source.open().lines) {
      if (line.offset >= end) break;
      decodeEvent(dec, line, sink);
    }
  } catch (error) {
    spills.forEach((s) => s.close());
    throw error;
  }
  if (at !== compactions.length || spill.count !== index.keptLines) {
    spills.forEach((s) => s.close());
    throw new InputError(`${source.path}: the events file changed while it was read; read it again`);
  }
  const threads = spills.slice(0, -1).map((s, i): ThreadStream => ({
    id: `compacted-${i + 1}`,
    kind: "compacted",
    messages: after(linked(compactions[i]!.summaries), s.messages(s.count)),
  }));
  return { threads, kept: spill.messages(spill.count), spills };
}

/** `first`, then `rest`, anew on each iteration. */
function after(first: Message[], rest: ThreadMessages): ThreadMessages {
  if (!first.length) return rest;
  return {
    length: first.length + rest.length,
    *[Symbol.iterator]() {
      yield* first;
      yield* rest;
    },
  };
}
