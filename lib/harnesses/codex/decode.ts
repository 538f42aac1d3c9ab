/**
 * Streams a Codex rollout into the IR. `response_item` lines are what the model saw and become messages (tool
 * calls and their outputs linked by `call_id`); `event_msg` lines are UI mirrors of the same turns and feed only
 * titles and interruption state, never a second copy of a turn. A `compacted` line replaces the live context with
 * its replacement history; what came before it is kept apart as a `compacted` thread.
 *
 * The rollout is linear, so the live thread is what follows its last compaction. Held, every message is kept as
 * it is built; streamed, one pass indexes the rollout (the head, and what pending state, models and title need
 * of the live thread, message by message), and the live thread's lines are read again and built by the same
 * code each time the thread is iterated.
 */
import type { Block, Message, Origin, Session, Thread } from "../../ir/schema.ts";
import type { JsonlLine, JsonlStart, JsonlTail } from "../../io/jsonl.ts";
import { InputError } from "../../errors.ts";
import { assertRecordTime } from "../../ir/clock.ts";
import { DriftCollector } from "../../schemas/drift.ts";
import { VALIDATORS } from "../../generated/validators/codex.ts";
import { PendingTracker } from "../../ir/pending.ts";
import { firstUserTitle } from "../../ir/summary.ts";
import { emptySession, notePassthrough } from "../../ir/session.ts";
import { joinedMessages, type SessionStream, streamedMessages, type ThreadStream } from "../../ir/stream.ts";
import type { MessageSpill } from "../../ir/spill.ts";
import {
  blocksFromContent,
  callFromItem,
  isHarnessContext,
  messageText,
  reasoningFromItem,
  resultFromItem,
} from "./items.ts";
import { isObject, type Json, optStr } from "../../io/json.ts";
import { NameSet } from "../../io/name-set.ts";

/** Calls of tools Codex runs locally; their outputs come back as separate items with the same call_id. */
const CALL_ITEMS = new Set(["function_call", "custom_tool_call", "local_shell_call"]);
const OUTPUT_ITEMS = new Set(["function_call_output", "custom_tool_call_output"]);
/** The uid of an item without an id: this and its line's number. */
const LINE_UID = "line-";

/** What building messages carries from line to line: the same whether they are held, indexed or streamed. */
interface Builder {
  /** The model of the turn under way (turn_context). */
  model?: string;
  /** The running assistant response, extended while items keep coming from the model. */
  open?: Message;
  /** The message pushed last: complete once the next one is pushed, or its thread ends. */
  last?: Message;
  /** Messages of the current thread so far, the one still being built among them. */
  count: number;
  compactions: number;
  /** The uid the `index`th message of the current thread takes, given the one its item names. */
  uid(uid: string, index: number): string;
  /** A message of the current thread, complete. */
  done(m: Message): void;
  /** The current thread is compacted (all its messages done): the `n`th compaction starts the next one. */
  compacted(n: number): void;
}

/**
 * What the head needs of the current thread (the live one, once the rollout ends), taken message by message.
 * A compaction starts them afresh, abort positions included: those count messages of the thread they were
 * recorded in.
 */
class ThreadFacts {
  readonly pending = new PendingTracker();
  readonly models = new Set<string>();
  /** The title its first prompt gives (see firstUserTitle). */
  title?: string;

  add(m: Message) {
    this.pending.add(m);
    if (m.model) this.models.add(m.model);
    this.title ??= firstUserTitle([m]);
  }
}

/** The indexing pass (and the held read): the builder, plus everything the head is made of. */
interface ReadState {
  session: Session;
  drift: DriftCollector;
  version?: string;
  build: Builder;
  facts: ThreadFacts;
  /** The current turn ended aborted or with an error (cleared when a turn completes). */
  turnBroken: boolean;
  /** A turn has started and not ended (complete or aborted) yet. */
  turnRunning: boolean;
  threadName?: string;
  /** Where the live thread starts: the last compaction, else the first line. */
  liveFrom: LiveStart;
  /** The offset of the last line read. */
  through: number;
}

