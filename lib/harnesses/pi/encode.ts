/**
 * Renders the IR as a Pi 0.73.1 session file (JSONL), in the entries the binary itself writes for a
 * conversation (tests/pi-golden.test.ts compares them field by field with the captured fixtures):
 *
 *   session                {type, version: 3, id, timestamp, cwd}: the header, in no tree
 *   model_change           {provider, modelId}: the model the session starts on, as Pi records it first
 *   thinking_level_change  {thinkingLevel}: the level it starts at, as Pi records it second
 *   session_info           {name}: a title (Pi's /name), when the session has one
 *   message                {message: user | assistant | toolResult}: one model call is one assistant message
 *                          (its reasoning, text and calls together), each call's result a toolResult of its own
 *   compaction             {summary, firstKeptEntryId}: a summary the thread starts from (compacted history)
 *   custom_message         {customType, content, display: false}: the handshake, sent to the model as the user's,
 *                          never shown in the TUI (an extension's message, as Pi keeps one)
 *   model_change           last, when the model the handoff continues on is not the last response's: Pi resumes
 *                          on the last model_change or assistant message of the live branch (buildSessionContext)
 *
 * Every entry is a child of the one before it (the live thread only: Pi's leaf is the file's last entry), its
 * id 8 hex digits as Pi makes them. Pi accepts any id string (its index is a map; checked on the binary with
 * ids such as `u1` and whole UUIDs), so ours are counted up from a random start: unique in the file without
 * a set of every id written.
 *
 * Each assistant message names the provider and model that made it (the IR message's own, else the model
 * the handoff continues on): Pi sends another model's thinking as plain text and its own as reasoning
 * (transform-messages.js), so a response of the model the session continues on replays its reasoning as
 * that model's, and any other's reaches the model as text. Reasoning travels without a proof (the descriptor
 * accepts none); for `openai-completions`, where Pi records the field the reasoning came in instead of a
 * signature, it names `reasoning_content`, as Pi does for reasoning read from that field, so that it is sent
 * back rather than left out.
 */
