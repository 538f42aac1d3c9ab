/**
 * Streams a Claude Code transcript into the IR. The file is a tree, not a list: rewinds and edits leave
 * branches, subagents and compaction leave chains beside the live one. The live thread is the chain that ends at
 * the newest leaf; everything else is kept apart as its own thread so it is reported, never mixed in.
 */
import { basename } from "node:path";
import type { Block, Message, Origin, Pending, QueuedInput, Session, Thread } from "../../ir/schema.ts";
import type { JsonlLine, JsonlTail } from "../../io/jsonl.ts";
import { InputError } from "../../errors.ts";
import { assertRecordTime } from "../../ir/clock.ts";
import { DriftCollector } from "../../schemas/drift.ts";
import { VALIDATORS } from "../../generated/validators/claude-code.ts";
import { PendingTracker } from "../../ir/pending.ts";
import { blocksFromContent } from "./content.ts";
import { replayQueue } from "./queue.ts";
import { firstUserTitle } from "../../ir/summary.ts";
import { type HeldSessionHead, type SessionStream, streamedMessages } from "../../ir/stream.ts";
import { emptySession, notePassthrough } from "../../ir/session.ts";
import { isObject, type Json, optStr } from "../../io/json.ts";
import { originMeaning } from "./origin.ts";
import { isHandshakeRecord } from "./write.ts";
import { type MessageFacts, RecordTree, type TreeRecord } from "./tree.ts";
import { resolveLiveThread } from "./live-thread.ts";

/** Record types that take part in the uuid/parentUuid tree. */
const TREE_TYPES = new Set(["user", "assistant", "system", "attachment"]);

interface ReadState {
  /** The transcript's, for origins and errors. */
  path: string;
  session: Session;
  /** Hold every message (read), or only what resolving needs, the text read again later (open). */
  hold: boolean;
  tree: RecordTree;
  /**
   * By record: the IR messages held, every one when the session is held (and always a handshake's); a
   * streamed session reads a message again from its record (its place in the tree) when it is needed.
   */
  held: Map<number, Message>;
  queueOps: Json[];
  titles: { custom?: string; ai?: string; summary?: string };
}

/** One transcript's records as the store reads them, with where they come from (for origins and notices). */
export interface TranscriptLines {
  path: string;
  /** A chunk of the file's lines at a time (readJsonlBatches). */
  lines: AsyncIterable<JsonlLine[]>;
  /** Filled in by the reader once `lines` is exhausted: a last line a live writer had not finished. */
  tail: JsonlTail;
}

/**
 * A Claude Code session from its transcript's records and those of its subagent transcripts (in order), which
 * the store reads: nothing here touches a file. Every message is held.
 */
export async function decodeClaude(
  transcript: TranscriptLines,
  subagents: TranscriptLines[],
): Promise<Session> {
  const state = newState(transcript.path, true);
  await decodeInto(state, transcript, false);
  const full = (r: number) => placed(state.tree, r, state.held.get(r)!);
  const { session, live } = await resolveSession(state, subagents, full);
  return { ...session, messages: live.map(full) };
}

/**
 * Where a streamed transcript's records are read again, by the store: `open` gives a reader of records by
 * their place, closed when the pass that opened it ends.
 */
export interface TranscriptRecords {
  open(): {
    at: RecordAt;
    /** Something to await now and then during a pass (the store visits the event loop there), or nothing. */
    pause(): Promise<void> | undefined;
    close(): void;
  };
}

/**
 * The session with its live thread streamed: the transcript is read once to index it (each record's place and
 * what resolving the thread needs, not its text), and the live thread's records are read again, in order, each
 * time the thread is iterated. Threads kept apart (branches, sidechains, subagents) are held: they are read
 * again now, by their places.
 */
export async function decodeClaudeStreamed(
  transcript: TranscriptLines,
  subagents: TranscriptLines[],
  records: TranscriptRecords,
): Promise<SessionStream> {
  const state = newState(transcript.path, false);
  await decodeInto(state, transcript, false);
  const reader = records.open();
  let session: HeldSessionHead;
  let live: number[];
  try {
    ({ session, live } = await resolveSession(state, subagents, (r) => readMessage(state, r, reader.at)));
  } finally {
    reader.close();
  }
  const messages = streamedMessages(async function* () {
    const pass = records.open();
    try {
      for (const r of live) {
        yield readMessage(state, r, pass.at);
        const pausing = pass.pause();
        if (pausing) await pausing;
      }
    } finally {
      pass.close();
    }
  });
  return { ...session, messages };
}