/** A rollout's records as the store reads them, with the file they come from (for origins and notices). */
export interface RolloutLines {
  path: string;
  lines: AsyncIterable<JsonlLine>;
  /** Filled in by the reader once `lines` is exhausted: a last line a live writer had not finished. */
  tail: JsonlTail;
}

/**
 * A Codex thread from its rollout's records, every message held. Its title is the name the rollout itself
 * records, if any: a name kept only in the store's index, or one taken from the first prompt, is the store's
 * to add (read.ts).
 */
export async function decodeCodex(rollout: RolloutLines): Promise<Session> {
  const { state, threads, messages } = await holdRollout(rollout);
  state.session.threads.push(...threads);
  return { ...head(state), messages };
}

/**
 * Where a streamed rollout's records are read, by the store: from `start` on (else from the first line); and
 * where the threads it compacted are kept, a spill file the store makes (lib/ir/spill.ts).
 */
export interface RolloutSource {
  path: string;
  open(start?: JsonlStart): { lines: AsyncIterable<JsonlLine>; tail: JsonlTail };
  spill(): MessageSpill;
}

/** A session with its live thread streamed, and the title its first prompt gives (see titleFromFirstUserText). */
export interface StreamedRollout {
  session: SessionStream;
  firstUserTitle?: string;
}

/**
 * The session with its live thread streamed: the rollout is read once to index it, and the live thread's lines
 * (from its last compaction on) are read again and built each time the thread is iterated. The threads
 * compacted before it are read again now up to the live thread, each a run of one spill file (lib/ir/spill.ts),
 * not held: a fitted session's compacted thread is its whole history. The session's `release` closes it.
 */
export async function decodeCodexStreamed(source: RolloutSource): Promise<StreamedRollout> {
  const path = source.path;
  // The uids the live thread's messages take when the one their item names was taken already, by place.
  let renamed = new Map<number, string>();
  const state = await indexRollout({ path, ...source.open() }, {
    uid: takenOnce((index, uid) => renamed.set(index, uid)),
    done: () => {},
    compacted: () => (renamed = new Map()),
  });
  const session: SessionStream = head(state);
  const { liveFrom, through } = state;
  const count = state.build.count;
  if (state.build.compactions) {
    const prefix = source.open();
    const rollout = { path, lines: upTo(prefix.lines, liveFrom.start.offset), tail: prefix.tail };
    const spill = source.spill();
    session.release = () => spill.close();
    try {
      session.threads.push(...await spillThreads(rollout, spill));
    } catch (error) {
      spill.close();
      throw error;
    }
  }
  const title = firstUserTitle(joinedMessages(session.threads)) ?? state.facts.title;
  const changed = () => new InputError(`${path}: the rollout changed while it was read; read it again`);
  session.messages = streamedMessages(async function* () {
    const ready: Message[] = [];
    let last = -1;
    const build = builder({
      uid: (uid, index) => renamed.get(index) ?? uid,
      done: (m) => ready.push(m),
      // The live thread starts at its compaction: one more is not the rollout that was indexed.
      compacted: () => {
        if (last !== -1) throw changed();
      },
    }, liveFrom);
    for await (const line of source.open(liveFrom.start).lines) {
      // Lines a live writer appended since the rollout was indexed are not part of this session.
      if (line.offset > through) break;
      if (!isObject(line.value)) throw changed();
      buildLine(build, path, line, line.value);
      last = line.offset;
      yield* ready.splice(0);
    }
    endThread(build);
    yield* ready.splice(0);
    if (last !== through || build.count !== count) throw changed();
  });
  return { session, ...(title === undefined ? {} : { firstUserTitle: title }) };
}

/** The lines of `lines` up to and including the one at `offset`. */
async function* upTo(lines: AsyncIterable<JsonlLine>, offset: number): AsyncGenerator<JsonlLine> {
  for await (const line of lines) {
    yield line;
    if (line.offset >= offset) return;
  }
}

/** The rollout with every message held: the threads it compacted, and the live thread. */
async function holdRollout(
  rollout: RolloutLines,
): Promise<{ state: ReadState; threads: Thread[]; messages: Message[] }> {
  const threads: Thread[] = [];
  let messages: Message[] = [];
  const state = await indexRollout(rollout, {
    uid: takenOnce(),
    done: (m) => messages.push(m),
    compacted: (n) => {
      if (messages.length) threads.push({ id: `compacted-${n}`, kind: "compacted", messages });
      messages = [];
    },
  });
  return { state, threads, messages };
}

