/**
 * Renders the IR as a Gemini CLI 0.61.0 session file (JSONL), in the records the binary itself appends for a
 * conversation (tests/gemini-cli-golden.test.ts compares them field by field with the captured fixtures):
 *
 *   metadata   {sessionId, projectHash, startTime, lastUpdated, kind: "main"}
 *   user       {id, timestamp, type: "user", content: [{text}, {inlineData}...]}
 *   gemini     {id, timestamp, type: "gemini", content: "<text>", thoughts, tokens, model, toolCalls?}
 *   $set       {lastUpdated} after every message, as the binary appends it; {summary} for a title
 *
 * A tool call is recorded in its gemini message with its result (one functionResponse part) and status, its id
 * `<name>__<call id>` as the binary records it. The binary also appends the results again as a user message of
 * functionResponse parts; 0.61.0 replays both on resume, so every result reaches the model twice and a strict
 * API refuses the request (google-gemini/gemini-cli#29365; seen in fixtures/gemini-cli/0.61.0/
 * interrupted.requests.jsonl). That message is left out: the result then reaches the model once, from the call
 * record (`convertSessionToClientHistory` makes `<message id>_response` of it). A result whose call is not in
 * the message before it keeps the binary's own form, a user message of functionResponse parts.
 *
 * No `<session_context>` is written (a resumed run records its own) and no `$set.messages` checkpoint (the
 * binary writes one when a run starts or history is rewritten, never for a conversation as it goes), but for a
 * compaction: the binary's compression (0.61.0 `/compress`, fixtures/gemini-cli/0.61.0/compressed.jsonl) is a
 * checkpoint whose list starts with the snapshot and the model's acknowledgement, the records before it left
 * in the file; the resumed run sends the list, the TUI shows it (not the history above it).
 */
