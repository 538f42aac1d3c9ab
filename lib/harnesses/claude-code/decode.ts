/**
 * Streams a Claude Code transcript into the IR. The file is a tree, not a list: rewinds and edits leave
 * branches, subagents and compaction leave chains beside the live one. The live thread is the chain that ends at
 * the newest leaf; everything else is kept apart as its own thread so it is reported, never mixed in.
 */
import { basename } from "node:path";
import type { Message, PassthroughRecord, Pending, QueuedInput, Session, Thread } from "../../ir/schema.ts";
import type { JsonlLine, JsonlTail } from "../../io/jsonl.ts";
import { InputError } from "../../errors.ts";
import { assertRecordTime } from "../../ir/clock.ts";
import { DriftCollector } from "../../schemas/drift.ts";
import { VALIDATORS } from "../../generated/validators/claude-code.ts";
import { PendingTracker } from "../../ir/pending.ts";
import { blocksFromContent } from "./content.ts";
import { replayQueue } from "./queue.ts";
import { firstUserTitle } from "../../ir/summary.ts";
import { type SessionHead, type SessionStream, streamedMessages } from "../../ir/stream.ts";
import { emptySession } from "../../ir/session.ts";
import { isObject, type Json, optStr } from "../../io/json.ts";
import { originMeaning } from "./origin.ts";
import { isHandshakeRecord } from "./write.ts";

/** Record types that take part in the uuid/parentUuid tree. */
const TREE_TYPES = new Set(["user", "assistant", "system", "attachment"]);

interface Node {
  uuid: string;
  parentUuid: string | null;
  /** Set on compaction boundaries: the pre-compaction leaf the boundary replaces. */
  logicalParentUuid?: string;
  /** Set on 2.1.x compaction boundaries: messages kept verbatim, replayed right after the summary (`anchor`). */
  preserved?: { head: string; tail: string; anchor: string };
  sidechain: boolean;
  /** A prompt the person typed while the agent was busy, delivered when the turn ended (`promptSource`). */
  queuedPrompt: boolean;
  /** For user and assistant records (and handshakes): what the thread needs of the message but its text. */
  facts?: MessageFacts;
  /**
   * The IR message, when the session is held (and always for a handshake); tree-only records (system,
   * attachment) have none. A streamed session reads it again from its record (`facts`) when it is needed.
   */
  message?: Message;
  order: number;
}

/** What resolving the thread and its pending state needs of a message, kept while its text is not. */
interface MessageFacts {
  /** Where the record is in its transcript. */
  offset: number;
  length: number;
  role: Message["role"];
  kind: Message["kind"];
  providerMessageId?: string;
  model?: string;
  /** The calls it makes, by id and name. */
  calls?: { id: string; name: string }[];
  /** The calls its tool results answer. */
  results?: string[];
  /** The message's parent in the live thread when a queued prompt put back in place moved it. */
  movedTo?: string;
}

interface ReadState {
  session: Session;
  /** Hold every message (read), or only what resolving needs, the text read again later (open). */
  hold: boolean;
  nodes: Map<string, Node>;
  /** One string per model and tool name, not one per record. */
  names: Map<string, string>;
  /** The provider id of the last response read, so the records it is split over share one string. */
  lastResponse?: string;
  order: number;
  queueOps: Json[];
  titles: { custom?: string; ai?: string; summary?: string };
}

