/**
 * A Pi session into the IR, pure: the file's lines in, a session out. The entries are built into Pi's tree
 * (tree.ts); the live thread is what the model sees on resume: the live branch, from its last compaction's
 * summary on (messages.ts), with Pi's own repair before sending (`transformMessages` in pi-ai 0.73.1): a
 * response that failed or was aborted is never sent again. A call without a result is an open call wherever
 * it stands, as every reader gives one: what Pi sends for it on resume, an error result "No result provided",
 * is its descriptor's `unansweredCalls`, which the loss report names.
 * History a compaction summarized and branches off the live one are threads of their own.
 *
 * The live branch is known only once the last entry is read. Held, every record is kept as it is read and the
 * threads are built from them; streamed, one pass indexes the file (the tree, and everything the head takes
 * from every entry), the threads kept apart are built from their records read again and spilled to a file
 * (lib/ir/spill.ts), and the live thread's records are read again and built by the same code each time the
 * thread is iterated.
 */
import type { Message, PassthroughRecords, Session, Thread, Usage } from "../../ir/schema.ts";
import type { JsonlLine, JsonlTail, RecordReader } from "../../io/jsonl.ts";
import { InputError } from "../../errors.ts";
import { assertRecordTime, isoTime } from "../../ir/clock.ts";
import { DriftCollector } from "../../schemas/drift.ts";
import { VALIDATORS } from "../../generated/validators/pi.ts";
import { PendingTracker } from "../../ir/pending.ts";
import { emptySession, notePassthrough } from "../../ir/session.ts";
import { firstUserTitle, titleLine } from "../../ir/summary.ts";
import { joinedMessages, type SessionStream, streamedMessages } from "../../ir/stream.ts";
import type { MessageSpill } from "../../ir/spill.ts";
import { isObject, type Json, optStr } from "../../io/json.ts";
import { type Branches, type EntryFacts, PiTree } from "./tree.ts";
import { agentMessage, entryMessage, isAbandonedResponse, MESSAGE_ENTRIES, origin } from "./messages.ts";
import { ListFacts } from "./facts.ts";

const HARNESS = "pi";

/** A session file's lines as the store reads them, with the file they come from. */
export interface SessionLines {
  path: string;
  lines: AsyncIterable<JsonlLine>;
  /** Filled in once `lines` is exhausted: a last line a live writer had not finished. */
  tail: JsonlTail;
}

/** A session file to stream: its lines for the indexing pass, and its records read again by their place. */
export interface SessionSource extends SessionLines {
  open(): RecordReader;
  /** Where the threads kept apart are kept: a spill file the store makes (lib/ir/spill.ts). */
  spill(): MessageSpill;
}

/** Entry `e`'s record, held or read again from the file. */
type Records = (e: number) => Json;

/** What the indexing pass takes from every line. */
interface Index {
  path: string;
  header: Json;
  /** A version 1 file: no ids, each entry the child of the one before. */
  linear: boolean;
  tree: PiTree;
  drift: DriftCollector;
  facts: ListFacts;
  cost: number;
  passthrough: PassthroughRecords[];
  tail: JsonlTail;
}

/** The live branch as the tree gives it. */
interface Branch {
  path: Int32Array;
  looped: boolean;
  context: Int32Array;
  compacted: Int32Array;
  branches: Branches;
}

export async function decodePi(log: SessionLines): Promise<Session> {
  const values: Json[] = [];
  const index = await indexPi(log, (value) => values.push(value));
  const records: Records = (e) => values[e]!;
  const branch = branchOf(index.tree);
  const session = head(index, branch);
  const threads: Thread[] = [];
  await keepApart(index, records, branch, (id, kind, made) => {
    const messages = [...made];
    if (messages.length) threads.push({ id, kind, messages });
  });
  const messages: Message[] = [];
  const live = new LiveThread(index, session.notices);
  for (const e of branch.context) {
    const m = live.next(e, records(e));
    if (m) messages.push(m);
  }
  const held: Session = { ...session, threads, messages };
  finish(index, held, live, firstUserTitle(joinedMessages(threads.filter((t) => t.kind === "compacted"))));
  return held;
}

