/**
 * A Copilot CLI session into the IR, pure: the lines of its events.jsonl in, a session out. The live thread is
 * what `copilot --resume=<id>` sends the model (1.0.102, seen against the fake server in the captures):
 *
 *   messages    `user.message` (what the user typed: `content`; `transformedContent` adds Copilot's own
 *               `<current_datetime>` block), `assistant.message` (its `reasoningText`, `content` and
 *               `toolRequests`), `tool.execution_complete` (one result each, `result.content` or the error's
 *               message when it failed), each a message of its own, as each is one message of the request
 *   usage       `session.usage_record` comes before the message of the model call it counts (same apiCallId)
 *   compaction  a `session.compaction_complete` that succeeded replaces what came before with its summary: the
 *               history is a compacted thread, the summary opens the live one
 *   subagents   events marked by `agentId` are a subagent's, in the same file: one thread per agent
 *   resume      `session.resume` appends to the same file; a call left open (killed mid-tool) gets Copilot's
 *               own failed `tool.execution_complete` then. A file that ends with a call unanswered reads as an
 *               open, interrupted call, as Copilot treats it on resume.
 *
 * Everything else (turn marks, usage records, model changes, shutdowns, warnings, the compaction's own model
 * call) is tallied as passthrough; drift checks every event against the schema of the version that wrote it.
 */
import type { Block, Message, Session, Thread, Usage } from "../../ir/schema.ts";
import type { JsonlLine, JsonlTail } from "../../io/jsonl.ts";
import { InputError } from "../../errors.ts";
import { assertRecordTime } from "../../ir/clock.ts";
import { DriftCollector } from "../../schemas/drift.ts";
import { VALIDATORS } from "../../generated/validators/copilot-cli.ts";
import { findPending } from "../../ir/pending.ts";
import { emptySession, notePassthrough } from "../../ir/session.ts";
import { lastMessageTime, modelsOf, totalUsage } from "../../ir/summary.ts";
import { startsWithHandshake } from "../../handshake/handshake.ts";
import { isObject, type Json, optStr } from "../../io/json.ts";

const HARNESS = "copilot-cli";

/** A session's events file as the store reads it. */
export interface EventLines {
  path: string;
  lines: AsyncIterable<JsonlLine>;
  /** Filled in once `lines` is exhausted: a last line a live writer had not finished. */
  tail: JsonlTail;
}

/** Usage of model calls whose message has not come yet, by apiCallId: one conversation's. */
export type PendingUsage = Map<string, Usage>;

/** What the session-level events say, the latest winning. */
interface SessionFacts {
  id?: string;
  version?: string;
  cwd?: string;
  createdAt?: string;
  permission?: string;
  plan?: boolean;
}

/** What decoding carries from event to event, the same whichever pass reads them (held, indexed or streamed). */
export interface Decoder {
  path: string;
  facts: SessionFacts;
  /** Only the pass that makes the session's head checks drift. */
  drift?: DriftCollector;
  passthrough: Session["passthrough"];
  /** The main agent's pending usage. */
  usage: PendingUsage;
  agentUsage: Map<string, PendingUsage>;
  /** No event read yet: the next must be session.start. */
  first: boolean;
}

/** Where decoded events go: the part that differs between holding, indexing and streaming. */
export interface Sink {
  /** An event of the subagent `agentId` (its thread exists from its first event on). */
  agent(agentId: string): void;
  /** A message of the main agent's conversation. */
  message(m: Message): void;
  agentMessage(agentId: string, m: Message): void;
  /**
   * A compaction that succeeded: `summary` replaces every message before it but the last `kept` ones (at most:
   * `preCompactionMessagesLength` counts the system prompt and every message; the summary replaces
   * `messagesRemoved` of them).
   */
  compacted(summary: Message, kept: number, line: JsonlLine): void;
  /** The main agent's turn was aborted: a call unanswered there was interrupted. */
  aborted(): void;
}

/**
 * The decoder of the pass that makes the session's head (from the first event, checking drift), or, given the
 * main agent's usage pending where it starts, of a pass reading the events again.
 */