/** A transcript's record at its place, read again. */
type RecordAt = (offset: number, length: number) => unknown;

/** Record `r`'s message: held, or decoded again from the record, with the place the live thread gives it. */
function readMessage(state: ReadState, r: number, at: RecordAt): Message {
  const { tree } = state;
  const held = state.held.get(r);
  if (held) return placed(tree, r, held);
  const [offset, length] = [tree.offset(r), tree.length(r)];
  const { path } = state;
  const record = at(offset, length);
  if (!isObject(record)) {
    throw new InputError(`${path}: the record at byte ${offset} changed while it was read`);
  }
  const type = record.type === "assistant" ? "assistant" : "user";
  const origin = { harness: "claude-code" as const, path, offset, length, type };
  return placed(tree, r, toMessage(record, type, origin));
}

/** The message of record `r` with the parent the live thread gives it (a queued prompt put back moves it). */
function placed(tree: RecordTree, r: number, m: Message): Message {
  const moved = tree.movedTo(r);
  if (moved !== -1) m.parentUid = tree.uuidText(moved);
  return m;
}

/**
 * Everything but the live thread's messages, from the indexed transcript: the thread's records in order, the
 * threads kept apart, pending state, title and models. `full` gives a record's whole message (held or read).
 */
async function resolveSession(
  state: ReadState & { drift: DriftCollector },
  subagents: TranscriptLines[],
  full: (r: number) => Message,
): Promise<{ session: HeldSessionHead; live: number[] }> {
  const { tree } = state;
  const session: HeldSessionHead = state.session;
  session.drift = state.drift.entries();
  const resolved = resolveLiveThread(tree, full);
  session.threads.push(...resolved.threads);
  session.threads.push(...(await decodeSubagents(subagents, session)));
  const live = resolved.chain.filter((r) => tree.hasFacts(r));
  const queued: QueuedInput[] = replayQueue(state.queueOps);
  // A held session's messages are at hand: pending state reads them, not a message made again from the tree.
  session.pending = livePending(live, queued, state.hold ? full : (r) => pendingFacts(tree, r));
  const last = live.at(-1);
  if (last !== undefined && endsWithInterruptMarker(full(last))) session.pending.interruptedTurn = true;
  const compacted = session.threads.filter((t) => t.kind === "compacted").flatMap((t) => t.messages);
  session.meta.title = state.titles.custom ?? state.titles.ai ?? state.titles.summary ??
    firstUserTitle(userTurns(tree, compacted, live, full));
  session.meta.models = modelsOf(tree, live);
  session.meta.provider = providerOf(session.meta.models);
  return { session, live };
}

/**
 * Compacted history, then the live thread's user turns, read one by one as they are asked for (a title needs
 * the first few).
 */
function* userTurns(
  tree: RecordTree,
  compacted: Message[],
  live: number[],
  full: (r: number) => Message,
): Generator<Message> {
  yield* compacted;
  for (const r of live) if (tree.role(r) === "user" && tree.kind(r) === "turn") yield full(r);
}

/** The live thread's pending state, from each of its records' message as `message` gives it. */
function livePending(live: number[], queued: QueuedInput[], message: (r: number) => Message): Pending {
  const tracker = new PendingTracker();
  for (const r of live) tracker.add(message(r));
  return tracker.pending(queued);
}

/**
 * What PendingTracker needs of record `r`'s message, none of it read again: it looks at nothing of a message but
 * its role, kind, response id and the ids of its calls and results, which the tree keeps, and its uid for the
 * calls it makes (so a uid is spelled out for those records alone, not for each of hundreds of thousands).
 */