import type {
  Block,
  Message,
  ReasoningBlock,
  ToolCallBlock,
  ToolResultBlock,
  Usage,
} from "../../ir/schema.ts";
import type { SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import { handshakeTime, RecordClock } from "../../ir/clock.ts";
import { newUuid, sha256Hex } from "../../ids.ts";
import { INTERRUPTED_RESULT, isHandshake } from "../../handshake/handshake.ts";
import { reasoningAsText } from "../../ir/reasoning.ts";
import { isObject } from "../../io/json.ts";
import { compactionOf } from "../../ir/compacted.ts";
import { toolDisplay } from "./tool-display.ts";
import { COMPRESSION_ACK, idPrefix } from "./parts.ts";
import type {
  GeminiMessageRecord,
  GeminiMetadataRecord,
  GeminiPart,
  GeminiThoughtSummary,
  GeminiTokens,
  GeminiToolCallRecord,
} from "../../generated/gemini-cli/0.61.0.ts";

type Part = GeminiPart;

/** The records as we write them: every field the binary writes for them is there. */
type Thought = Required<Pick<GeminiThoughtSummary, "subject" | "description" | "timestamp">>;

type Tokens = Required<
  Pick<NonNullable<GeminiTokens>, "input" | "output" | "cached" | "thoughts" | "tool" | "total">
>;

interface ToolCallRecord extends GeminiToolCallRecord {
  args: Record<string, unknown>;
  result?: Part[];
  status: "success" | "error" | "cancelled";
  timestamp: string;
  description: string;
  displayName: string;
  renderOutputAsMarkdown: boolean;
}

interface GeminiRecord extends GeminiMessageRecord {
  timestamp: string;
  type: "gemini";
  content: string;
  thoughts: Thought[];
  tokens?: Tokens;
  toolCalls?: ToolCallRecord[];
}

interface InfoRecord extends GeminiMessageRecord {
  timestamp: string;
  type: "info";
  content: string;
}

interface UserRecord extends GeminiMessageRecord {
  timestamp: string;
  type: "user";
  content: Part[];
  displayContent?: Part[];
}

/** What the user sees in place of the handshake when the TUI shows the resumed history (the model reads it all). */
export const HANDSHAKE_DISPLAY = "[session-bridge: notes for the model about this handoff]";

/** Gemini's projectHash: the sha256 of the project's absolute path (`getProjectHash`). */
export const projectHash = (cwd: string): string => sha256Hex(cwd);

/** The session's start as its metadata records it (and as its file is named): the source's start, never later than now. */
export function sessionStart(session: Pick<SessionStream, "meta">, now: Date): string {
  return new RecordClock(now, session.meta.createdAt).next(session.meta.createdAt);
}

/** `model` on gemini messages: the id chosen for the target, else the message's own when Gemini knows it. */
export type GeminiModelFor = (message: Message) => string | undefined;

export async function* encodeGemini(
  session: SessionStream,
  options: RenderOptions,
  modelFor: GeminiModelFor,
): AsyncGenerator<string> {
  const clock = new RecordClock(options.now, session.meta.createdAt);
  // The session starts when its first message is made, which may share the start's time.
  const startTime = sessionStart(session, options.now);
  let last = startTime;
  const metadata: GeminiMetadataRecord = {
    sessionId: options.id,
    projectHash: projectHash(options.cwd),
    startTime,
    lastUpdated: startTime,
    kind: "main",
  };
  yield line(metadata);
  const title = options.title ?? session.meta.title;
  if (title) yield line({ $set: { summary: title } });
  const at = (source?: string) => (last = clock.next(source));
  /** A record, then the `lastUpdated` the binary appends after each. */
  const emit = (record: GeminiRecord | UserRecord | InfoRecord): string[] => [
    line(record),
    line({ $set: { lastUpdated: last } }),
  ];
  // The model turn being gathered: more records of its response may follow, then the results of its calls.
  let held: ModelTurn | undefined;
  // Every call's tool name by call id, for a result that comes after its call's turn was written.
  const names = new Map<string, string>();
  const release = (): string[] => {
    if (!held) return [];
    const turn = held;
    held = undefined;
    if (options.stubOpenCalls) turn.closeOpenCalls(() => at());
    return emit(turn.record);
  };

  // A compacted history is written first, whole, and the summary after it as Gemini's own compression records
  // it: a checkpoint (`$set.messages`) whose list is the summary and the model's acknowledgement, so a
  // resumed run loads and sends the summary and what follows, the history's records still in the file above
  // it. Without one, or without a summary standing for it (compactionOf), a summary is a message as any
  // other (the session is written as it always was).
  const history = (await compactionOf(session))?.history ?? [];
  const compacts = history.length > 0;
  const compression = function* (m: Message): Generator<string> {
    yield* release();
    const snapshot = m.blocks.flatMap((b) => (b.type === "text" && b.text ? [b.text] : [])).join("\n\n");
    const timestamp = at(m.timestamp);
    const listed = (type: "user" | "gemini", said: string) => ({
      id: newUuid(),
      timestamp,
      type,
      content: [{ text: said }],
    });
    yield line({
      $set: {
        messages: [listed("user", snapshot), listed("gemini", COMPRESSION_ACK)],
        lastUpdated: timestamp,
      },
    });
    // The note the TUI records of the compression (an info message of no text), as the binary leaves it.
    yield* emit({ id: newUuid(), timestamp: at(), type: "info", content: "" });
  };
  const write = function* (m: Message): Generator<string> {
    if (compacts && m.kind === "summary") {
      yield* compression(m);
      return;
    }
    if (m.kind === "context" || isHandshake(m)) return;
    const rest = m.blocks.filter((b) => b.type !== "tool_result");
    if (held?.continuedBy(m)) {
      held.add(rest, last);
      return;
    }
    for (const b of rest) if (b.type === "tool_call") names.set(b.id, b.name);
    const orphans = m.blocks.filter((b): b is ToolResultBlock =>
      b.type === "tool_result" && !held?.answer(b, () => at(m.timestamp))
    );
    if (rest.length || orphans.length || held?.answered) yield* release();
    if (orphans.length) {
      const parts = orphans.map((b) => {
        // A result whose call is not at hand (or never was) is answered under the name its call had, if known.
        const name = names.get(b.callId) ?? UNKNOWN_TOOL;
        return responsePart(recordedCallId(name, b.callId), name, b);
      });
      yield* emit(userRecord(parts, at(m.timestamp)));
    }
    if (!rest.length) return;
    if (m.role === "assistant") {
      held = new ModelTurn(m, at(m.timestamp), modelFor(m));
      held.add(rest, last);
      return;
    }
    if (m.role === "system") {
      // A note of the harness's own (Gemini's "Request cancelled."): shown in the TUI, never sent to the model.
      const text = rest.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
      if (text) yield* emit({ id: newUuid(), timestamp: at(m.timestamp), type: "info", content: text });
      return;
    }
    const content = userParts(rest);
    if (content.length) yield* emit(userRecord(content, at(m.timestamp)));
  };
  for (const m of history) yield* write(m);
  for await (const m of session.messages) yield* write(m);
  yield* release();
  if (options.handshake) yield* emit(handshakeRecord(options.handshake, at(handshakeTime(options.now))));
}

/**
 * The handshake as a user message: sent to the model on resume (merged with the next prompt into one user
 * turn), shown as one short line when the TUI shows the resumed history.
 */
function handshakeRecord(text: string, timestamp: string): UserRecord {
  return { ...userRecord([{ text }], timestamp), displayContent: [{ text: HANDSHAKE_DISPLAY }] };
}

/** The handshake's lines after records copied as they were, the newest of them written at `after`. */
export function handshakeLines(text: string, now: Date, after?: string): string[] {
  const clock = new RecordClock(now, after);
  clock.next(after);
  const timestamp = clock.next(handshakeTime(now));
  return [line(handshakeRecord(text, timestamp)), line({ $set: { lastUpdated: timestamp } })];
}

const line = (record: unknown): string => JSON.stringify(record);

function userRecord(content: Part[], timestamp: string): UserRecord {
  return { id: newUuid(), timestamp, type: "user", content };
}

/** What the person said: text and inline images, as the binary records a prompt (a list of parts). */
function userParts(blocks: Block[]): Part[] {
  return blocks.flatMap((b): Part[] => {
    if (b.type === "text") return b.text ? [{ text: b.text }] : [];
    if (b.type === "image") {
      if (b.data) return [{ inlineData: { mimeType: b.mediaType ?? "image/png", data: b.data } }];
      return b.url ? [{ text: `[image: ${b.url}]` }] : [];
    }
    if (b.type === "reasoning") return reasoningText(b);
    return [];
  });
}

const reasoningText = (b: ReasoningBlock): Part[] => {
  const text = reasoningAsText(b);
  return text ? [{ text: text.text }] : [];
};

/**
 * A model turn as one gemini message: the IR messages of one API response (a source that records a response
 * block by block shares its id), its text as one string (as the binary records it), its reasoning as thought
 * summaries (Gemini holds reasoning as text and sends none back, so its descriptor accepts no provider's
 * proof: the pipeline has detached every proof before this), its usage as tokens, and its calls, each
 * answered by the result that follows.
 */
class ModelTurn {
  readonly record: GeminiRecord;
  private readonly calls = new Map<string, ToolCallRecord>();

  constructor(private readonly first: Message, timestamp: string, model: string | undefined) {
    this.record = {
      id: newUuid(),
      timestamp,
      type: "gemini",
      content: "",
      thoughts: [],
      ...(first.usage ? { tokens: tokensOf(first.usage) } : {}),
      ...(model ? { model } : {}),
    };
  }

  /** Another record of the same response, before any of its calls was answered. */
  continuedBy(m: Message): boolean {
    return m.role === "assistant" && !!this.first.providerMessageId &&
      m.providerMessageId === this.first.providerMessageId &&
      ![...this.calls.values()].some((c) => c.result);
  }

  add(blocks: Block[], timestamp: string): void {
    for (const b of blocks) {
      if (b.type === "text" && b.text) {
        // Separate texts of one response stay separate paragraphs in the one string the binary records.
        this.record.content = this.record.content ? `${this.record.content}\n\n${b.text}` : b.text;
      } else if (b.type === "reasoning" && b.text.trim()) {
        this.record.thoughts.push({ ...thoughtOf(b.text), timestamp });
      } else if (b.type === "tool_call") {
        const call = callRecord(b, timestamp);
        this.calls.set(b.id, call);
        (this.record.toolCalls ??= []).push(call);
      }
    }
  }

  /** Records `result` on its call, if it is one of this turn's; `at` gives the time it came. */
  answer(result: ToolResultBlock, at: () => string): boolean {
    const call = this.calls.get(result.callId);
    if (!call) return false;
    Object.assign(call, resultFields(call, result, statusOf(result), at()));
    return true;
  }

  /** Whether the turn made calls and every one has its result. */
  get answered(): boolean {
    return this.calls.size > 0 && [...this.calls.values()].every((c) => c.result);
  }

  /** Calls cut off: recorded as the binary records a cancelled call, with a result saying what happened. */
  closeOpenCalls(at: () => string): void {
    for (const call of this.calls.values()) {
      if (!call.result) {
        Object.assign(call, resultFields(call, errorResult(INTERRUPTED_RESULT), "cancelled", at()));
      }
    }
  }
}

/** A thought summary as the binary splits it: `**Subject**` then the description. */
function thoughtOf(text: string): { subject: string; description: string } {
  const match = /^\*\*([^*\n]+)\*\*\s*/.exec(text);
  return match
    ? { subject: match[1]!, description: text.slice(match[0].length) }
    : { subject: "", description: text };
}

/** Gemini counts prompt tokens with the cached ones among them, and a total over everything. */
function tokensOf(usage: Usage): Tokens {
  const input = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
  return {
    input,
    output: usage.outputTokens,
    cached: usage.cacheReadTokens,
    thoughts: 0,
    tool: 0,
    total: input + usage.outputTokens,
  };
}

/**
 * The id the binary records for a call: the tool's name, two underscores, the API's call id. Always prefixed,
 * even an id that starts with the prefix already (the binary leaves its own such ids alone): on resume it
 * strips the prefix once (`stripToolCallIdPrefixes`), and so does our reader, so the model gets the id back.
 */
export const recordedCallId = (name: string, callId: string): string => `${idPrefix(name)}${callId}`;

function callRecord(call: ToolCallBlock, timestamp: string): ToolCallRecord {
  // Gemini's tools take an object; a freeform call's text travels as its one argument.
  const args = isObject(call.input) ? call.input : { input: call.input };
  return {
    id: recordedCallId(call.name, call.id),
    name: call.name,
    args,
    status: "cancelled",
    timestamp,
    ...toolDisplay(call.name, args),
  };
}

/** What Gemini answers a call the user cancelled with (its `[Operation Cancelled] Reason: ...`). */
const GEMINI_CANCELLED = "[Operation Cancelled]";

/**
 * A call cut off (by the user in Gemini, or closed by the conversion: lib/pipeline/close-calls.ts) is recorded
 * as the binary records a cancelled call.
 */
function statusOf(result: ToolResultBlock): ToolCallRecord["status"] {
  if (!result.isError) return "success";
  const [only] = result.content;
  const cut = result.content.length === 1 && only?.type === "text" &&
    (only.text === INTERRUPTED_RESULT || only.text.startsWith(GEMINI_CANCELLED));
  return cut ? "cancelled" : "error";
}

const errorResult = (text: string): ToolResultBlock => ({
  type: "tool_result",
  callId: "",
  isError: true,
  content: [{ type: "text", text }],
});

/** The result fields of a call record: one functionResponse part, the status, and the text the TUI shows. */
function resultFields(
  call: ToolCallRecord,
  result: ToolResultBlock,
  status: ToolCallRecord["status"],
  timestamp: string,
): Pick<ToolCallRecord, "result" | "status" | "timestamp" | "resultDisplay"> {
  return {
    result: [responsePart(call.id, call.name, result)],
    status,
    timestamp,
    resultDisplay: resultText(result),
  };
}

/** `{functionResponse: {id, name, response: {output}}}`, or `{error}` for a failed call, as Gemini's tools answer. */
function responsePart(id: string, name: string, result: ToolResultBlock): Part {
  const text = resultText(result);
  return { functionResponse: { id, name, response: result.isError ? { error: text } : { output: text } } };
}

function resultText(result: ToolResultBlock): string {
  return result.content.map((p) => (p.type === "text" ? p.text : `[${p.type}]`)).join("\n");
}

/** The name a result is answered under when no call of the session names its tool. */
const UNKNOWN_TOOL = "unknown";