/** One transcript's records as the store reads them, with where they come from (for origins and notices). */
export interface TranscriptLines {
  path: string;
  lines: AsyncIterable<JsonlLine>;
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
  const { session, live } = await resolveSession(state, subagents, (n) => n.message!);
  return { ...session, messages: live.map((n) => n.message!) };
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
  let session: SessionHead;
  let live: Node[];
  try {
    ({ session, live } = await resolveSession(
      state,
      subagents,
      (n) => readMessage(n, reader.at, transcript.path),
    ));
  } finally {
    reader.close();
  }
  const path = transcript.path;
  const messages = streamedMessages(async function* () {
    const pass = records.open();
    try {
      for (const n of live) {
        yield readMessage(n, pass.at, path);
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

/** A node's message: held, or decoded again from its record with the place the live thread gives it. */
function readMessage(node: Node, at: RecordAt, path: string): Message {
  if (node.message) return node.message;
  const facts = node.facts!;
  const record = at(facts.offset, facts.length);
  if (!isObject(record)) {
    throw new InputError(`${path}: the record at byte ${facts.offset} changed while it was read`);
  }
  const type = record.type === "assistant" ? "assistant" : "user";
  const origin = { harness: "claude-code" as const, path, offset: facts.offset, length: facts.length, type };
  return { ...toMessage(record, type, origin), parentUid: facts.movedTo ?? node.parentUuid };
}

/**
 * Everything but the live thread's messages, from the indexed transcript: the thread's nodes in order, the
 * threads kept apart, pending state, title and models. `full` gives a node's whole message (held or read).
 */
async function resolveSession(
  state: ReadState & { drift: DriftCollector },
  subagents: TranscriptLines[],
  full: (n: Node) => Message,
): Promise<{ session: SessionHead; live: Node[] }> {
  const session: SessionHead = state.session;
  session.drift = state.drift.entries();
  const resolved = resolveLiveThread(state.nodes, full);
  session.threads.push(...resolved.threads);
  session.threads.push(...(await decodeSubagents(subagents, session)));
  const live = resolved.chain.filter((n) => n.facts);
  const queued: QueuedInput[] = replayQueue(state.queueOps);
  session.pending = livePending(live, queued);
  const last = live.at(-1);
  if (last && endsWithInterruptMarker(full(last))) session.pending.interruptedTurn = true;
  const compacted = session.threads.filter((t) => t.kind === "compacted").flatMap((t) => t.messages);
  session.meta.title = state.titles.custom ?? state.titles.ai ?? state.titles.summary ??
    firstUserTitle(userTurns(compacted, live, full));
  session.meta.models = [...new Set(live.flatMap((n) => (n.facts!.model ? [n.facts!.model] : [])))];
  session.meta.provider = providerOf(session.meta.models);
  return { session, live };
}

/**
 * Compacted history, then the live thread's user turns, read one by one as they are asked for (a title needs
 * the first few).
 */
function* userTurns(compacted: Message[], live: Node[], full: (n: Node) => Message): Generator<Message> {
  yield* compacted;
  for (const n of live) if (n.facts!.role === "user" && n.facts!.kind === "turn") yield full(n);
}

/**
 * The live thread's pending state, none of it read again: PendingTracker looks at nothing of a message but its
 * role, kind, response id and the ids of its calls and results, which the facts keep.
 */
function livePending(live: Node[], queued: QueuedInput[]): Pending {
  const tracker = new PendingTracker();
  for (const n of live) {
    const { role, kind, providerMessageId, calls = [], results = [] } = n.facts!;
    tracker.add({
      uid: n.uuid,
      parentUid: n.parentUuid,
      role,
      kind,
      ...(providerMessageId ? { providerMessageId } : {}),
      blocks: [
        ...calls.map(({ id, name }) => ({ type: "tool_call" as const, id, name, input: undefined })),
        ...results.map((callId) => ({ type: "tool_result" as const, callId, isError: false, content: [] })),
      ],
    });
  }
  return tracker.pending(queued);
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
    session,
    hold,
    nodes: new Map(),
    names: new Map(),
    order: 0,
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
  for await (const line of lines) {
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
  if (tail.truncatedLine) {
    state.session.notices.push(
      `${path}:${tail.truncatedLine}: incomplete last line (a live writer was mid-append); it was skipped`,
    );
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
  if (typeof record.sessionId === "string" && record.sessionId && !state.nodes.size) {
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
  const node: Node = {
    uuid: record.uuid as string,
    // The parent's own uuid string when it is already read: one string per uuid, not two.
    parentUuid: parentOf(state, optStr(record.parentUuid)),
    sidechain: subagent || record.isSidechain === true,
    queuedPrompt: type === "user" && record.promptSource === "queued" &&
      originMeaning(record.origin) !== "harness",
    order: state.order++,
    ...(optStr(record.logicalParentUuid) ? { logicalParentUuid: optStr(record.logicalParentUuid) } : {}),
  };
  const segment = isObject(record.compactMetadata) ? record.compactMetadata.preservedSegment : undefined;
  if (
    isObject(segment) && optStr(segment.headUuid) && optStr(segment.tailUuid) && optStr(segment.anchorUuid)
  ) {
    node.preserved = {
      head: segment.headUuid as string,
      tail: segment.tailUuid as string,
      anchor: segment.anchorUuid as string,
    };
  }
  const message = type === "user" || type === "assistant"
    ? toMessage(record, type, origin)
    : isHandshakeRecord(record)
    ? handshakeMessage(record, origin)
    : undefined;
  if (message) {
    node.facts = factsOf(state, message, origin);
    // A handshake is held even when the thread is streamed: it is small, and read back as a system record.
    if (state.hold || !(type === "user" || type === "assistant")) node.message = message;
  } else state.session.passthrough.push({ type, origin });
  state.nodes.set(node.uuid, node);
}

function parentOf(state: ReadState, uuid: string | undefined): string | null {
  return uuid === undefined ? null : state.nodes.get(uuid)?.uuid ?? uuid;
}

function factsOf(state: ReadState, m: Message, origin: { offset: number; length: number }): MessageFacts {
  const calls = m.blocks.flatMap((
    b,
  ) => (b.type === "tool_call" ? [{ id: b.id, name: intern(state.names, b.name) }] : []));
  const results = m.blocks.flatMap((b) => (b.type === "tool_result" ? [b.callId] : []));
  const model = m.model === undefined ? undefined : intern(state.names, m.model);
  // The records of one response share its id: kept once.
  const providerMessageId = m.providerMessageId === state.lastResponse
    ? state.lastResponse
    : m.providerMessageId;
  if (providerMessageId) state.lastResponse = providerMessageId;
  return {
    offset: origin.offset,
    length: origin.length,
    role: m.role,
    kind: m.kind,
    ...(providerMessageId ? { providerMessageId } : {}),
    ...(model ? { model } : {}),
    ...(calls.length ? { calls } : {}),
    ...(results.length ? { results } : {}),
  };
}

function intern(names: Map<string, string>, name: string): string {
  const known = names.get(name);
  if (known !== undefined) return known;
  names.set(name, name);
  return name;
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
  const kind = record.isCompactSummary === true
    ? "summary"
    : isInjected(record, message)
    ? "context"
    : "turn";
  const usage = isObject(message.usage) ? message.usage : undefined;
  return {
    uid: record.uuid as string,
    parentUid: optStr(record.parentUuid) ?? null,
    role: type,
    kind,
    blocks: blocksFromContent(message.content),
    origin,
    ...(optStr(record.timestamp) ? { timestamp: optStr(record.timestamp) } : {}),
    ...(type === "assistant" && optStr(message.model) && message.model !== SYNTHETIC_MODEL
      ? { model: optStr(message.model) }
      : {}),
    ...(optStr(message.id) ? { providerMessageId: optStr(message.id) } : {}),
    ...(optStr(record.agentId) ? { agentId: optStr(record.agentId) } : {}),
    ...(usage
      ? {
        usage: {
          inputTokens: num(usage.input_tokens),
          outputTokens: num(usage.output_tokens),
          cacheReadTokens: num(usage.cache_read_input_tokens),
          cacheWriteTokens: num(usage.cache_creation_input_tokens),
        },
      }
      : {}),
  };
}

/**
 * User records the harness wrote rather than the person: records whose `origin` is harness-made (task
 * notifications, continuations, peers, ...; see origin.ts), meta messages, system-originated prompts
 * (`promptSource: "system"`), interruption markers and local slash commands. A person's prompt carries
 * `origin: {kind: "human"}` in 2.1.x and stays a turn.
 */
function isInjected(record: Json, message: Json): boolean {
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
  return blocksFromContent(message.content).some((b) =>
    b.type === "text" && (INTERRUPT_MARKER.test(b.text) || LOCAL_COMMAND.test(b.text))
  );
}

const INTERRUPT_MARKER = /^\[Request interrupted by user/;
/** A slash command the user ran in Claude Code itself (`/compact`), and what it printed: not sent as words. */
const LOCAL_COMMAND = /^\s*<(command-name|local-command-stdout|local-command-stderr|local-command-caveat)>/;
const SYNTHETIC_MODEL = "<synthetic>";

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);

function collectSideRecord(
  state: ReadState,
  record: Json,
  type: string,
  origin: PassthroughRecord["origin"],
) {
  if (type === "queue-operation") state.queueOps.push(record);
  if (type === "custom-title" && optStr(record.customTitle)) state.titles.custom = optStr(record.customTitle);
  if (type === "ai-title" && optStr(record.aiTitle)) state.titles.ai = optStr(record.aiTitle);
  if (type === "summary" && optStr(record.summary)) state.titles.summary = optStr(record.summary);
  if (type === "api-request-shape" && isObject(record.shape)) noteRequestShape(state.session, record.shape);
  state.session.passthrough.push({ type, origin });
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

/**
 * The live thread is the parent chain of the newest main-thread leaf. Compaction boundaries cut the chain
 * (their parent is null and `logicalParentUuid` points at what they replaced), so history before a boundary
 * is kept as a `compacted` thread, except the messages 2.1.x preserves verbatim, which are replayed right after
 * the summary; every other leaf's private stretch is an abandoned branch.
 */
export function resolveLiveThread(
  nodes: Map<string, Node>,
  full: (n: Node) => Message,
): { chain: Node[]; threads: Thread[] } {
  const messagesOf = (list: Node[]): Message[] => list.flatMap((n) => (n.facts ? [full(n)] : []));
  const main = [...nodes.values()].filter((n) => !n.sidechain);
  const hasChild = new Set<string>();
  const replaced = new Set<string>();
  for (const n of main) {
    if (n.parentUuid) hasChild.add(n.parentUuid);
    if (n.logicalParentUuid) replaced.add(n.logicalParentUuid);
  }
  // A leaf may be a record without a message (a trailing attachment): it still ends its chain. What a
  // compaction replaced has no child either, but it is history, not a leaf.
  const leaves = main.filter((n) => !hasChild.has(n.uuid) && !replaced.has(n.uuid)).sort((a, b) =>
    a.order - b.order
  );
  const liveLeaf = leaves.at(-1);
  const claimed = new Set<string>();
  let chain = walkUp(nodes, liveLeaf?.uuid, claimed);

  for (const boundary of chain.filter((n) => n.preserved)) {
    const { head, tail, anchor } = boundary.preserved!;
    const kept = walkUp(nodes, tail, claimed, head);
    const at = chain.findIndex((n) => n.uuid === anchor);
    if (at !== -1) chain = [...chain.slice(0, at + 1), ...kept, ...chain.slice(at + 1)];
  }

  chain = withQueuedPrompts(chain, leaves, claimed);

  const threads: Thread[] = [];
  const compacted = chain
    .filter((n) => n.logicalParentUuid)
    .flatMap((boundary) =>
      walkUp(nodes, firstUnclaimedAncestor(nodes, boundary.logicalParentUuid, claimed), claimed)
    );
  if (compacted.length) threads.push({ id: "compacted", kind: "compacted", messages: messagesOf(compacted) });

  for (const leaf of leaves) {
    if (leaf === liveLeaf) continue;
    const branch = messagesOf(walkUp(nodes, leaf.uuid, claimed));
    if (branch.length) {
      threads.push({ id: `branch-${leaf.uuid}`, kind: "abandoned-branch", messages: branch });
    }
  }
  const side = [...nodes.values()].filter((n) => n.sidechain && !claimed.has(n.uuid)).sort((a, b) =>
    a.order - b.order
  );
  if (side.length) threads.push({ id: "sidechain", kind: "sidechain", messages: messagesOf(side) });
  return { chain, threads };
}

/**
 * A prompt typed while a tool ran is recorded as a child of the running call's tool_use, beside the chain
 * that goes on with the call's cancelled result and the interruption marker: a leaf of its own, though the
 * model got it right after that result (Claude Code's own resume loses it). Such a queued prompt is put back
 * where the model read it: after the user records that follow its parent, before the next answer, and the
 * messages' `parentUid`s are changed to that order.
 */
function withQueuedPrompts(chain: Node[], leaves: Node[], claimed: Set<string>): Node[] {
  const out = [...chain];
  for (const leaf of leaves) {
    if (!leaf.queuedPrompt || claimed.has(leaf.uuid)) continue;
    const parentAt = out.findIndex((n) => n.uuid === leaf.parentUuid);
    if (parentAt === -1) continue;
    let at = parentAt + 1;
    while (at < out.length && out[at]!.facts?.role !== "assistant") at++;
    // The messages say where they now stand, so a Claude Code copy links them that way (see write.ts).
    reparent(leaf, out[at - 1]!.uuid);
    if (out[at]) reparent(out[at]!, leaf.uuid);
    out.splice(at, 0, leaf);
    claimed.add(leaf.uuid);
  }
  return out;
}

/** A message's parent in the live thread, as its facts and (when held) the message say. */
function reparent(node: Node, parentUid: string) {
  if (node.facts) node.facts.movedTo = parentUid;
  if (node.message) node.message.parentUid = parentUid;
}

/** What a boundary replaced, above the messages it preserved (those already belong to the live thread). */
function firstUnclaimedAncestor(
  nodes: Map<string, Node>,
  uuid: string | undefined,
  claimed: Set<string>,
): string | undefined {
  let n = uuid ? nodes.get(uuid) : undefined;
  while (n && claimed.has(n.uuid)) n = n.parentUuid ? nodes.get(n.parentUuid) : undefined;
  return n?.uuid;
}

/**
 * Nodes from `uuid` up its parent chain, oldest first: up to (not including) the first one already claimed by
 * another thread, or up to and including `last`. Each node is claimed, so no message lands in two threads.
 */
function walkUp(
  nodes: Map<string, Node>,
  uuid: string | undefined,
  claimed: Set<string>,
  last?: string,
): Node[] {
  const out: Node[] = [];
  for (
    let n = uuid ? nodes.get(uuid) : undefined;
    n && !claimed.has(n.uuid);
    n = n.uuid === last ? undefined : n.parentUuid ? nodes.get(n.parentUuid) : undefined
  ) {
    claimed.add(n.uuid);
    out.push(n);
  }
  return out.reverse();
}

/** Subagent transcripts (`<session-id>/subagents/agent-*.jsonl`, read by the store), as threads of their own. */
async function decodeSubagents(subagents: TranscriptLines[], session: SessionHead): Promise<Thread[]> {
  const threads: Thread[] = [];
  for (const transcript of subagents) {
    const state = newState(transcript.path, true);
    await decodeInto(state, transcript, true);
    const messages = [...state.nodes.values()].sort((a, b) => a.order - b.order);
    threads.push({
      id: basename(transcript.path, ".jsonl"),
      kind: "subagent",
      messages: messages.flatMap((n) => (n.message ? [n.message] : [])),
    });
    session.drift.push(...state.drift.entries());
    session.notices.push(...state.session.notices);
  }
  return threads;
}