function pendingFacts(tree: RecordTree, r: number): Message {
  const calls = tree.calls(r);
  // Blocks pushed one by one and the id set only when there is one: no spread copies, for every record.
  const blocks: Block[] = [];
  for (const { id, name } of calls) blocks.push({ type: "tool_call", id, name, input: undefined });
  for (const callId of tree.results(r)) {
    blocks.push({ type: "tool_result", callId, isError: false, content: [] });
  }
  const m: Message = {
    uid: calls.length ? tree.uuidText(tree.uuidOf(r)) : "",
    parentUid: null,
    role: tree.role(r)!,
    kind: tree.kind(r)!,
    blocks,
  };
  const providerMessageId = tree.providerMessageId(r);
  if (providerMessageId) m.providerMessageId = providerMessageId;
  return m;
}

/** The models of the live thread's records, each once, in the order first met (no list made per record). */
function modelsOf(tree: RecordTree, live: number[]): string[] {
  const models = new Set<string>();
  for (const r of live) {
    const model = tree.model(r);
    if (model !== undefined) models.add(model);
  }
  return [...models];
}

/**
 * Claude Code records no provider: it calls Anthropic's API unless set up for Bedrock or Vertex, which shows in
 * the model ids those need (`us.anthropic.claude-…-v1:0` or an `arn:aws:bedrock:` ARN; `claude-…@20250929`).
 * Named as the GenAI semantic conventions name them (`gen_ai.system`).
 */
function providerOf(models: readonly string[]): string {
  if (models.some((m) => /^(?:arn:aws:bedrock:|(?:[a-z]{2,4}\.)?anthropic\.)/.test(m))) return "aws.bedrock";
  if (models.some((m) => m.includes("@"))) return "gcp.vertex_ai";
  return "anthropic";
}

function newState(path: string, hold: boolean): ReadState & { drift: DriftCollector } {
  const session = emptySession({ harness: "claude-code", id: basename(path, ".jsonl"), path, models: [] });
  return {
    path,
    session,
    hold,
    tree: new RecordTree(),
    held: new Map(),
    queueOps: [],
    titles: {},
    drift: new DriftCollector("claude-code", VALIDATORS),
  };
}

async function decodeInto(
  state: ReadState & { drift: DriftCollector },
  { path, lines, tail }: TranscriptLines,
  subagent: boolean,
) {
  for await (const batch of lines) {
    for (const line of batch) decodeLine(state, path, line, subagent);
  }
  if (tail.truncatedLine) {
    state.session.notices.push(
      `${path}:${tail.truncatedLine}: incomplete last line (a live writer was mid-append); it was skipped`,
    );
  }
}

/** One record of the transcript at `path` into the state. */
function decodeLine(
  state: ReadState & { drift: DriftCollector },
  path: string,
  line: JsonlLine,
  subagent: boolean,
) {
  if (!isObject(line.value)) {
    throw new InputError(`${path}:${line.line}: expected a JSON object`);
  }
  const record = line.value;
  const type = typeof record.type === "string" ? record.type : "";
  state.drift.check(optStr(record.version), type, record, line.line);
  assertRecordTime(record.timestamp, `${path}:${line.line}`, "timestamp");
  const origin = {
    harness: "claude-code" as const,
    path,
    offset: line.offset,
    length: line.length,
    type,
  };
  if (!subagent) noteMeta(state, record);
  if (TREE_TYPES.has(type) && typeof record.uuid === "string") {
    addNode(state, record, type, origin, subagent);
  } else {
    collectSideRecord(state, record, type, origin);
  }
}

function noteMeta(state: ReadState, record: Json) {
  const meta = state.session.meta;
  const ts = optStr(record.timestamp);
  if (ts) {
    if (!meta.createdAt || ts < meta.createdAt) meta.createdAt = ts;
    if (!meta.updatedAt || ts > meta.updatedAt) meta.updatedAt = ts;
  }
  meta.cwd ??= optStr(record.cwd);
  meta.gitBranch ??= optStr(record.gitBranch);
  if (optStr(record.version)) meta.harnessVersion = optStr(record.version);
  if (typeof record.sessionId === "string" && record.sessionId && !state.tree.size) {
    meta.id = record.sessionId;
  }
  // The newest mode wins: 2.1.328 stamps it on each prompt, older versions wrote permission-mode records.
  const mode = record.type === "permission-mode" || record.type === "user"
    ? optStr(record.permissionMode)
    : undefined;
  if (mode) meta.permissionMode = mode;
}

