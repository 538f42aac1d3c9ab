/**
 * An OpenCode session into the IR, pure: its rows (stored.ts) in, a session out. The live thread is what
 * `opencode --session <id>` shows and sends the model (1.18.33's MessageV2 toModelMessages, filterCompacted
 * and SessionRevert.cleanup, read in its binary; splits.ts tells which messages make which thread):
 *
 *   revert      while a revert (/undo) is pending, the message it names and every later one are hidden (from
 *               its part on, when it names one), and deleted on the next prompt: an abandoned branch here
 *   compaction  the history before the last finished compaction (a user message holding a `compaction` part
 *               answered by a `summary` assistant message) is not sent again: a compacted thread here
 *   messages    a user message's text and file parts (`ignored` text left out; `synthetic` text is the harness's
 *               own, context here); an assistant message's reasoning, text and tool parts, one tool part holding
 *               a call's whole life: its input, then its output (completed) or error. A call left `pending` or
 *               `running` (OpenCode killed mid-call) has no result: OpenCode sends "[Tool execution was
 *               interrupted]" for it on resume, and so it is an open call here. An assistant message that failed
 *               is not sent, unless it was aborted after making something
 *   subagents   each session a task call started (`parent_id`) is a subagent thread of its own
 *
 * Prompts the user queued that no assistant message answers (none names it as its parentID) at the end of the
 * thread are queued input, not turns.
 */
import type {
  Block,
  DriftEntry,
  Message,
  QueuedInput,
  Session,
  Thread,
  ToolResultBlock,
  Usage,
} from "../../ir/schema.ts";
import { emptySession, notePassthrough } from "../../ir/session.ts";
import { PendingTracker } from "../../ir/pending.ts";
import { isoTime } from "../../ir/clock.ts";
import { titleLine } from "../../ir/summary.ts";
import { type SessionStream, streamedMessages, type ThreadStream } from "../../ir/stream.ts";
import type { MessageSpill } from "../../ir/spill.ts";
import { startsWithHandshake } from "../../handshake/handshake.ts";
import { isObject, type Json, optStr } from "../../io/json.ts";
import { parseEmbeddedJson } from "../../io/json.ts";
import { qualifiedModel } from "./models.ts";
import { sessionPostureWords } from "./posture.ts";
import type { SessionTree, StoredMessage, StoredPart, StoredSession } from "./stored.ts";
import {
  type HeldIndex,
  heldIndex,
  type IndexedMessages,
  type MessageIndex,
  type Whole,
} from "./message-index.ts";
import { type Selection, splitCompacted, splitQueued, splitRevert, wholeAt } from "./splits.ts";
import { sessionLocator } from "../locator.ts";

const HARNESS = "opencode";

/** What OpenCode sends the model for a user message holding a compaction part (its request for a summary). */
const COMPACTION_PROMPT = "What did we do so far?";

/** What OpenCode sends for a tool result its pruning cleared (`state.time.compacted`). */
const CLEARED_OUTPUT = "[Old tool result content cleared]";

/** The error an assistant message records when the user stopped it (Esc): it is still sent when it made something. */
const ABORTED = "MessageAbortedError";

/** Titles OpenCode gives a session until its title request answers: no title a person gave. */
const PLACEHOLDER_TITLE = /^(?:New session|Child session) - \d{4}-\d{2}-\d{2}T/;

/** Part types that carry nothing for the conversation: tallied, not carried. */
const BOOKKEEPING = new Set(["step-start", "step-finish", "snapshot", "patch", "retry"]);

/** Part types the reader knows (others are drift). */
const KNOWN_PARTS = new Set([
  ...BOOKKEEPING,
  "text",
  "reasoning",
  "tool",
  "file",
  "compaction",
  "subtask",
  "agent",
]);

/** An OpenCode session from its rows, every message held. */
export function decodeOpenCode(stored: StoredSession): Session {
  const messages: Message[] = [];
  const { session, threads } = decodeRows(
    heldTree(stored),
    (index, i) => index.message(i),
    heldApart(),
    (m) => messages.push(m),
  );
  session.messages = messages;
  session.threads = threads;
  return session;
}