/**
 * The threads the rollout compacted, each a run of `spill` as it is read (one file however many compactions a
 * rollout has); the messages after the last are not a thread.
 */
async function spillThreads(rollout: RolloutLines, spill: MessageSpill): Promise<ThreadStream[]> {
  const threads: ThreadStream[] = [];
  let from = 0;
  await indexRollout(rollout, {
    uid: takenOnce(),
    done: (m) => spill.add(m),
    compacted: (n) => {
      if (spill.count === from) return;
      threads.push({
        id: `compacted-${n}`,
        kind: "compacted",
        messages: spill.records(spill.count - from, from),
      });
      from = spill.count;
    },
  });
  return threads;
}

/** Where the live thread starts, and what building it carries in from the lines before. */
interface LiveStart {
  start: JsonlStart;
  model?: string;
  compactions: number;
}

/** The parts of a builder that differ between holding, indexing and streaming. */
type Sink = Pick<Builder, "uid" | "done" | "compacted">;

function builder(sink: Sink, from: LiveStart): Builder {
  return { ...sink, count: 0, compactions: from.compactions, ...(from.model ? { model: from.model } : {}) };
}

/**
 * Uids made unique across the rollout: item ids repeat when Codex replays history after a compaction.
 * `renamed` hears of every uid changed, with the place of its message in its thread.
 */
function takenOnce(renamed?: (index: number, uid: string) => void): Builder["uid"] {
  // Not a Set of strings: a long rollout has hundreds of thousands of uids, item ids (uuids, 16 bytes each) or,
  // for items without one, their line's (a number each).
  const taken = new NameSet(LINE_UID);
  return (uid, index) => {
    const unique = taken.has(uid) ? `${uid}#${taken.size}` : uid;
    taken.add(unique);
    if (unique !== uid) renamed?.(index, unique);
    return unique;
  };
}

/**
 * Reads the whole rollout: the head from every line, the messages built and handed to `sink` as each is
 * complete, and what the head needs of the live thread taken from them.
 */
async function indexRollout({ path, lines, tail }: RolloutLines, sink: Sink): Promise<ReadState> {
  const state: ReadState = {
    session: emptySession({ harness: "codex", id: "", path, models: [] }),
    drift: new DriftCollector("codex", VALIDATORS),
    build: builder({
      uid: sink.uid,
      done: (m) => {
        state.facts.add(m);
        sink.done(m);
      },
      compacted: (n) => {
        state.facts = new ThreadFacts();
        sink.compacted(n);
      },
    }, FIRST_LINE),
    facts: new ThreadFacts(),
    turnBroken: false,
    turnRunning: false,
    liveFrom: FIRST_LINE,
    through: -1,
  };
  for await (const line of lines) {
    if (!isObject(line.value)) throw new InputError(`${path}:${line.line}: expected a JSON object`);
    const record = line.value;
    const type = optStr(record.type) ?? "";
    if (type === "session_meta" && isObject(record.payload)) {
      state.version ??= optStr(record.payload.cli_version);
    }
    state.drift.check(state.version, type, record, line.line);
    assertRecordTime(record.timestamp, `${path}:${line.line}`, "timestamp");
    noteTimes(state, optStr(record.timestamp));
    const payload = isObject(record.payload) ? record.payload : {};
    if (type === "session_meta") {
      assertRecordTime(payload.timestamp, `${path}:${line.line}`, "payload.timestamp");
    }
    if (type !== "response_item") {
      // UI events and usage records interleave with a response's items without ending it.
      notePassthrough(state.session.passthrough, type, () => originOf(path, line, type));
      if (type === "session_meta") noteSessionMeta(state, payload);
      else if (type === "turn_context") notePosture(state, payload);
      else if (type === "event_msg") noteEvent(state, payload);
      else if (type === "compacted") {
        const { model, compactions } = state.build;
        state.liveFrom = {
          start: { offset: line.offset, line: line.line },
          compactions,
          ...(model ? { model } : {}),
        };
      }
    }
    buildLine(state.build, path, line, record);
    state.through = line.offset;
  }
  endThread(state.build);
  if (tail.truncatedLine) {
    state.session.notices.push(
      `${path}:${tail.truncatedLine}: incomplete last line (a live writer was mid-append); it was skipped`,
    );
  }
  return state;
}