/**
 * The session with its live thread streamed: the file is read once to index it, the threads kept apart are
 * read again now into a spill file, not held (a fitted session's compacted thread is its whole history),
 * and the live thread's records are read again and built each time it is iterated. The session's `release`
 * closes the spill. A record that is not what the index found there is the file changed: bad input naming it.
 */
export async function decodePiStreamed(source: SessionSource): Promise<SessionStream> {
  const index = await indexPi(source);
  const branch = branchOf(index.tree);
  const session: SessionStream = head(index, branch);
  // One spill for every thread kept apart, each a run of it: a file may leave the live branch thousands of times.
  const spill = source.spill();
  session.release = () => spill.close();
  const reader = source.open();
  try {
    const records = checkedRecords(index, reader);
    await keepApart(index, records, branch, async (id, kind, messages) => {
      const start = spill.count;
      for (const m of messages) {
        spill.add(m);
        await visit(reader);
      }
      const count = spill.count - start;
      if (count) session.threads.push({ id, kind, messages: spill.records(count, start) });
    });
    // The head needs of the live thread what its messages say: one pass now, its messages let go.
    const live = new LiveThread(index, session.notices);
    for (const e of branch.context) {
      live.next(e, records(e));
      await visit(reader);
    }
    finish(
      index,
      session,
      live,
      firstUserTitle(joinedMessages(session.threads.filter((t) => t.kind === "compacted"))),
    );
  } catch (error) {
    session.release();
    throw error;
  } finally {
    reader.close();
  }
  session.messages = streamedMessages(async function* () {
    const reader = source.open();
    try {
      const records = checkedRecords(index, reader);
      const live = new LiveThread(index, []);
      for (const e of branch.context) {
        const m = live.next(e, records(e));
        if (m) yield m;
        await visit(reader);
      }
    } finally {
      reader.close();
    }
  });
  return session;
}

/** The event loop visited when the reader says it is time (a Ctrl-C is seen there), else no wait at all. */
async function visit(reader: RecordReader): Promise<void> {
  const pause = reader.pause();
  if (pause) await pause;
}

/**
 * Reads every line: the header, drift and times checked, each entry put in the tree (and its record handed to
 * `keep`), and what the head takes from every entry, whichever branch it is on.
 */
async function indexPi(log: SessionLines, keep?: (value: Json) => void): Promise<Index> {
  const { path } = log;
  const drift = new DriftCollector(HARNESS, VALIDATORS);
  const tree = new PiTree();
  const facts = new ListFacts();
  const passthrough: PassthroughRecords[] = [];
  let header: Json | undefined;
  let linear = false;
  let records = 0;
  let cost = 0;
  for await (const { line, offset, length, value } of log.lines) {
    if (!header) {
      if (!isObject(value) || value.type !== "session" || typeof value.id !== "string") {
        throw new InputError(`${path}:${line}: no session header with an id: not a Pi session`);
      }
      header = value;
      linear = (typeof value.version === "number" ? value.version : 1) < 2;
      drift.check(undefined, "session", value, line);
      continue;
    }
    const type = isObject(value) && typeof value.type === "string" ? value.type : "(none)";
    drift.check(undefined, type, value, line);
    if (isObject(value)) assertRecordTime(value.timestamp, `${path}:${line}`, "timestamp");
    records++;
    // A line that is no object or names no id has no place in the tree (drift names it).
    if (!isObject(value)) continue;
    const entry = linear
      ? entryFacts(value, `v1-${records}`, tree.lastId() ?? null)
      : entryFacts(value, value.id);
    if (!entry) continue;
    tree.add({ ...entry, line, offset, length });
    keep?.(value);
    facts.add(value);
    const message = agentMessage(value);
    const total = message && isObject(message.usage) && isObject(message.usage.cost)
      ? message.usage.cost.total
      : 0;
    if (typeof total === "number" && Number.isFinite(total) && total > 0) cost += total;
    if (!MESSAGE_ENTRIES.has(entry.type)) {
      notePassthrough(passthrough, entry.type || "(none)", () => origin(path, { ...entry, offset, length }));
    }
  }
  if (!header) throw new InputError(`${path}: empty file: not a Pi session`);
  tree.end();
  return { path, header, linear, tree, drift, facts, cost, passthrough, tail: log.tail };
}