/** A session tree read whole, its messages seen as indexes. */
function heldTree(stored: StoredSession): SessionTree<HeldIndex> {
  return { ...stored, messages: heldIndex(stored.messages), subagents: stored.subagents.map(heldTree) };
}

/** Where the store reads a large session from, streamed (read.ts). */
export interface StreamedRows {
  /** The session indexed (rows.ts indexedSession): what splitting the thread reads of its messages. */
  indexed: SessionTree<IndexedMessages>;
  /** One pass over the database: indexed messages read again whole (rows.ts wholeMessages); `close` ends it. */
  pass(): { whole: Whole<IndexedMessages>; close(): void };
  /** A new spill file for the threads kept apart. */
  spill(): MessageSpill;
}

/**
 * The same session with its live thread streamed: the rows are indexed once (what splitting the thread reads,
 * in columns), every message is then read whole once for everything but the live thread (which is mapped and
 * dropped), and the live thread is read again, and mapped by the same code, each time it is iterated. Threads
 * kept apart go to one spill file as they are read, runs of it; the session's `release` closes it.
 */
export function decodeOpenCodeStreamed(rows: StreamedRows): SessionStream {
  const apart = spilledApart(rows.spill());
  const pass = rows.pass();
  try {
    const { session, threads, turns } = decodeRows(rows.indexed, pass.whole, apart, () => {});
    const { messages: index, row: { id } } = rows.indexed;
    const again = async function* (): AsyncGenerator<Message> {
      const { whole, close } = rows.pass();
      try {
        // Tallies were taken on the first pass: this one's go nowhere.
        const reading = new Reading(rows.indexed.database, { ...session, passthrough: [] });
        for (let k = 0; k < turns.numbers.length; k++) {
          yield* reading.messages(wholeAt(turns, k, (i) => whole(index, i, id)));
        }
      } finally {
        close();
      }
    };
    const { messages: _, threads: __, ...head } = session;
    return { ...head, messages: streamedMessages(again), threads, release: apart.release };
  } catch (error) {
    apart.release();
    throw error;
  } finally {
    pass.close();
  }
}

/** Where the threads kept apart from the live thread go, their messages in the order they are read. */
interface KeptApart<T extends ThreadStream> {
  /** Starts a thread: the messages added from now on are its. */
  open(id: string, kind: Thread["kind"]): void;
  add(message: Message): void;
  threads(): T[];
}

function heldApart(): KeptApart<Thread> {
  const threads: Thread[] = [];
  return {
    open: (id, kind) => threads.push({ id, kind, messages: [] }),
    add: (message) => threads.at(-1)!.messages.push(message),
    threads: () => threads,
  };
}

/** Every thread kept apart as a run of one spill file; `release` closes it. */
function spilledApart(spill: MessageSpill): KeptApart<ThreadStream> & { release(): void } {
  const runs: { id: string; kind: Thread["kind"]; from: number }[] = [];
  return {
    open: (id, kind) => runs.push({ id, kind, from: spill.count }),
    add: (message) => spill.add(message),
    threads: () =>
      runs.map(({ id, kind, from }, i) => ({
        id,
        kind,
        messages: spill.records((runs[i + 1]?.from ?? spill.count) - from, from),
      })),
    release: () => spill.close(),
  };
}

/**
 * The session's head (meta, threads kept apart, pending state, drift) from its rows, each message of the live
 * thread given to `live` as it is made; and the messages the live thread is made of.
 */