export function newDecoder(path: string, again?: PendingUsage): Decoder {
  return {
    path,
    facts: {},
    ...(again ? {} : { drift: new DriftCollector(HARNESS, VALIDATORS) }),
    passthrough: [],
    usage: new Map(again),
    agentUsage: new Map(),
    first: !again,
  };
}

/** Decodes one event into `sink`. */
export function decodeEvent(dec: Decoder, line: JsonlLine, sink: Sink) {
  const event = line.value;
  const where = `${dec.path}:${line.line}`;
  if (!isObject(event) || typeof event.type !== "string") {
    throw new InputError(`${where}: not a GitHub Copilot CLI event (no type)`);
  }
  const type = event.type;
  const data = isObject(event.data) ? event.data : {};
  if (dec.first && type !== "session.start") {
    throw new InputError(`${where}: the first event is ${JSON.stringify(type)}, not session.start`);
  }
  dec.first = false;
  const facts = dec.facts;
  if (type === "session.start") facts.version = optStr(data.copilotVersion) ?? facts.version;
  dec.drift?.check(facts.version, type, event, line.line);
  assertRecordTime(event.timestamp, where, "timestamp");
  const origin = { harness: HARNESS, path: dec.path, offset: line.offset, length: line.length, type };
  const agentId = optStr(event.agentId);
  if (agentId) sink.agent(agentId);
  const usage = agentId ? usageOf(dec, agentId) : dec.usage;
  const base = {
    uid: optStr(event.id) ?? `${dec.path}#${line.line}`,
    parentUid: null,
    origin,
    ...(optStr(event.timestamp) ? { timestamp: event.timestamp as string } : {}),
    ...(agentId ? { agentId } : {}),
  };
  const message = messageOf(type, data, base, usage);
  if (message) {
    if (agentId) sink.agentMessage(agentId, message);
    else sink.message(message);
    return;
  }
  if (!agentId) sessionEvent(type, data, facts, event);
  if (type === "session.compaction_complete" && data.success === true && !agentId) {
    sink.compacted(summaryOf(data, base), keptBy(data), line);
  } else if (type === "abort") {
    if (!agentId) sink.aborted();
  } else if (type === "session.usage_record") {
    noteUsage(usage, data);
  }
  notePassthrough(dec.passthrough, type, () => origin);
}

/** One agent's conversation as the held read keeps it: the main agent's, or a subagent's. */
interface Conversation {
  messages: Message[];
  /** Positions where a turn was aborted (`abort`): a call unanswered there was interrupted. */
  aborted: number[];
}

const newConversation = (): Conversation => ({ messages: [], aborted: [] });

/** The session with every message held. */
export async function decodeCopilot(log: EventLines): Promise<Session> {
  const dec = newDecoder(log.path);
  const main = newConversation();
  const agents = new Map<string, Conversation>();
  const compacted: Thread[] = [];
  const sink: Sink = {
    agent: (agentId) => agentOf(agents, agentId),
    message: (m) => main.messages.push(m),
    agentMessage: (agentId, m) => agentOf(agents, agentId).messages.push(m),
    compacted: (summary, kept) => compact(main, summary, kept, compacted),
    aborted: () => main.aborted.push(main.messages.length),
  };
  for await (const line of log.lines) decodeEvent(dec, line, sink);
  const session = headOf(dec, log.tail);
  session.messages = linked(main.messages);
  session.threads = [
    ...compacted,
    ...[...agents].map(([agentId, agent]): Thread => ({
      id: agentId,
      kind: "subagent",
      messages: linked(agent.messages),
    })),
  ];
  return withLiveFacts(session, {
    pending: findPending(session.messages, [], main.aborted),
    models: modelsOf(session.messages),
    updatedAt: lastMessageTime(session.messages),
    // Every model call's, the compacted history's and the subagents' too: what the session cost.
    usage: totalUsage([...session.messages, ...session.threads.flatMap((t) => t.messages)]),
  });
}

