/**
 * A large Copilot CLI session with its live thread streamed from its events.jsonl, decoded by the same code as
 * the held read (decode.ts `decodeEvent`), each pass with a sink of its own:
 *
 *   index   every event once: the head, what it needs of the live thread, and where the live thread starts.
 *           The main conversation's messages go to a spill file (lib/ir/spill.ts) as they come, subagents'
 *           to one each: which of the main ones a compaction takes is known only when it comes, and compacted
 *           threads can be the whole history (a fitted session keeps it in one). Nothing is held but the
 *           compactions' summaries. The live thread is the last compaction's summary (and the summaries it
 *           kept), the messages it kept (read back from the spill), and those after it. (A session never
 *           compacted spills its messages for nothing: Copilot compacts one long before it is this large.)
 *   live    each time the live thread is iterated: its summaries and kept messages, then the events after the
 *           last compaction read again, their usage picking up where the index left it there.
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
  /** The first of them, among the main messages. */
  from: number;
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
  /** The main conversation's messages, in the order they were read. */
  readonly spill = spillMessages();

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
    this.spill.add(m);
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
    this.compactions.push({ summaries, from: this.runStart, lines });
    this.runStart += lines;
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
    this.spill.close();
    for (const { spill } of this.agents.values()) spill.close();
  }

  private counted(m: Message) {
    if (m.usage) this.usage = this.usage ? addUsage(this.usage, m.usage) : { ...m.usage };
  }
}

/** A sink that takes the main agent's messages alone. */
function mainMessages(message: (m: Message) => void): Sink {
  return { agent: () => {}, message, agentMessage: () => {}, compacted: () => {}, aborted: () => {} };
}

/**
 * The session with its live thread streamed (see the module's comment). The session's `release` closes the
 * spill files its other threads are read from.
 */
export async function decodeCopilotStreamed(source: EventSource): Promise<StreamedEvents> {
  const { path } = source;
  const dec = newDecoder(path);
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
  // Without a compaction, every main message is the live thread's, read again from the events.
  if (!index.compactions.length) index.spill.close();
  const release = () => index.release();
  const head = headOf(dec, first.tail);
  const threads: ThreadStream[] = index.compactions.map((c, i) => ({
    id: `compacted-${i + 1}`,
    kind: "compacted",
    messages: linkedAfter(linked(c.summaries), index.spill.records(c.lines, c.from)),
  }));
  const kept = index.compactions.length ? index.spill.records(index.keptLines, index.runStart) : [];
  for (const [agentId, { spill }] of index.agents) {
    threads.push({ id: agentId, kind: "subagent", messages: spill.records(spill.count) });
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
    const pass = newDecoder(path, lastCompaction?.usage ?? new Map());
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
  const spilled = index.compactions.length || index.agents.size;
  const session: SessionStream = { ...head, messages, threads, ...(spilled ? { release } : {}) };
  let live = index.facts;
  try {
    if (index.keptLines) live = await factsOf(session, index.abortedAt);
  } catch (error) {
    release();
    throw error;
  }
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

/** `first`, then `rest` linked after them, anew on each iteration (`rest` gives fresh messages each time). */
function linkedAfter(first: Message[], rest: ThreadMessages): ThreadMessages {
  return {
    length: first.length + rest.length,
    *[Symbol.iterator]() {
      yield* first;
      let parentUid = first.at(-1)?.uid ?? null;
      for (const m of rest) {
        m.parentUid = parentUid;
        parentUid = m.uid;
        yield m;
      }
    },
  };
}