function decodeRows<I extends MessageIndex, T extends ThreadStream>(
  stored: SessionTree<I>,
  whole: Whole<I>,
  apart: KeptApart<T>,
  live: (m: Message) => void,
): { session: Session; threads: T[]; turns: Selection } {
  const { row, messages: index } = stored;
  const path = sessionLocator(stored.database, row.id);
  const model = parseEmbeddedJson(row.model ?? "");
  const session = emptySession({
    harness: HARNESS,
    harnessVersion: row.version,
    id: row.id,
    path,
    cwd: row.directory,
    models: [],
    ...(isObject(model) && optStr(model.providerID) ? { provider: model.providerID as string } : {}),
    ...(isoTime(row.time_created) ? { createdAt: isoTime(row.time_created) } : {}),
    costUsd: count(row.cost),
    usage: {
      inputTokens: count(row.tokens_input),
      outputTokens: count(row.tokens_output),
      cacheReadTokens: count(row.tokens_cache_read),
      cacheWriteTokens: count(row.tokens_cache_write),
    },
  });
  const reading = new Reading(stored.database, session);
  const read = (selection: Selection, k: number) => wholeAt(selection, k, (i) => whole(index, i, row.id));
  const { live: shown, reverted } = splitRevert(
    index,
    parseEmbeddedJson(row.revert ?? ""),
    (i) => whole(index, i, row.id),
  );
  const { kept, compacted } = splitCompacted(index, shown);
  const { turns, queued } = splitQueued(index, kept);

  const tracker = new PendingTracker();
  const liveModels = new Set<string>();
  let made = 0;
  for (let k = 0; k < turns.numbers.length; k++) {
    const m = read(turns, k);
    const messages = reading.messages(m);
    if (m.data.role === "assistant" && errorName(m.data) === ABORTED) {
      tracker.abortAt(made + messages.length);
    }
    for (const one of messages) {
      tracker.add(one);
      if (one.model) liveModels.add(one.model);
      live(one);
    }
    made += messages.length;
  }
  const threadModels = new Set<string>();
  const keep = (m: Message) => {
    if (m.model) threadModels.add(m.model);
    apart.add(m);
  };
  const earlier = (kind: Thread["kind"], from: Selection) => {
    if (!from.numbers.length) return;
    apart.open(`${row.id}:${kind}`, kind);
    for (let k = 0; k < from.numbers.length; k++) reading.messages(read(from, k)).forEach(keep);
  };
  earlier("compacted", compacted);
  earlier("abandoned-branch", reverted);
  for (const child of stored.subagents) subagentThreads(child, reading, whole, apart, keep);
  const pending: QueuedInput[] = [];
  for (let k = 0; k < queued.numbers.length; k++) {
    const text = typedText(read(queued, k));
    const at = isoTime(index.time(queued.numbers[k]!));
    if (text) pending.push({ text, ...(at ? { timestamp: at } : {}) });
  }
  session.pending = tracker.pending(pending);
  session.meta.models = [...new Set([...threadModels, ...liveModels])];
  const title = row.title && !PLACEHOLDER_TITLE.test(row.title) ? titleLine(row.title) : undefined;
  if (title) session.meta.title = title;
  const last = lastActivity(index);
  session.meta.updatedAt = isoTime(last ?? row.time_updated);
  const posture = sessionPostureWords(row.permission);
  if (posture) session.meta.permissionMode = posture;
  session.drift = reading.drift();
  return { session, threads: apart.threads(), turns };
}

/** A subagent's session as a thread (its messages named by its id), then its own subagents'. */
function subagentThreads<I extends MessageIndex, T extends ThreadStream>(
  stored: SessionTree<I>,
  reading: Reading,
  whole: Whole<I>,
  apart: KeptApart<T>,
  keep: (m: Message) => void,
): void {
  const { row: { id }, messages: index } = stored;
  apart.open(id, "subagent");
  for (let i = 0; i < index.length; i++) reading.messages(whole(index, i, id), id).forEach(keep);
  for (const child of stored.subagents) subagentThreads(child, reading, whole, apart, keep);
}

/** The newest message's creation: the conversation's last activity (a title or a share touches the session row). */
function lastActivity(index: MessageIndex): number | undefined {
  let last: number | undefined;
  for (let i = 0; i < index.length; i++) last = Math.max(last ?? index.time(i), index.time(i));
  return last;
}