/** The session the events' facts make, without its messages and threads. */
export function headOf(dec: Decoder, tail: JsonlTail): Session {
  const facts = dec.facts;
  if (!facts.id) {
    throw new InputError(`${dec.path}: no session.start event: not a GitHub Copilot CLI session`);
  }
  const session = emptySession({ harness: HARNESS, id: facts.id, path: dec.path, models: [] });
  session.passthrough = dec.passthrough;
  session.drift = dec.drift?.entries() ?? [];
  if (tail.truncatedLine) {
    session.notices.push(
      `${dec.path}:${tail.truncatedLine}: incomplete last line (a live writer was mid-append); it was skipped`,
    );
  }
  const meta = session.meta;
  if (facts.version) meta.harnessVersion = facts.version;
  if (facts.cwd) meta.cwd = facts.cwd;
  if (facts.createdAt) meta.createdAt = facts.createdAt;
  const mode = facts.plan ? "plan" : facts.permission;
  if (mode) meta.permissionMode = mode;
  return session;
}

/** What the head says of the live thread (and of every thread's usage). */
export interface LiveFacts {
  pending: Session["pending"];
  models: string[];
  updatedAt: string | undefined;
  usage: Usage | undefined;
}

export function withLiveFacts<S extends Pick<Session, "meta" | "pending">>(session: S, live: LiveFacts): S {
  session.pending = live.pending;
  const meta = session.meta;
  meta.models = live.models;
  if (live.updatedAt) meta.updatedAt = live.updatedAt;
  if (live.usage) meta.usage = live.usage;
  return session;
}

function agentOf(agents: Map<string, Conversation>, agentId: string): Conversation {
  let agent = agents.get(agentId);
  if (!agent) agents.set(agentId, agent = newConversation());
  return agent;
}

type Base = Pick<Message, "uid" | "parentUid" | "origin" | "timestamp" | "agentId">;

function usageOf(dec: Decoder, agentId: string): PendingUsage {
  let usage = dec.agentUsage.get(agentId);
  if (!usage) dec.agentUsage.set(agentId, usage = new Map());
  return usage;
}

/** The message an event is, if it is one. */
function messageOf(type: string, data: Json, base: Base, usage: PendingUsage): Message | undefined {
  switch (type) {
    case "user.message":
      return userMessage(data, base);
    case "assistant.message":
      return assistantMessage(data, base, usage);
    case "tool.execution_complete":
      return toolResult(data, base);
    default:
      return undefined;
  }
}

function userMessage(data: Json, base: Base): Message | undefined {
  // A handshake session-bridge wrote is what the model got (`transformedContent`); `content` is only the line
  // the timeline shows of it. Copilot's own transformed prompts start with its datetime block, never with one.
  const transformed = optStr(data.transformedContent);
  const text = transformed && startsWithHandshake(transformed)
    ? transformed
    : typeof data.content === "string"
    ? data.content
    : "";
  const blocks: Block[] = text ? [{ type: "text", text }] : [];
  const attachments = Array.isArray(data.attachments) ? data.attachments : [];
  // Files, folders, selections and references the user attached: Copilot's own, kept whole.
  for (const value of attachments) blocks.push({ type: "raw", harness: HARNESS, kind: "attachment", value });
  if (!blocks.length) return undefined;
  // An earlier hop's handshake is context, never the user's words.
  const kind = startsWithHandshake(text) ? "context" : "turn";
  return { ...base, role: "user", kind, blocks };
}

function assistantMessage(data: Json, base: Base, pendingUsage: PendingUsage): Message | undefined {
  const blocks: Block[] = [];
  const reasoning = optStr(data.reasoningText);
  const opaque = optStr(data.reasoningOpaque) ?? optStr(data.encryptedContent);
  // Its proof is bound to the session and provider that made it, which the events do not name: `other`.
  if (reasoning || opaque) {
    blocks.push({
      type: "reasoning",
      text: reasoning ?? "",
      provider: "other",
      ...(opaque ? { encrypted: opaque } : {}),
    });
  }
  const text = optStr(data.content);
  if (text) blocks.push({ type: "text", text });
  for (const request of Array.isArray(data.toolRequests) ? data.toolRequests : []) {
    if (!isObject(request)) continue;
    const id = optStr(request.toolCallId);
    const name = optStr(request.name);
    if (id && name) blocks.push({ type: "tool_call", id, name, input: request.arguments ?? {} });
  }
  const apiCallId = optStr(data.apiCallId);
  const usage = apiCallId ? pendingUsage.get(apiCallId) : undefined;
  if (apiCallId) pendingUsage.delete(apiCallId);
  if (!blocks.length) return undefined;
  const model = optStr(data.model);
  // A model call's reply may be recorded in chunks (chunkIndex), one apiCallId for all.
  const providerMessageId = apiCallId ?? optStr(data.messageId);
  return {
    ...base,
    role: "assistant",
    kind: "turn",
    blocks,
    ...(model ? { model } : {}),
    ...(providerMessageId ? { providerMessageId } : {}),
    ...(usage ? { usage } : {}),
  };
}