function addNode(
  state: ReadState,
  record: Json,
  type: string,
  origin: Message["origin"] & object,
  subagent: boolean,
) {
  const segment = isObject(record.compactMetadata) ? record.compactMetadata.preservedSegment : undefined;
  const preserved = isObject(segment) && optStr(segment.headUuid) && optStr(segment.tailUuid) &&
      optStr(segment.anchorUuid)
    ? {
      head: segment.headUuid as string,
      tail: segment.tailUuid as string,
      anchor: segment.anchorUuid as string,
    }
    : undefined;
  const message = type === "user" || type === "assistant"
    ? toMessage(record, type, origin)
    : isHandshakeRecord(record)
    ? handshakeMessage(record, origin)
    : undefined;
  // Fields set one by one, not spread from conditional objects: this runs for every record, and each spread
  // made and copied an object of its own.
  const node: TreeRecord = {
    uuid: record.uuid as string,
    parentUuid: optStr(record.parentUuid),
    sidechain: subagent || record.isSidechain === true,
    queuedPrompt: type === "user" && record.promptSource === "queued" &&
      originMeaning(record.origin) !== "harness",
  };
  const logicalParentUuid = optStr(record.logicalParentUuid);
  if (logicalParentUuid) node.logicalParentUuid = logicalParentUuid;
  if (preserved) node.preserved = preserved;
  if (message) node.facts = factsOf(message, origin);
  const r = state.tree.add(node);
  if (!message) notePassthrough(state.session.passthrough, type, () => origin);
  // A handshake is held even when the thread is streamed: it is small, and read back as a system record.
  else if (state.hold || !(type === "user" || type === "assistant")) state.held.set(r, message);
}

function factsOf(m: Message, origin: { offset: number; length: number }): MessageFacts {
  const facts: MessageFacts = {
    offset: origin.offset,
    length: origin.length,
    role: m.role,
    kind: m.kind,
    blocks: m.blocks,
  };
  if (m.providerMessageId) facts.providerMessageId = m.providerMessageId;
  if (m.model) facts.model = m.model;
  return facts;
}

/** An earlier hop's handshake written as a `system` record (see write.ts): context, so the next hop replaces it. */
function handshakeMessage(record: Json, origin: Message["origin"] & object): Message {
  return {
    uid: record.uuid as string,
    parentUid: optStr(record.parentUuid) ?? null,
    role: "user",
    kind: "context",
    blocks: [{ type: "text", text: typeof record.content === "string" ? record.content : "" }],
    origin,
    ...(optStr(record.timestamp) ? { timestamp: optStr(record.timestamp) } : {}),
  };
}

function toMessage(record: Json, type: "user" | "assistant", origin: Message["origin"] & object): Message {
  const message = isObject(record.message) ? record.message : {};
  const blocks = blocksFromContent(message.content);
  const kind = record.isCompactSummary === true
    ? "summary"
    : isInjected(record, message, blocks)
    ? "context"
    : "turn";
  // Fields set one by one, in the order they always had, each only when present: this runs for every record,
  // and each spread of a conditional object made an object of its own.
  const m: Message = {
    uid: record.uuid as string,
    parentUid: optStr(record.parentUuid) ?? null,
    role: type,
    kind,
    blocks,
    origin,
  };
  const timestamp = optStr(record.timestamp);
  if (timestamp) m.timestamp = timestamp;
  const model = optStr(message.model);
  if (type === "assistant" && model && model !== SYNTHETIC_MODEL) m.model = model;
  const providerMessageId = optStr(message.id);
  if (providerMessageId) m.providerMessageId = providerMessageId;
  const agentId = optStr(record.agentId);
  if (agentId) m.agentId = agentId;
  if (isObject(message.usage)) {
    const usage = message.usage;
    m.usage = {
      inputTokens: num(usage.input_tokens),
      outputTokens: num(usage.output_tokens),
      cacheReadTokens: num(usage.cache_read_input_tokens),
      cacheWriteTokens: num(usage.cache_creation_input_tokens),
    };
  }
  return m;
}