/** The words a user message's own text parts hold (not OpenCode's synthetic or ignored ones). */
function typedText(m: StoredMessage): string {
  return m.parts.filter((p) => p.data.type === "text" && !p.data.synthetic && !p.data.ignored)
    .map((p) => optStr(p.data.text) ?? "").filter(Boolean).join("\n");
}

const errorName = (data: Json): string | undefined =>
  isObject(data.error) ? optStr(data.error.name) : undefined;

/** One session's reading: its rows into messages, what was tallied and what was not understood. */
class Reading {
  /** Part types the reader does not know, with how many parts had each. */
  private readonly unknown = new Map<string, number>();

  constructor(private readonly database: string, private readonly session: Session) {}

  /** One stored message as the IR messages it makes (none for an assistant message OpenCode does not send). */
  messages(m: StoredMessage, agentId?: string): Message[] {
    for (const p of m.parts) this.tally(p);
    const base = {
      timestamp: isoTime(m.time_created),
      ...(agentId ? { agentId } : {}),
    };
    return m.data.role === "assistant" ? this.assistant(m, base) : this.user(m, base);
  }

  private user(m: StoredMessage, base: Partial<Message>): Message[] {
    const model = isObject(m.data.model)
      ? qualifiedModel(optStr(m.data.model.providerID), optStr(m.data.model.modelID))
      : undefined;
    const typed: Block[] = [];
    const context: Block[] = [];
    for (const p of m.parts) {
      const d = p.data;
      if (d.type === "text" && typeof d.text === "string" && d.text && !d.ignored) {
        (d.synthetic || startsWithHandshake(d.text) ? context : typed).push({ type: "text", text: d.text });
      } else if (d.type === "file") {
        const block = fileBlock(d);
        if (block) typed.push(block);
      } else if (d.type === "compaction") {
        context.push({ type: "text", text: COMPACTION_PROMPT });
      } else if (d.type === "subtask" || d.type === "agent") {
        typed.push({ type: "raw", harness: HARNESS, kind: d.type, value: d });
      }
    }
    const made = (uid: string, kind: Message["kind"], blocks: Block[]): Message[] =>
      blocks.length
        ? [{ ...clean(base), uid, parentUid: null, role: "user", kind, blocks, ...(model ? { model } : {}) }]
        : [];
    return [...made(`${m.id}:context`, "context", context), ...made(m.id, "turn", typed)];
  }

  private assistant(m: StoredMessage, base: Partial<Message>): Message[] {
    const error = errorName(m.data);
    const made = m.parts.some((p) => p.data.type !== "step-start" && p.data.type !== "reasoning");
    if (error && !(error === ABORTED && made)) {
      notePassthrough(
        this.session.passthrough,
        "assistant-error",
        () => this.origin(m.id, "assistant-error"),
      );
      return [];
    }
    const model = qualifiedModel(optStr(m.data.providerID), optStr(m.data.modelID));
    const blocks: Block[] = [];
    const results: ToolResultBlock[] = [];
    for (const p of m.parts) {
      const d = p.data;
      if (d.type === "text" && typeof d.text === "string") {
        if (d.text) blocks.push({ type: "text", text: d.text });
      } else if (d.type === "reasoning" && typeof d.text === "string") {
        if (d.text.trim()) blocks.push({ type: "reasoning", text: d.text, provider: "other" });
      } else if (d.type === "tool") {
        const call = toolCall(d);
        if (!call) continue;
        blocks.push(call.block);
        if (call.result) results.push(call.result);
      }
    }
    const usage = usageOf(m.data.tokens);
    const assistant: Message = {
      ...clean(base),
      uid: m.id,
      parentUid: optStr(m.data.parentID) ?? null,
      // A compaction's summary stands for the history it replaced, on the user's side as every reader gives it
      // (OpenCode sends it as the model's answer to its own "What did we do so far?").
      role: m.data.summary === true ? "user" : "assistant",
      kind: m.data.summary === true ? "summary" : "turn",
      ...(model ? { model } : {}),
      providerMessageId: m.id,
      blocks,
      ...(usage ? { usage } : {}),
    };
    const out = blocks.length ? [assistant] : [];
    if (results.length) {
      out.push({
        ...clean(base),
        uid: `${m.id}:results`,
        parentUid: m.id,
        role: "tool",
        kind: "turn",
        blocks: results,
      });
    }
    return out;
  }