/** A call's result as the model receives it: its content, or the error's message when it failed. */
function toolResult(data: Json, base: Base): Message | undefined {
  const callId = optStr(data.toolCallId);
  if (!callId) return undefined;
  const result = isObject(data.result) ? data.result : {};
  const error = isObject(data.error) ? data.error : {};
  const failed = data.success !== true;
  const text = (failed ? optStr(error.message) : undefined) ??
    (typeof result.content === "string" ? result.content : "");
  return {
    ...base,
    role: "tool",
    kind: "turn",
    blocks: [{ type: "tool_result", callId, isError: failed, content: text ? [{ type: "text", text }] : [] }],
  };
}

/** The model call's usage, kept for its message. */
function noteUsage(pending: PendingUsage, data: Json) {
  const usage = isObject(data.usage) ? data.usage : {};
  const apiCallId = optStr(usage.apiCallId);
  if (!apiCallId) return;
  const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
  pending.set(apiCallId, {
    inputTokens: count(usage.inputTokens),
    outputTokens: count(usage.outputTokens),
    cacheReadTokens: count(usage.cacheReadTokens),
    cacheWriteTokens: count(usage.cacheWriteTokens),
  });
}

/**
 * Session-level facts: where it runs, its permission and session modes. (Its title changes and rewinds are
 * ephemeral events, never written to the file: the name is workspace.yaml's, a rewind leaves the file without
 * the events it took back.)
 */
function sessionEvent(type: string, data: Json, facts: SessionFacts, event: Json) {
  const context = isObject(data.context) ? data.context : {};
  switch (type) {
    case "session.start":
      facts.id = optStr(data.sessionId);
      facts.createdAt = optStr(data.startTime) ?? optStr(event.timestamp);
      facts.cwd = optStr(context.cwd) ?? facts.cwd;
      break;
    case "session.resume":
      facts.cwd = optStr(context.cwd) ?? facts.cwd;
      break;
    case "session.context_changed":
      facts.cwd = optStr(data.cwd) ?? facts.cwd;
      break;
    case "session.permissions_changed":
      facts.permission = optStr(data.mode) ?? facts.permission;
      break;
    case "session.mode_changed":
      facts.plan = data.newMode === "plan";
      break;
  }
}

/** How many of the messages before it a compaction keeps, at most. */
function keptBy(data: Json): number {
  const before = typeof data.preCompactionMessagesLength === "number" ? data.preCompactionMessagesLength : 0;
  const removed = typeof data.messagesRemoved === "number" ? data.messagesRemoved : 0;
  return Math.max(0, before - removed - 1);
}

/** A compaction's summary: what the model is sent in place of the history before it. */
function summaryOf(data: Json, base: Base): Message {
  const summary = optStr(data.summaryContent);
  return {
    ...base,
    uid: `${base.uid}_summary`,
    role: "user",
    kind: "summary",
    blocks: summary ? [{ type: "text", text: summary }] : [],
  };
}

/** A compaction, held: the history before it is a compacted thread, the summary opens the live one. */
function compact(main: Conversation, summary: Message, kept: number, compacted: Thread[]) {
  const history = main.messages.splice(0, main.messages.length - Math.min(main.messages.length, kept));
  compacted.push({ id: `compacted-${compacted.length + 1}`, kind: "compacted", messages: linked(history) });
  main.messages.unshift(summary);
  // Positions before the summary are gone with the history.
  main.aborted = main.aborted.map((at) => Math.max(0, at - history.length + 1));
}

/** Messages in order, each the parent of the next. */
export function linked(messages: Message[]): Message[] {
  messages.forEach((m, i) => (m.parentUid = i === 0 ? null : messages[i - 1]!.uid));
  return messages;
}
