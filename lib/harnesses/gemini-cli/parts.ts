/**
 * Gemini CLI's message records as IR blocks. Content is a @google/genai PartListUnion (a string, a part, or a
 * list of them): text, thought summaries (`thought: true`, in a checkpoint), function calls and responses,
 * inline data; a gemini record also keeps its thoughts (`{subject, description}`) and finished tool calls
 * (`toolCalls`, each with its result) beside its content. Pure.
 */
import type {
  Block,
  ReasoningBlock,
  ToolCallBlock,
  ToolResultBlock,
  ToolResultPart,
  Usage,
} from "../../ir/schema.ts";
import { isObject, type Json, optStr } from "../../io/json.ts";

const HARNESS = "gemini-cli";

/** The parts of a content value, whatever form it takes. */
export function partsOf(content: unknown): unknown[] {
  if (content === undefined || content === null) return [];
  return Array.isArray(content) ? content : [content];
}

/** The CLI's own first user message of every run, and hook output: harness context, not the user's words. */
export const CONTEXT_START = /^\s*<(?:session_context|hook_context)>/;

/**
 * The user message a compression (`/compress`, or the automatic one) writes first in its checkpoint: the
 * summary the model made of the history it replaces (the CLI's compression prompt asks for a <state_snapshot>).
 */
export const SNAPSHOT_START = /^\s*<state_snapshot>/;

/** The model's answer a compression puts after its snapshot (0.61.0's ChatCompressionService). */
export const COMPRESSION_ACK = "Got it. Thanks for the additional context!";

/** A part's text (a bare string is a text part). */
export const partText = (part: unknown): string | undefined =>
  typeof part === "string" ? part : isObject(part) && typeof part.text === "string" ? part.text : undefined;

/** The text of a content value's text parts, joined as the CLI joins them for titles. */
export function contentText(content: unknown): string {
  return partsOf(content).map((p) => (isObject(p) && p.thought === true ? "" : partText(p) ?? "")).join("");
}

/** A thought summary as the CLI replays it (`**subject** description`, convertSessionToClientHistory). */
function thoughtText(thought: Json): string {
  const description = optStr(thought.description) ?? "";
  const subject = optStr(thought.subject);
  return subject ? `**${subject}** ${description}` : description;
}

const reasoning = (text: string): ReasoningBlock => ({ type: "reasoning", text, provider: "google" });

/** A gemini record's thoughts, as reasoning blocks (summaries: no proof comes with them). */
export function thoughtBlocks(record: Json): ReasoningBlock[] {
  const thoughts = Array.isArray(record.thoughts) ? record.thoughts.filter(isObject) : [];
  return thoughts.map(thoughtText).filter((t) => t.trim()).map(reasoning);
}

/** One content part as a block: undefined for an empty text, or a function response (the caller's). */
export function partBlock(part: unknown): Block | undefined {
  const text = partText(part);
  if (text !== undefined) {
    if (!text) return undefined;
    return isObject(part) && part.thought === true ? reasoning(text) : { type: "text", text };
  }
  if (!isObject(part)) return { type: "raw", harness: HARNESS, kind: "part", value: part };
  if (isObject(part.functionCall)) return callBlock(part.functionCall);
  if (isObject(part.inlineData)) {
    const mediaType = optStr(part.inlineData.mimeType);
    const data = optStr(part.inlineData.data);
    return { type: "image", ...(mediaType ? { mediaType } : {}), ...(data ? { data } : {}) };
  }
  return { type: "raw", harness: HARNESS, kind: Object.keys(part)[0] ?? "part", value: part };
}

/** The name a recorded call id is prefixed with: the tool's, trimmed (`generic_tool` when it has none). */
export const idPrefix = (name: string | undefined): string => `${name?.trim() || "generic_tool"}__`;

/**
 * The API's call id from the id the CLI records (`<name>__<API id>`), as the CLI itself strips it before it
 * sends the history to the model (`stripToolCallIdPrefixes`): the prefix once, when it is there.
 */
export function apiCallId(recorded: string, name: string | undefined): string {
  const prefix = idPrefix(name);
  return recorded.startsWith(prefix) ? recorded.slice(prefix.length) : recorded;
}

/** A function call (in content, or a `toolCalls` entry: both carry id, name, args), with its API id. */
export function callBlock(call: Json): ToolCallBlock {
  const name = optStr(call.name) ?? "";
  return {
    type: "tool_call",
    id: apiCallId(optStr(call.id) ?? "", name),
    name,
    input: isObject(call.args) ? call.args : {},
  };
}

/** The function response a part holds, if it is one. */
export const functionResponse = (part: unknown): Json | undefined =>
  isObject(part) && isObject(part.functionResponse) ? part.functionResponse : undefined;

/**
 * A function response as a result: its `output` (or `error`, which marks it failed) as text, anything else
 * kept whole. `failed` is the call's own status (cancelled, error) when the record says one.
 */
export function resultBlock(response: Json, failed = false): ToolResultBlock {
  const name = optStr(response.name);
  const body = isObject(response.response) ? response.response : {};
  const output = body.output;
  const error = body.error;
  const content: ToolResultPart[] = typeof output === "string"
    ? [{ type: "text", text: output }]
    : typeof error === "string"
    ? [{ type: "text", text: error }]
    : [{ type: "raw", harness: HARNESS, kind: "functionResponse", value: body }];
  return {
    type: "tool_result",
    callId: apiCallId(optStr(response.id) ?? "", name),
    isError: failed || error !== undefined,
    content,
  };
}

/** A `toolCalls` entry's result: its functionResponse parts (a bare string is an output). */
export function toolCallResults(call: Json): ToolResultBlock[] {
  const failed = call.status !== undefined && call.status !== "success";
  const id = optStr(call.id) ?? "";
  const name = optStr(call.name);
  if (typeof call.result === "string") {
    return [{
      type: "tool_result",
      callId: apiCallId(id, name),
      isError: failed,
      content: [{ type: "text", text: call.result }],
    }];
  }
  return partsOf(call.result).flatMap((p) => {
    const response = functionResponse(p);
    return response
      ? [
        resultBlock(
          { ...response, id: optStr(response.id) ?? id, name: optStr(response.name) ?? name },
          failed,
        ),
      ]
      : [];
  });
}

/**
 * A gemini record's token counts. `input` is the whole prompt, cached tokens among them; thoughts are billed as
 * output.
 */
export function usageOf(tokens: unknown): Usage | undefined {
  if (!isObject(tokens)) return undefined;
  const n = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);
  const cached = n(tokens.cached);
  return {
    inputTokens: Math.max(0, n(tokens.input) - cached),
    outputTokens: n(tokens.output) + n(tokens.thoughts),
    cacheReadTokens: cached,
    cacheWriteTokens: 0,
  };
}