  private tally(p: StoredPart): void {
    const type = optStr(p.data.type) ?? "(none)";
    if (BOOKKEEPING.has(type)) notePassthrough(this.session.passthrough, type, () => this.origin(p.id, type));
    if (KNOWN_PARTS.has(type)) return;
    this.unknown.set(type, (this.unknown.get(type) ?? 0) + 1);
  }

  private origin(id: string, type: string) {
    return { harness: HARNESS, path: sessionLocator(this.database, id), offset: 0, length: 0, type };
  }

  drift(): DriftEntry[] {
    // Rows are named by ids, not numbers: no examples to give.
    return [...this.unknown].map(([type, count]) => ({
      harness: HARNESS,
      version: this.session.meta.harnessVersion ?? "?",
      where: `part:${type}`,
      problem: "a part type the reader does not know",
      count,
      examples: [],
    }));
  }
}

/** A stored count or cost: a number a hostile row made negative or no number at all counts nothing. */
const count = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);

/** A message's base fields without the ones a record did not have. */
function clean(base: Partial<Message>): Partial<Message> {
  return Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined));
}

/** A tool part's call, and its result once it has one (a call still pending or running has none). */
function toolCall(d: Json): { block: Block; result?: ToolResultBlock } | undefined {
  const id = optStr(d.callID);
  const name = optStr(d.tool);
  const state = isObject(d.state) ? d.state : undefined;
  if (!id || !name || !state) return undefined;
  const block: Block = { type: "tool_call", id, name, input: state.input ?? {} };
  const text = (value: string): ToolResultBlock["content"] => [{ type: "text", text: value }];
  switch (state.status) {
    case "completed": {
      const time = isObject(state.time) ? state.time : {};
      const output = time.compacted ? CLEARED_OUTPUT : typeof state.output === "string" ? state.output : "";
      return { block, result: { type: "tool_result", callId: id, isError: false, content: text(output) } };
    }
    case "error": {
      // A call OpenCode aborted itself keeps what it printed so far, which is what the model is sent.
      const metadata = isObject(state.metadata) ? state.metadata : {};
      const shown = metadata.interrupted === true && typeof metadata.output === "string"
        ? metadata.output
        : optStr(state.error) ?? "";
      return { block, result: { type: "tool_result", callId: id, isError: true, content: text(shown) } };
    }
    default:
      return { block };
  }
}

/** A file part as an image (inline `data:` URL or a link), or kept raw when it is another kind of file. */
function fileBlock(d: Json): Block | undefined {
  const mime = optStr(d.mime);
  const url = optStr(d.url);
  // OpenCode sends neither a text file's part (its content is a synthetic text part beside it) nor a folder's.
  if (mime === "text/plain" || mime === "application/x-directory") return undefined;
  if (mime?.startsWith("image/") && url) {
    const inline = /^data:([^;,]+);base64,/.exec(url);
    return inline
      ? { type: "image", mediaType: inline[1]!, data: url.slice(inline[0].length) }
      : { type: "image", mediaType: mime, url };
  }
  return { type: "raw", harness: HARNESS, kind: "file", value: d };
}

/**
 * An assistant message's tokens (`{input, output, reasoning, cache: {read, write}}`) as IR usage; a step's in
 * `opencode run --format json` are the same (live-events.ts).
 */
export function usageOf(tokens: unknown): Usage | undefined {
  if (!isObject(tokens)) return undefined;
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  return {
    inputTokens: count(tokens.input),
    outputTokens: count(tokens.output),
    cacheReadTokens: count(cache.read),
    cacheWriteTokens: count(cache.write),
  };
}
