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

/** One agent's conversation as it is read: the main agent's, or a subagent's (by its agentId). */
interface Conversation {
  messages: Message[];
  /** Positions where a turn was aborted (`abort`): a call unanswered there was interrupted. */
  aborted: number[];
  /** Usage of model calls whose message has not come yet, by apiCallId. */
  usage: Map<string, Usage>;
}

/** What the session-level events say, the latest winning. */
interface SessionFacts {
  id?: string;
  version?: string;
  cwd?: string;
  createdAt?: string;
  permission?: string;
  plan?: boolean;
}

const newConversation = (): Conversation => ({ messages: [], aborted: [], usage: new Map() });

export async function decodeCopilot(log: EventLines): Promise<Session> {
  const facts: SessionFacts = {};
  const main = newConversation();
  const agents = new Map<string, Conversation>();
  const compacted: Thread[] = [];
  const drift = new DriftCollector(HARNESS, VALIDATORS);
  const passthrough: Session["passthrough"] = [];
  const notices: string[] = [];
  let first = true;

  for await (const line of log.lines) {
    const event = line.value;
    const where = `${log.path}:${line.line}`;
    if (!isObject(event) || typeof event.type !== "string") {
      throw new InputError(`${where}: not a GitHub Copilot CLI event (no type)`);
    }
    const type = event.type;
    const data = isObject(event.data) ? event.data : {};
    if (first && type !== "session.start") {
      throw new InputError(`${where}: the first event is ${JSON.stringify(type)}, not session.start`);
    }
    first = false;
    if (type === "session.start") facts.version = optStr(data.copilotVersion) ?? facts.version;
    drift.check(facts.version, type, event, line.line);
    assertRecordTime(event.timestamp, where, "timestamp");
    const origin = { harness: HARNESS, path: log.path, offset: line.offset, length: line.length, type };
    const agentId = optStr(event.agentId);
    const conversation = agentId ? agentOf(agents, agentId) : main;
    const base = {
      uid: optStr(event.id) ?? `${log.path}#${line.line}`,
      parentUid: null,
      origin,
      ...(optStr(event.timestamp) ? { timestamp: event.timestamp as string } : {}),
      ...(agentId ? { agentId } : {}),
    };
    const message = messageOf(type, data, base, conversation);
    if (message) {
      conversation.messages.push(message);
      continue;
    }
    if (!agentId) sessionEvent(type, data, facts, event);
    if (type === "session.compaction_complete" && data.success === true && !agentId) {
      compact(main, data, base, compacted);
    } else if (type === "abort") {
      conversation.aborted.push(conversation.messages.length);
    } else if (type === "session.usage_record") {
      noteUsage(conversation, data);
    }
    notePassthrough(passthrough, type, () => origin);
  }
  if (log.tail.truncatedLine) {
    notices.push(
      `${log.path}:${log.tail.truncatedLine}: incomplete last line (a live writer was mid-append); it was skipped`,
    );
  }
  if (!facts.id) {
    throw new InputError(`${log.path}: no session.start event: not a GitHub Copilot CLI session`);
  }

  const session = emptySession({ harness: HARNESS, id: facts.id, path: log.path, models: [] });
  session.messages = linked(main.messages);
  session.pending = findPending(session.messages, [], main.aborted);
  session.threads = [
    ...compacted,
    ...[...agents].map(([agentId, agent]): Thread => ({
      id: agentId,
      kind: "subagent",
      messages: linked(agent.messages),
    })),
  ];
  session.passthrough = passthrough;
  session.drift = drift.entries();
  session.notices = notices;
  const meta = session.meta;
  meta.models = modelsOf(session.messages);
  if (facts.version) meta.harnessVersion = facts.version;
  if (facts.cwd) meta.cwd = facts.cwd;
  if (facts.createdAt) meta.createdAt = facts.createdAt;
  const mode = facts.plan ? "plan" : facts.permission;
  if (mode) meta.permissionMode = mode;
  const updatedAt = lastMessageTime(session.messages);
  if (updatedAt) meta.updatedAt = updatedAt;
  // Every model call's, the compacted history's and the subagents' too: what the session cost.
  const usage = totalUsage([...session.messages, ...session.threads.flatMap((t) => t.messages)]);
  if (usage) meta.usage = usage;
  return session;
}

function agentOf(agents: Map<string, Conversation>, agentId: string): Conversation {
  let agent = agents.get(agentId);
  if (!agent) agents.set(agentId, agent = newConversation());
  return agent;
}

type Base = Pick<Message, "uid" | "parentUid" | "origin" | "timestamp" | "agentId">;

/** The message an event is, if it is one. */
function messageOf(type: string, data: Json, base: Base, conversation: Conversation): Message | undefined {
  switch (type) {
    case "user.message":
      return userMessage(data, base);
    case "assistant.message":
      return assistantMessage(data, base, conversation);
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

function assistantMessage(data: Json, base: Base, conversation: Conversation): Message | undefined {
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
  const usage = apiCallId ? conversation.usage.get(apiCallId) : undefined;
  if (apiCallId) conversation.usage.delete(apiCallId);
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
function noteUsage(conversation: Conversation, data: Json) {
  const usage = isObject(data.usage) ? data.usage : {};
  const apiCallId = optStr(usage.apiCallId);
  if (!apiCallId) return;
  const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : 0);
  conversation.usage.set(apiCallId, {
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

/**
 * A compaction that succeeded: the model is sent its summary in place of the history before it, save the last
 * messages it kept (`preCompactionMessagesLength` counts the system prompt and every message; the summary
 * replaces `messagesRemoved` of them).
 */
function compact(main: Conversation, data: Json, base: Base, compacted: Thread[]) {
  const before = typeof data.preCompactionMessagesLength === "number" ? data.preCompactionMessagesLength : 0;
  const removed = typeof data.messagesRemoved === "number" ? data.messagesRemoved : 0;
  const kept = Math.max(0, Math.min(main.messages.length, before - removed - 1));
  const history = main.messages.splice(0, main.messages.length - kept);
  compacted.push({ id: `compacted-${compacted.length + 1}`, kind: "compacted", messages: linked(history) });
  const summary = optStr(data.summaryContent);
  main.messages.unshift({
    ...base,
    uid: `${base.uid}_summary`,
    role: "user",
    kind: "summary",
    blocks: summary ? [{ type: "text", text: summary }] : [],
  });
  // Positions before the summary are gone with the history.
  main.aborted = main.aborted.map((at) => Math.max(0, at - history.length + 1));
}

/** Messages in order, each the parent of the next. */
function linked(messages: Message[]): Message[] {
  messages.forEach((m, i) => (m.parentUid = i === 0 ? null : messages[i - 1]!.uid));
  return messages;
}