import type {
  Block,
  Message,
  ToolCallBlock,
  ToolResultBlock,
  ToolResultPart,
  Usage,
} from "../../ir/schema.ts";
import type { SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import { handshakeTime, RecordClock } from "../../ir/clock.ts";
import { INTERRUPTED_RESULT, isHandshake } from "../../handshake/handshake.ts";
import { isObject } from "../../io/json.ts";
import { providerQualified } from "../models.ts";
import { compactionOf } from "../../ir/compacted.ts";
import type {
  PiAssistantMessage,
  PiImageContent,
  PiTextContent,
  PiThinkingContent,
  PiThinkingLevelChangeEntry,
  PiToolCall,
  PiToolResultMessage,
  PiUserMessage,
} from "../../generated/pi/0.73.1.ts";

/** A model as Pi names it: its provider, its id, and the wire API its provider speaks. */
export interface PiModelRef {
  provider: string;
  modelId: string;
  api: string;
}

export type ThinkingLevel = PiThinkingLevelChangeEntry["thinkingLevel"];

/** What the store decides for the rendering: the model the session continues on and where it starts. */
export interface EncodeSettings {
  /** The model the handoff continues on; absent, Pi picks one at resume (its settings' default, else any). */
  model?: PiModelRef;
  /** The API Pi's providers speak, by provider id, for responses of another model than `model`. */
  apiOf: (provider: string) => string | undefined;
  thinkingLevel: ThinkingLevel;
  /** The first entry id, as 8 hex digits (random when absent). */
  firstEntryId?: string;
}

/** The level Pi starts a session at when its settings name none (`DEFAULT_THINKING_LEVEL`, 0.73.1). */
export const DEFAULT_THINKING_LEVEL: ThinkingLevel = "medium";

/** The `customType` of the handshake's entry. */
export const HANDSHAKE_TYPE = "session-bridge-handoff";

/** The session's start as its header records it (and its file is named): the source's start, never later than now. */
export function sessionStart(session: Pick<SessionStream, "meta">, now: Date): string {
  return new RecordClock(now, session.meta.createdAt).next(session.meta.createdAt);
}

/** A `provider/model` id as Pi's provider and model, when it names a provider (or a family that has one). */
export function piModelRef(
  model: string,
  apiOf: (provider: string) => string | undefined,
): PiModelRef | undefined {
  const qualified = providerQualified(model);
  if (!qualified) return undefined;
  const slash = qualified.indexOf("/");
  const provider = qualified.slice(0, slash);
  return { provider, modelId: qualified.slice(slash + 1), api: apiOf(provider) ?? UNKNOWN_API };
}

/** What an assistant message names as its API when no provider of that name is known to Pi. */
const UNKNOWN_API = "unknown";

type Entry = Record<string, unknown> & { type: string };

export async function* encodePi(
  session: SessionStream,
  options: RenderOptions,
  settings: EncodeSettings,
): AsyncGenerator<string> {
  const clock = new RecordClock(options.now, session.meta.createdAt);
  const ids = new EntryIds(settings.firstEntryId);
  let parentId: string | null = null;
  let last = sessionStart(session, options.now);
  const at = (source?: string) => (last = clock.next(source));
  const entry = (fields: Entry, timestamp = at()): string => {
    const id = ids.next();
    const line = JSON.stringify({ type: fields.type, id, parentId, timestamp, ...withoutType(fields) });
    parentId = id;
    return line;
  };
  yield JSON.stringify({ type: "session", version: 3, id: options.id, timestamp: last, cwd: options.cwd });
  const target = settings.model;
  if (target) yield entry({ type: "model_change", provider: target.provider, modelId: target.modelId });
  yield entry({ type: "thinking_level_change", thinkingLevel: settings.thinkingLevel });
  const title = options.title ?? session.meta.title;
  if (title) yield entry({ type: "session_info", name: title });

  /** The model each response names: its own when Pi can name it, else the one the session continues on. */
  const identity = (m: Message): PiModelRef | undefined => {
    const own = m.model ? piModelRef(m.model, settings.apiOf) : undefined;
    if (target && sameModel(own, target)) return target;
    return own ?? target;
  };
  let lastIdentity: PiModelRef | undefined;
  let held: Response | undefined;
  const names = new Map<string, string>();
  const release = function* (): Generator<string> {
    if (!held) return;
    const response = held;
    held = undefined;
    yield entry({ type: "message", message: response.message }, response.timestamp);
    lastIdentity = response.identity;
  };
  /** Calls still open when the conversation moves on: answered as interrupted (a same-harness copy only). */
  const open = new Map<string, string>();
  const closeOpen = function* (): Generator<string> {
    if (!options.stubOpenCalls) return;
    for (const [callId, name] of open) {
      const result: ToolResultBlock = {
        type: "tool_result",
        callId,
        isError: true,
        content: [{ type: "text", text: INTERRUPTED_RESULT }],
      };
      const timestamp = at();
      yield entry({ type: "message", message: toolResult(result, name, Date.parse(timestamp)) }, timestamp);
    }
    open.clear();
  };
  let started = false;
  // A compacted source keeps its history on disk, on the branch before Pi's own compaction entry.
  const compaction = await compactionOf(session);
  let first = true;

  const render = function* (m: Message): Generator<string> {
    if (m.kind === "context" || isHandshake(m)) return;
    // Pi's summaries are the user's words (a compaction is sent as a user message); a summary a harness keeps as
    // the model's own (OpenCode's compaction answer) stays the model's, a response like any other.
    if (m.kind === "summary" && m.role === "user") {
      const text = textOf(m.blocks);
      if (!text) return;
      yield* release();
      yield* closeOpen();
      if (!started) {
        // Pi sends the summary, then what follows it; the history it summarizes is before it, or not written.
        const timestamp = at(m.timestamp);
        const firstKeptEntryId = ids.peekAfterNext();
        yield entry(
          { type: "compaction", summary: text, firstKeptEntryId, tokensBefore: 0, fromHook: false },
          timestamp,
        );
      } else {
        const timestamp = at(m.timestamp);
        yield entry({
          type: "message",
          message: userMessage([{ type: "text", text }], Date.parse(timestamp)),
        }, timestamp);
      }
      return;
    }
    started = true;
    if (m.role === "assistant") {
      const rest = m.blocks.filter((b) => b.type !== "tool_result");
      if (!held?.continuedBy(m)) {
        yield* release();
        yield* closeOpen();
        const timestamp = at(m.timestamp);
        held = new Response(m, identity(m), Date.parse(timestamp), timestamp);
      }
      held.add(rest);
      for (const b of rest) {
        if (b.type !== "tool_call") continue;
        names.set(b.id, b.name);
        open.set(b.id, b.name);
      }
      return;
    }
    if (m.role === "system") return;
    const results = m.blocks.filter((b): b is ToolResultBlock => b.type === "tool_result");
    const words = userContent(m.blocks);
    if (results.length || words.length) yield* release();
    for (const r of results) {
      const timestamp = at(m.timestamp);
      open.delete(r.callId);
      const name = names.get(r.callId) ?? UNKNOWN_TOOL;
      yield entry({ type: "message", message: toolResult(r, name, Date.parse(timestamp)) }, timestamp);
    }
    if (!words.length) return;
    yield* closeOpen();
    const timestamp = at(m.timestamp);
    yield entry({ type: "message", message: userMessage(words, Date.parse(timestamp)) }, timestamp);
  };

  for await (const m of session.messages) {
    if (compaction && first) {
      for (const h of compaction.history) yield* render(h);
      yield* release();
      yield* closeOpen();
      started = false;
    }
    first = false;
    yield* render(m);
  }
  yield* release();
  yield* closeOpen();
  if (options.handshake) {
    yield entry({
      type: "custom_message",
      customType: HANDSHAKE_TYPE,
      content: [{ type: "text", text: options.handshake }],
      display: false,
    }, at(handshakeTime(options.now)));
  }
  if (target && !sameModel(lastIdentity, target)) {
    yield entry({ type: "model_change", provider: target.provider, modelId: target.modelId });
  }
}

const sameModel = (a: PiModelRef | undefined, b: PiModelRef): boolean =>
  a?.provider === b.provider && a.modelId === b.modelId;

const withoutType = ({ type: _type, ...rest }: Entry): Record<string, unknown> => rest;

/**
 * Entry ids: 8 hex digits, as Pi makes them, counted up from a random start (wrapping at 2^32), so no two
 * entries of a file share one.
 */
class EntryIds {
  private value: number;

  constructor(first?: string) {
    this.value = first ? Number.parseInt(first, 16) : Number.parseInt(crypto.randomUUID().slice(0, 8), 16);
  }

  next(): string {
    const id = hex8(this.value);
    this.value = (this.value + 1) >>> 0;
    return id;
  }

  /** The id the entry after the next one will get. */
  peekAfterNext(): string {
    return hex8((this.value + 1) >>> 0);
  }
}

const hex8 = (n: number): string => n.toString(16).padStart(8, "0");

/** One model call: the IR messages of one response (a source that records it block by block shares its id). */
class Response {
  readonly message: PiAssistantMessage;

  constructor(
    private readonly first: Message,
    readonly identity: PiModelRef | undefined,
    ms: number,
    readonly timestamp: string,
  ) {
    this.message = {
      role: "assistant",
      content: [],
      api: identity?.api ?? UNKNOWN_API,
      provider: identity?.provider ?? UNKNOWN_PROVIDER,
      model: identity?.modelId ?? UNKNOWN_PROVIDER,
      usage: usageOf(first.usage),
      stopReason: "stop",
      timestamp: ms,
      ...(first.providerMessageId ? { responseId: first.providerMessageId } : {}),
    };
  }

  /** Another record of the same response. */
  continuedBy(m: Message): boolean {
    return !!this.first.providerMessageId && m.providerMessageId === this.first.providerMessageId;
  }

  add(blocks: Block[]): void {
    for (const b of blocks) {
      const part = this.part(b);
      if (part) this.message.content.push(part);
      if (b.type === "tool_call") this.message.stopReason = "toolUse";
    }
  }

  private part(b: Block): PiTextContent | PiThinkingContent | PiToolCall | undefined {
    switch (b.type) {
      case "text":
        return b.text ? { type: "text", text: b.text } : undefined;
      case "reasoning":
        if (!b.text.trim()) return undefined;
        return {
          type: "thinking",
          thinking: b.text,
          ...(this.message.api === "openai-completions" ? { thinkingSignature: "reasoning_content" } : {}),
        };
      case "tool_call":
        return toolCall(b);
      default:
        return undefined;
    }
  }
}

/** What an assistant message names as its provider and model when nothing says which made it. */
const UNKNOWN_PROVIDER = "unknown";

/** Pi's tools take an object; a freeform call's text travels as its one argument. */
function toolCall(call: ToolCallBlock): PiToolCall {
  return {
    type: "toolCall",
    id: call.id,
    name: call.name,
    arguments: isObject(call.input) ? call.input : { input: call.input },
  };
}

/** Pi's usage: `input` without the cached part, as the IR counts it; no cost is known. */
function usageOf(usage: Usage | undefined): PiAssistantMessage["usage"] {
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  const cacheRead = usage?.cacheReadTokens ?? 0;
  const cacheWrite = usage?.cacheWriteTokens ?? 0;
  return {
    input,
    output,
    cacheRead,
    cacheWrite,
    totalTokens: input + output + cacheRead + cacheWrite,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

function userMessage(content: (PiTextContent | PiImageContent)[], ms: number): PiUserMessage {
  return { role: "user", content, timestamp: ms };
}

/** What the person said: text and inline images, as Pi records a prompt (a list of parts). */
function userContent(blocks: Block[]): (PiTextContent | PiImageContent)[] {
  return blocks.flatMap((b): (PiTextContent | PiImageContent)[] => {
    if (b.type === "text") return b.text ? [{ type: "text", text: b.text }] : [];
    if (b.type === "image") return imagePart(b.data, b.mediaType, b.url);
    return [];
  });
}

function imagePart(data?: string, mediaType?: string, url?: string): (PiTextContent | PiImageContent)[] {
  if (data) return [{ type: "image", data, mimeType: mediaType ?? "image/png" }];
  return url ? [{ type: "text", text: `[image: ${url}]` }] : [];
}

function toolResult(result: ToolResultBlock, toolName: string, ms: number): PiToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: result.callId,
    toolName,
    content: result.content.flatMap(resultPart),
    isError: result.isError,
    timestamp: ms,
  };
}

function resultPart(p: ToolResultPart): (PiTextContent | PiImageContent)[] {
  if (p.type === "text") return [{ type: "text", text: p.text }];
  if (p.type === "image") return imagePart(p.data, p.mediaType, p.url);
  return [{ type: "text", text: JSON.stringify(p.value) ?? "" }];
}

const textOf = (blocks: Block[]): string =>
  blocks.flatMap((b) => (b.type === "text" && b.text ? [b.text] : [])).join("\n\n");

/** The name a result is answered under when no call of the session names its tool. */
const UNKNOWN_TOOL = "unknown";