/**
 * User records the harness wrote rather than the person: records whose `origin` is harness-made (task
 * notifications, continuations, peers, ...; see origin.ts), meta messages, system-originated prompts
 * (`promptSource: "system"`), interruption markers and local slash commands. A person's prompt carries
 * `origin: {kind: "human"}` in 2.1.x and stays a turn. `blocks` is the message's content, read once by the caller.
 */
function isInjected(record: Json, message: Json, blocks: Block[]): boolean {
  const meaning = originMeaning(record.origin);
  if (meaning === "harness") return true;
  // A person's words recorded as meta (a voice call's transcript) are still the person's. 2.1.332 also marks
  // rows the harness made (interruption markers, caveats, notices) with `rowSource: "harness"`.
  if (
    meaning !== "person" &&
    (record.isMeta === true || record.promptSource === "system" || record.rowSource === "harness")
  ) return true;
  // 1.0.x fills a turn it never sent with a synthetic assistant message.
  if (record.type === "assistant") return message.model === SYNTHETIC_MODEL;
  return blocks.some(isHarnessNote);
}

/** An interruption marker or a local command's text (a predicate of its own: no function made per record). */
const isHarnessNote = (b: Block) =>
  b.type === "text" && (INTERRUPT_MARKER.test(b.text) || LOCAL_COMMAND.test(b.text));

const INTERRUPT_MARKER = /^\[Request interrupted by user/;
/** A slash command the user ran in Claude Code itself (`/compact`), and what it printed: not sent as words. */
const LOCAL_COMMAND = /^\s*<(command-name|local-command-stdout|local-command-stderr|local-command-caveat)>/;
const SYNTHETIC_MODEL = "<synthetic>";

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);

function collectSideRecord(
  state: ReadState,
  record: Json,
  type: string,
  origin: Origin,
) {
  if (type === "queue-operation") state.queueOps.push(record);
  if (type === "custom-title" && optStr(record.customTitle)) state.titles.custom = optStr(record.customTitle);
  if (type === "ai-title" && optStr(record.aiTitle)) state.titles.ai = optStr(record.aiTitle);
  if (type === "summary" && optStr(record.summary)) state.titles.summary = optStr(record.summary);
  if (type === "api-request-shape" && isObject(record.shape)) noteRequestShape(state.session, record.shape);
  notePassthrough(state.session.passthrough, type, () => origin);
}

function endsWithInterruptMarker(last: Message): boolean {
  return last.blocks.some((b) => b.type === "text" && INTERRUPT_MARKER.test(b.text));
}

/**
 * 2.1.328 records the shape of each API request: the system prompt and the tool catalog the model saw. The
 * newest one is what the session runs with now.
 */
function noteRequestShape(session: Session, shape: Json) {
  if (Array.isArray(shape.system)) {
    const text = shape.system.flatMap((b) => (isObject(b) && typeof b.text === "string" ? [b.text] : []))
      .join("\n\n");
    if (text) session.meta.systemInstructions = text;
  }
  if (Array.isArray(shape.tools)) {
    session.tools = shape.tools.filter(isObject).filter((t) => typeof t.name === "string").map((t) => ({
      name: t.name as string,
      ...(typeof t.description === "string" ? { description: t.description } : {}),
      ...(t.input_schema !== undefined ? { inputSchema: t.input_schema } : {}),
    }));
  }
}

/** Subagent transcripts (`<session-id>/subagents/agent-*.jsonl`, read by the store), as threads of their own. */
async function decodeSubagents(subagents: TranscriptLines[], session: HeldSessionHead): Promise<Thread[]> {
  const threads: Thread[] = [];
  for (const transcript of subagents) {
    const state = newState(transcript.path, true);
    await decodeInto(state, transcript, true);
    const { tree, held } = state;
    const messages: Message[] = [];
    for (let r = 0; r < tree.size; r++) if (tree.isNode(r) && held.has(r)) messages.push(held.get(r)!);
    threads.push({ id: basename(transcript.path, ".jsonl"), kind: "subagent", messages });
    session.drift.push(...state.drift.entries());
    session.notices.push(...state.session.notices);
  }
  return threads;
}
