/**
 * What a `gemini --output-format stream-json` turn does, line by line (checked on 0.61.0): `tool_use` and
 * `tool_result` by `tool_id`, the assistant's words as `message` deltas (gathered into one response, sent when
 * a tool call or the end comes), and the closing `result` with the turn's token counts (`input_tokens`
 * counting the `cached` ones).
 */
import type { LiveEvent } from "../types.ts";
import { countOf, jsonLine, type JsonRecord, recordOf } from "../../io/json-line.ts";

export function geminiLiveEvents(): (line: string, stream: 1 | 2) => LiveEvent[] {
  let said = "";
  let model: string | undefined;
  const words = (): LiveEvent[] => {
    const content = said;
    said = "";
    return content ? [{ kind: "model_response", ...(model ? { model } : {}), content }] : [];
  };
  return (line, stream) => {
    const event = stream === 1 ? jsonLine(line) : undefined;
    switch (event?.type) {
      case "init":
        // "auto" names a routing, not a model.
        if (typeof event.model === "string" && event.model !== "auto") model = event.model;
        return [];
      case "message":
        if (event.role === "assistant" && typeof event.content === "string") said += event.content;
        return [];
      case "tool_use":
        return [...words(), {
          kind: "tool_call",
          tool: String(event.tool_name ?? "tool"),
          callId: String(event.tool_id ?? ""),
          arguments: JSON.stringify(event.parameters ?? null),
        }];
      case "tool_result": {
        const error = recordOf(event.error);
        return [{
          kind: "tool_result",
          callId: String(event.tool_id ?? ""),
          output: typeof event.output === "string" ? event.output : String(error.message ?? ""),
          isError: event.status === "error",
        }];
      }
      case "result":
        return [...words(), turnUsage(recordOf(event.stats))];
      default:
        return [];
    }
  };
}

function turnUsage(stats: JsonRecord): LiveEvent {
  const cached = countOf(stats.cached);
  const models = Object.keys(recordOf(stats.models));
  return {
    kind: "model_response",
    ...(models.length === 1 ? { model: models[0]! } : {}),
    usage: {
      inputTokens: Math.max(0, countOf(stats.input_tokens) - cached),
      outputTokens: countOf(stats.output_tokens),
      cacheReadTokens: cached,
      cacheWriteTokens: 0,
    },
  };
}