/**
 * What the tree keeps of a record, given its id. Version 1 files (no `version`, no ids) are chained as Pi
 * migrates them: each entry the child of the one before (`previous`, given only for them).
 */
function entryFacts(
  value: Json,
  id: unknown,
  previous?: string | null,
): Omit<EntryFacts, "line" | "offset" | "length"> | undefined {
  if (typeof id !== "string") return undefined;
  const type = typeof value.type === "string" ? value.type : "";
  const linear = previous !== undefined;
  const parentId = linear ? previous : typeof value.parentId === "string" ? value.parentId : null;
  const message = type === "message" ? agentMessage(value) : undefined;
  const provider = type === "model_change"
    ? { name: optStr(value.provider) }
    : message?.role === "assistant"
    ? { name: optStr(message.provider) }
    : undefined;
  return {
    id,
    parentId,
    type,
    ...(type === "compaction" && typeof value.firstKeptEntryId === "string"
      ? { firstKeptId: value.firstKeptEntryId }
      : {}),
    ...(linear && type === "compaction" && typeof value.firstKeptEntryIndex === "number"
      ? { firstKeptIndex: value.firstKeptEntryIndex }
      : {}),
    ...(provider ? { provider } : {}),
  };
}

function branchOf(tree: PiTree): Branch {
  const { path, looped } = tree.livePath();
  const { context, compacted } = tree.contextOf(path);
  return { path, looped, context, compacted, branches: tree.branches(path) };
}

/**
 * Every thread kept apart from the live one, handed to `keep` as its messages are made: the compacted history,
 * then the abandoned branches, each named by its first entry and following the entry it left.
 */
async function keepApart(
  index: Index,
  records: Records,
  branch: Branch,
  keep: (id: string, kind: Thread["kind"], messages: Iterable<Message>) => void | Promise<void>,
): Promise<void> {
  const { tree } = index;
  const { branches } = branch;
  if (branch.compacted.length) {
    await keep("compacted", "compacted", apartMessages(index, records, branch.compacted, undefined));
  }
  for (let g = 0; g < branches.count; g++) {
    const first = branches.first(g);
    const from = tree.parent(first);
    const messages = apartMessages(
      index,
      records,
      branches.entries(g),
      from < 0 ? undefined : tree.uid(from),
    );
    await keep(`branch-${tree.uid(first)}`, "abandoned-branch", messages);
  }
}

/** Everything of the session but its threads, and what only its live thread gives (see finish). */
function head({ path, header, tree, drift, passthrough }: Index, branch: Branch): Session {
  const session = emptySession({ harness: HARNESS, id: header.id as string, path, models: [] });
  if (branch.looped) {
    session.notices.push(`${path}: the entries' parent links loop; the live branch is cut where they do`);
  }
  session.passthrough.push(...passthrough);
  session.drift.push(...drift.entries());
  const meta = session.meta;
  const cwd = optStr(header.cwd);
  if (cwd) meta.cwd = cwd;
  const provider = tree.resumeProvider(branch.path);
  if (provider) meta.provider = provider;
  return session;
}

