/**
 * What a `pi --mode json` turn does, line by line (checked on 0.73.1): each finished message is a `message_end`
 * (an assistant message is one model call: its text, its `toolCall` blocks and its usage and cost as Pi counted
 * them), and each tool run ends in a `tool_execution_end` with its result. The `message_update` lines stream the
 * same message in pieces and are passed over.
 */
import type { LiveEvent } from "../types.ts";
import { jsonLine, type JsonRecord, recordOf } from "../../io/json-line.ts";
import { usageOf } from "./messages.ts";
import { assistantText } from "./certify/run.ts";

export function piLiveEvents(): (line: string, stream: 1 | 2) => LiveEvent[] {
  return (line, stream) => {
    const event = stream === 1 ? jsonLine(line) : undefined;
    if (event?.type === "message_end") {
      const message = recordOf(event.message);
      return message.role === "assistant" ? modelCall(message) : [];
    }
    if (event?.type === "tool_execution_end") {
      return [{
        kind: "tool_result",
        callId: String(event.toolCallId ?? ""),
        output: resultText(recordOf(event.result)),
        isError: event.isError === true,
      }];
    }
    return [];
  };
}

/** The model's answer with the call's usage, then each tool call it asked for. */
function modelCall(message: JsonRecord): LiveEvent[] {
  const text = assistantText(message);
  const usage = usageOf(message.usage);
  const cost = recordOf(recordOf(message.usage).cost).total;
  const response: LiveEvent = {
    kind: "model_response",
    ...(typeof message.model === "string" ? { model: message.model } : {}),
    ...(text ? { content: text } : {}),
    ...(usage ? { usage } : {}),
    // Pi prices a call from its model list; a model it has no prices for costs 0, which is no figure.
    ...(typeof cost === "number" && cost > 0 ? { costUsd: cost } : {}),
  };
  const content = Array.isArray(message.content) ? message.content.map(recordOf) : [];
  const calls = content.filter((b) => b.type === "toolCall").map((b): LiveEvent => ({
    kind: "tool_call",
    tool: String(b.name ?? "tool"),
    callId: String(b.id ?? ""),
    arguments: JSON.stringify(b.arguments ?? null),
  }));
  return [response, ...calls];
}

/** A tool result's text blocks, joined. */
function resultText(result: JsonRecord): string {
  const content = Array.isArray(result.content) ? result.content.map(recordOf) : [];
  return content.flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : [])).join("\n");
}
