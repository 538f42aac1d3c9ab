/**
 * What a `claude -p --output-format stream-json` turn does, line by line (checked on 2.1.328): each `assistant`
 * line holds one content block of a model message (text, a `tool_use`), each `user` line the `tool_result`s the
 * tools gave back, and the closing `result` line the turn's token usage and its cost as Claude Code priced it.
 * Usage is taken from `result` alone: the split `assistant` lines of one message repeat the message's usage.
 */
import type { LiveEvent } from "../types.ts";
import { countOf, jsonLine, type JsonRecord, recordOf } from "../../io/json-line.ts";

export function claudeLiveEvents(): (line: string, stream: 1 | 2) => LiveEvent[] {
  return (line, stream) => {
    const event = stream === 1 ? jsonLine(line) : undefined;
    if (event?.type === "assistant") return assistantEvents(recordOf(event.message));
    if (event?.type === "user") return resultEvents(recordOf(event.message));
    if (event?.type === "result") return [turnUsage(event)];
    return [];
  };
}

function assistantEvents(message: JsonRecord): LiveEvent[] {
  const model = typeof message.model === "string" ? message.model : undefined;
  return blocks(message).flatMap((b): LiveEvent[] => {
    if (b.type === "text" && typeof b.text === "string" && b.text) {
      return [{ kind: "model_response", ...(model ? { model } : {}), content: b.text }];
    }
    if (b.type === "tool_use" && typeof b.name === "string") {
      return [{
        kind: "tool_call",
        tool: b.name,
        callId: String(b.id ?? ""),
        arguments: JSON.stringify(b.input ?? null),
      }];
    }
    return [];
  });
}

function resultEvents(message: JsonRecord): LiveEvent[] {
  return blocks(message).flatMap((b): LiveEvent[] =>
    b.type === "tool_result"
      ? [{
        kind: "tool_result",
        callId: String(b.tool_use_id ?? ""),
        output: textOf(b.content),
        isError: b.is_error === true,
      }]
      : []
  );
}

function turnUsage(result: JsonRecord): LiveEvent {
  const usage = recordOf(result.usage);
  const models = Object.keys(recordOf(result.modelUsage));
  return {
    kind: "model_response",
    ...(models.length === 1 ? { model: models[0]! } : {}),
    usage: {
      inputTokens: countOf(usage.input_tokens),
      outputTokens: countOf(usage.output_tokens),
      cacheReadTokens: countOf(usage.cache_read_input_tokens),
      cacheWriteTokens: countOf(usage.cache_creation_input_tokens),
    },
    ...(typeof result.total_cost_usd === "number" ? { costUsd: result.total_cost_usd } : {}),
  };
}

function blocks(message: JsonRecord): JsonRecord[] {
  return Array.isArray(message.content) ? message.content.map(recordOf) : [];
}

/** A tool result's content is a string or a list of blocks, of which the text ones are the result. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map(recordOf).flatMap((
    b,
  ) => (b.type === "text" && typeof b.text === "string" ? [b.text] : []))
    .join("\n");
}