/** What the live thread gives the head once it is built: pending state, models, usage, the title and times. */
function finish(
  { path, header, facts, cost, tail }: Index,
  session: SessionStream,
  live: LiveThread,
  compactedTitle: string | undefined,
) {
  session.pending = live.tracker.pending([]);
  if (tail.truncatedLine) {
    session.notices.push(
      `${path}:${tail.truncatedLine}: incomplete last line (a live writer was mid-append); it was skipped`,
    );
  }
  const meta = session.meta;
  meta.models = [...live.models];
  const createdAt = optStr(header.timestamp);
  if (createdAt) meta.createdAt = createdAt;
  const updatedAt = facts.lastActivity !== undefined ? isoTime(facts.lastActivity) : createdAt;
  if (updatedAt) meta.updatedAt = updatedAt;
  const title = facts.name ? titleLine(facts.name) : compactedTitle ?? live.title;
  if (title) meta.title = title;
  if (live.usage) meta.usage = live.usage;
  if (cost > 0) meta.costUsd = cost;
}

/** Records read again by their place, each checked to be the entry the index found there. */
function checkedRecords({ path, tree, linear }: Index, reader: RecordReader): Records {
  return (e) => {
    const { offset, length } = tree.place(e);
    const value = reader.at(offset, length);
    const type = isObject(value) && typeof value.type === "string" ? value.type : "";
    if (!isObject(value) || type !== tree.type(e) || (!linear && value.id !== tree.id(e))) {
      throw new InputError(`${path}: the session file changed while it was read; read it again`);
    }
    return value;
  };
}

/**
 * The model's context as IR messages, entry by entry, without the responses Pi does not send again; and what
 * the head takes of them.
 */
class LiveThread {
  readonly tracker = new PendingTracker();
  readonly models = new Set<string>();
  usage?: Usage;
  /** The title its first prompt gives (see firstUserTitle). */
  title?: string;
  private count = 0;
  private last?: string;

  constructor(private readonly index: Index, private readonly notices: string[]) {}

  /** Entry `e`'s message in the thread, if it has one. */
  next(e: number, value: Json): Message | undefined {
    const { path, tree } = this.index;
    const message = tree.type(e) === "message" ? agentMessage(value) : undefined;
    if (message?.role === "assistant" && isAbandonedResponse(message)) {
      this.tracker.abortAt(this.count);
      if (Array.isArray(message.content) && message.content.length) {
        this.notices.push(
          `${path}:${tree.line(e)}: a response Pi recorded as ${message.stopReason} is left out, as Pi ` +
            "leaves it out of what it sends",
        );
      }
      return undefined;
    }
    const m = entryMessage(tree.type(e), value, base(this.index, e, value));
    if (!m) return undefined;
    m.parentUid = this.last ?? null;
    this.last = m.uid;
    this.count++;
    this.tracker.add(m);
    if (m.model) this.models.add(m.model);
    if (m.usage) this.usage = this.usage ? added(this.usage, m.usage) : { ...m.usage };
    this.title ??= firstUserTitle([m]);
    return m;
  }
}

const added = (a: Usage, u: Usage): Usage => ({
  inputTokens: a.inputTokens + u.inputTokens,
  outputTokens: a.outputTokens + u.outputTokens,
  cacheReadTokens: a.cacheReadTokens + u.cacheReadTokens,
  cacheWriteTokens: a.cacheWriteTokens + u.cacheWriteTokens,
});

/** Entries kept apart from the live thread, as messages each following the one before (the first `from`). */
function* apartMessages(
  index: Index,
  records: Records,
  entries: Iterable<number>,
  from: string | undefined,
): Generator<Message> {
  let last = from;
  for (const e of entries) {
    const value = records(e);
    const m = entryMessage(index.tree.type(e), value, base(index, e, value));
    if (!m || !m.blocks.length) continue;
    m.parentUid = last ?? null;
    last = m.uid;
    yield m;
  }
}

function base({ path, tree }: Index, e: number, value: Json) {
  const timestamp = optStr(value.timestamp);
  return {
    uid: tree.uid(e),
    parentUid: null,
    origin: origin(path, { ...tree.place(e), type: tree.type(e) }),
    ...(timestamp ? { timestamp } : {}),
  };
}