const FIRST_LINE: LiveStart = { start: { offset: 0, line: 1 }, compactions: 0 };

function originOf(path: string, line: JsonlLine, type: string): Origin {
  return { harness: "codex", path, offset: line.offset, length: line.length, type };
}

/** One line's part in the thread: an item, the model of the turn, or a compaction. */
function buildLine(build: Builder, path: string, line: JsonlLine, record: Json) {
  const type = optStr(record.type) ?? "";
  const payload = isObject(record.payload) ? record.payload : {};
  const timestamp = optStr(record.timestamp);
  if (type === "response_item") addItem(build, payload, originOf(path, line, type), timestamp, line.line);
  else if (type === "turn_context") build.model = optStr(payload.model) ?? build.model;
  else if (type === "compacted") compact(build, payload, originOf(path, line, type), timestamp);
}

/** Everything of the session but its live thread's messages. */
function head(state: ReadState): Session {
  const session = state.session;
  if (!session.meta.id) {
    throw new InputError(`${session.meta.path}: no session_meta record: not a Codex rollout`);
  }
  session.drift = state.drift.entries();
  session.pending = state.facts.pending.pending([]);
  if (state.turnBroken) session.pending.interruptedTurn = true;
  if (state.threadName !== undefined) session.meta.title = state.threadName;
  session.meta.models = [...state.facts.models];
  return session;
}

function noteTimes(state: ReadState, ts: string | undefined) {
  const meta = state.session.meta;
  if (!ts) return;
  if (!meta.createdAt || ts < meta.createdAt) meta.createdAt = ts;
  if (!meta.updatedAt || ts > meta.updatedAt) meta.updatedAt = ts;
}

function noteSessionMeta(state: ReadState, payload: Json) {
  const meta = state.session.meta;
  meta.id ||= optStr(payload.id) ?? "";
  meta.cwd ??= optStr(payload.cwd);
  meta.provider ??= optStr(payload.model_provider);
  meta.harnessVersion ??= optStr(payload.cli_version);
  const base = isObject(payload.base_instructions) ? optStr(payload.base_instructions.text) : undefined;
  if (base) meta.systemInstructions ??= base;
  const git = isObject(payload.git) ? optStr(payload.git.branch) : undefined;
  if (git) meta.gitBranch ??= git;
}

/** Per-turn settings: the permission posture in Codex's own words ("<approval> <sandbox>", as lib/posture
 * reads them). The model for the turn's messages is the builder's (buildLine). */
function notePosture(state: ReadState, payload: Json) {
  const approval = optStr(payload.approval_policy);
  const sandbox = isObject(payload.sandbox_policy) ? optStr(payload.sandbox_policy.type) : undefined;
  if (approval && sandbox) state.session.meta.permissionMode = `${approval} ${sandbox}`;
}

function noteEvent(state: ReadState, payload: Json) {
  switch (payload.type) {
    case "task_started":
      // A turn that never ended (Codex was killed) was cut off by this one: its unanswered calls were
      // interrupted, like those of an aborted turn.
      if (state.turnRunning) state.facts.pending.abortAt(state.build.count);
      state.turnRunning = true;
      state.turnBroken = false;
      break;
    case "turn_aborted":
      state.turnRunning = false;
      state.turnBroken = true;
      state.facts.pending.abortAt(state.build.count);
      break;
    case "task_complete":
      state.turnRunning = false;
      state.turnBroken = isObject(payload.error);
      break;
    case "thread_name_updated":
      state.threadName = optStr(payload.thread_name) ?? state.threadName;
      break;
    case "token_count": {
      const total = isObject(payload.info) && isObject(payload.info.total_token_usage)
        ? payload.info.total_token_usage
        : undefined;
      if (total) state.session.meta.usage = usageOf(total);
      break;
    }
  }
}

