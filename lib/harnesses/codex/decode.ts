/**
 * Streams a Codex rollout into the IR. `response_item` lines are what the model saw and become messages (tool
 * calls and their outputs linked by `call_id`); `event_msg` lines are UI mirrors of the same turns and feed only
 * titles and interruption state, never a second copy of a turn. A `compacted` line replaces the live context with
 * its replacement history; what came before it is kept apart as a `compacted` thread.
 */
import type { Block, Message, Origin, Session } from "../../ir/schema.ts";
import type { JsonlLine, JsonlTail } from "../../io/jsonl.ts";
import { InputError } from "../../errors.ts";
import { assertRecordTime } from "../../ir/clock.ts";
import { DriftCollector } from "../../schemas/drift.ts";
import { findPending } from "../../ir/pending.ts";
import { modelsOf } from "../../ir/summary.ts";
import { emptySession } from "../../ir/session.ts";
import {
  blocksFromContent,
  callFromItem,
  isHarnessContext,
  messageText,
  reasoningFromItem,
  resultFromItem,
} from "./items.ts";
import { isObject, type Json, optStr } from "../../io/json.ts";

/** Calls of tools Codex runs locally; their outputs come back as separate items with the same call_id. */
const CALL_ITEMS = new Set(["function_call", "custom_tool_call", "local_shell_call"]);
const OUTPUT_ITEMS = new Set(["function_call_output", "custom_tool_call_output"]);

interface ReadState {
  session: Session;
  drift: DriftCollector;
  version?: string;
  model?: string;
  /** The running assistant response, extended while items keep coming from the model. */
  open?: Message;
  /** The current turn ended aborted or with an error (cleared when a turn completes). */
  turnBroken: boolean;
  /** Where turns were aborted (messages read so far): calls unanswered there were interrupted. */
  aborts: number[];
  /** A turn has started and not ended (complete or aborted) yet. */
  turnRunning: boolean;
  threadName?: string;
  compactions: number;
  /** Message uids taken so far: item ids repeat when Codex replays history after a compaction. */
  uids: Set<string>;
}

/** A rollout's records as the store reads them, with the file they come from (for origins and notices). */
export interface RolloutLines {
  path: string;
  lines: AsyncIterable<JsonlLine>;
  /** Filled in by the reader once `lines` is exhausted: a last line a live writer had not finished. */
  tail: JsonlTail;
}

/**
 * A Codex thread from its rollout's records. Its title is the name the rollout itself records, if any: a name
 * kept only in the store's index, or one taken from the first prompt, is the store's to add (read.ts).
 */
export async function decodeCodex({ path, lines, tail }: RolloutLines): Promise<Session> {
  const state: ReadState = {
    session: emptySession({ harness: "codex", id: "", path, models: [] }),
    drift: new DriftCollector("codex"),
    turnBroken: false,
    aborts: [],
    turnRunning: false,
    compactions: 0,
    uids: new Set(),
  };
  for await (const line of lines) {
    if (!isObject(line.value)) throw new InputError(`${path}:${line.line}: expected a JSON object`);
    const record = line.value;
    const type = optStr(record.type) ?? "";
    if (type === "session_meta" && isObject(record.payload)) {
      state.version ??= optStr(record.payload.cli_version);
    }
    state.drift.check(state.version, type, record, line.line);
    const origin: Origin = {
      harness: "codex",
      path,
      offset: line.offset,
      length: line.length,
      type,
    };
    assertRecordTime(record.timestamp, `${path}:${line.line}`, "timestamp");
    noteTimes(state, optStr(record.timestamp));
    const payload = isObject(record.payload) ? record.payload : {};
    if (type === "session_meta") {
      assertRecordTime(payload.timestamp, `${path}:${line.line}`, "payload.timestamp");
    }
    if (type === "response_item") addItem(state, payload, origin, optStr(record.timestamp), line.line);
    else {
      // UI events and usage records interleave with a response's items without ending it.
      state.session.passthrough.push({ type, origin });
      if (type === "session_meta") noteSessionMeta(state, payload);
      else if (type === "turn_context") noteTurnContext(state, payload);
      else if (type === "event_msg") noteEvent(state, payload);
      else if (type === "compacted") compact(state, payload, origin, optStr(record.timestamp));
    }
  }
  if (tail.truncatedLine) {
    state.session.notices.push(
      `${path}:${tail.truncatedLine}: incomplete last line (a live writer was mid-append); it was skipped`,
    );
  }
  return finish(state);
}