const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);

function usageOf(total: Json) {
  const cached = count(total.cached_input_tokens);
  return {
    inputTokens: Math.max(0, count(total.input_tokens) - cached),
    outputTokens: count(total.output_tokens),
    cacheReadTokens: cached,
    cacheWriteTokens: count(total.cache_write_input_tokens),
  };
}

function addItem(
  build: Builder,
  item: Json,
  origin: Origin,
  timestamp: string | undefined,
  lineNo: number,
) {
  const type = optStr(item.type) ?? "";
  const uid = optStr(item.id) ?? `${LINE_UID}${lineNo}`;
  if (type === "message" && item.role !== "assistant") {
    build.open = undefined;
    push(build, userSideMessage(item, uid, origin, timestamp));
    return;
  }
  if (OUTPUT_ITEMS.has(type)) {
    build.open = undefined;
    push(build, {
      ...base(uid, origin, timestamp),
      role: "tool",
      kind: "turn",
      blocks: [resultFromItem(item)],
    });
    return;
  }
  // Everything else came from the model: assistant text, reasoning, calls, server-side tools, and item types
  // this reader does not know yet, which travel whole as raw blocks (and are reported) rather than vanish.
  const blocks: Block[] = type === "message"
    ? blocksFromContent(item.content)
    : type === "reasoning"
    ? [reasoningFromItem(item)]
    : CALL_ITEMS.has(type)
    ? [callFromItem(item)]
    : [{ type: "raw", harness: "codex", kind: type || "unknown", value: item }];
  if (build.open) {
    build.open.blocks.push(...blocks);
    return;
  }
  build.open = {
    ...base(uid, origin, timestamp),
    role: "assistant",
    kind: "turn",
    blocks,
    ...(build.model ? { model: build.model } : {}),
  };
  push(build, build.open);
}

function base(uid: string, origin: Origin, timestamp: string | undefined) {
  return { uid, parentUid: null, origin, ...(timestamp ? { timestamp } : {}) };
}

/** User and developer messages: the person's words are turns; whatever the harness injected is context. */
function userSideMessage(item: Json, uid: string, origin: Origin, timestamp: string | undefined): Message {
  const isUser = item.role === "user";
  return {
    ...base(uid, origin, timestamp),
    role: isUser ? "user" : "system",
    kind: isUser && !isHarnessContext(item) ? "turn" : "context",
    blocks: blocksFromContent(item.content),
    ...(optStr(item.id) ? { providerMessageId: optStr(item.id) } : {}),
  };
}

function push(build: Builder, message: Message) {
  message.parentUid = build.last?.uid ?? null;
  message.uid = build.uid(message.uid, build.count++);
  if (build.last) build.done(build.last);
  build.last = message;
}

/**
 * The current thread ends: its last message is complete, and no response runs on into the next (a compaction's
 * replacement history never extends the response it cut off).
 */
function endThread(build: Builder) {
  if (build.last) build.done(build.last);
  build.last = undefined;
  build.open = undefined;
}

/**
 * A compaction: the model's context is now the replacement history (context, retained user messages and the
 * summary), so that becomes the live thread; the history it replaced is kept as a `compacted` thread.
 */
function compact(build: Builder, payload: Json, origin: Origin, timestamp: string | undefined) {
  const n = ++build.compactions;
  endThread(build);
  build.compacted(n);
  build.count = 0;
  const summaryText = optStr(payload.message);
  const replacement = Array.isArray(payload.replacement_history)
    ? payload.replacement_history.filter(isObject)
    : [];
  replacement.forEach((item, i) => {
    const uid = `compacted-${n}-${i}`;
    if (item.type === "message" && item.role !== "assistant") {
      const message = userSideMessage(item, uid, origin, timestamp);
      if (summaryText && messageText(item.content) === summaryText) message.kind = "summary";
      push(build, message);
    } else addItem(build, item, origin, timestamp, -i);
  });
  build.open = undefined;
  if (!replacement.length && summaryText) {
    push(build, {
      ...base(`compacted-${n}`, origin, timestamp),
      role: "user",
      kind: "summary",
      blocks: [{ type: "text", text: summaryText }],
    });
  }
}