function finish(state: ReadState): Session {
  const session = state.session;
  if (!session.meta.id) {
    throw new InputError(`${session.meta.path}: no session_meta record: not a Codex rollout`);
  }
  session.drift = state.drift.entries();
  session.pending = findPending(session.messages, [], state.aborts);
  if (state.turnBroken) session.pending.interruptedTurn = true;
  if (state.threadName !== undefined) session.meta.title = state.threadName;
  session.meta.models = modelsOf(session.messages);
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

/** Per-turn settings: the model for the turn's messages, the permission posture in Codex's own words
 * ("<approval> <sandbox>", as lib/posture reads them). */
function noteTurnContext(state: ReadState, payload: Json) {
  state.model = optStr(payload.model) ?? state.model;
  const approval = optStr(payload.approval_policy);
  const sandbox = isObject(payload.sandbox_policy) ? optStr(payload.sandbox_policy.type) : undefined;
  if (approval && sandbox) state.session.meta.permissionMode = `${approval} ${sandbox}`;
}

function noteEvent(state: ReadState, payload: Json) {
  switch (payload.type) {
    case "task_started":
      // A turn that never ended (Codex was killed) was cut off by this one: its unanswered calls were
      // interrupted, like those of an aborted turn.
      if (state.turnRunning) state.aborts.push(state.session.messages.length);
      state.turnRunning = true;
      state.turnBroken = false;
      break;
    case "turn_aborted":
      state.turnRunning = false;
      state.turnBroken = true;
      state.aborts.push(state.session.messages.length);
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
  state: ReadState,
  item: Json,
  origin: Origin,
  timestamp: string | undefined,
  lineNo: number,
) {
  const type = optStr(item.type) ?? "";
  const uid = optStr(item.id) ?? `line-${lineNo}`;
  if (type === "message" && item.role !== "assistant") {
    state.open = undefined;
    push(state, userSideMessage(item, uid, origin, timestamp));
    return;
  }
  if (OUTPUT_ITEMS.has(type)) {
    state.open = undefined;
    push(state, {
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
  if (state.open) {
    state.open.blocks.push(...blocks);
    return;
  }
  state.open = {
    ...base(uid, origin, timestamp),
    role: "assistant",
    kind: "turn",
    blocks,
    ...(state.model ? { model: state.model } : {}),
  };
  push(state, state.open);
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

function push(state: ReadState, message: Message) {
  const messages = state.session.messages;
  message.parentUid = messages.at(-1)?.uid ?? null;
  if (state.uids.has(message.uid)) message.uid = `${message.uid}#${state.uids.size}`;
  state.uids.add(message.uid);
  messages.push(message);
}

/**
 * A compaction: the model's context is now the replacement history (context, retained user messages and the
 * summary), so that becomes the live thread; the history it replaced is kept as a `compacted` thread.
 */
function compact(state: ReadState, payload: Json, origin: Origin, timestamp: string | undefined) {
  const session = state.session;
  const n = ++state.compactions;
  if (session.messages.length) {
    session.threads.push({ id: `compacted-${n}`, kind: "compacted", messages: session.messages });
  }
  session.messages = [];
  const summaryText = optStr(payload.message);
  const replacement = Array.isArray(payload.replacement_history)
    ? payload.replacement_history.filter(isObject)
    : [];
  replacement.forEach((item, i) => {
    const uid = `compacted-${n}-${i}`;
    if (item.type === "message" && item.role !== "assistant") {
      const message = userSideMessage(item, uid, origin, timestamp);
      if (summaryText && messageText(item.content) === summaryText) message.kind = "summary";
      push(state, message);
    } else addItem(state, item, origin, timestamp, -i);
  });
  state.open = undefined;
  if (!replacement.length && summaryText) {
    push(state, {
      ...base(`compacted-${n}`, origin, timestamp),
      role: "user",
      kind: "summary",
      blocks: [{ type: "text", text: summaryText }],
    });
  }
}
