/**
 * What a `copilot --output-format json` turn does, line by line (checked on 1.0.102): the main agent's
 * `assistant.message` for each model call (its words, and the `toolRequests` it makes), and a
 * `tool.execution_complete` for each tool run (`success`, and its `result` or `error`). Copilot prints no token
 * usage: its `session.usage_record`s are in the session's events.jsonl only (`session-bridge events` replays
 * them). Subagents' events (they carry an `agentId`) are left out: they are runs of their own.
 */
import type { LiveEvent } from "../types.ts";
import { jsonLine, type JsonRecord, recordOf } from "../../io/json-line.ts";

export function copilotLiveEvents(): (line: string, stream: 1 | 2) => LiveEvent[] {
  return (line, stream) => {
    const event = stream === 1 ? jsonLine(line) : undefined;
    if (!event || event.agentId !== undefined) return [];
    const data = recordOf(event.data);
    if (event.type === "assistant.message") return modelCall(data);
    if (event.type === "tool.execution_complete") {
      const failed = data.success !== true;
      const output = failed ? recordOf(data.error).message ?? data.error : recordOf(data.result).content;
      return [{
        kind: "tool_result",
        callId: String(data.toolCallId ?? ""),
        output: typeof output === "string" ? output : JSON.stringify(output ?? null),
        isError: failed,
      }];
    }
    return [];
  };
}

/** The model's words, when it said any, then each tool it asked for. */
function modelCall(data: JsonRecord): LiveEvent[] {
  const words: LiveEvent[] = typeof data.content === "string" && data.content
    ? [{
      kind: "model_response",
      ...(typeof data.model === "string" ? { model: data.model } : {}),
      content: data.content,
    }]
    : [];
  const requests = Array.isArray(data.toolRequests) ? data.toolRequests.map(recordOf) : [];
  return [
    ...words,
    ...requests.map((r): LiveEvent => ({
      kind: "tool_call",
      tool: String(r.name ?? "tool"),
      callId: String(r.toolCallId ?? ""),
      arguments: JSON.stringify(r.arguments ?? null),
    })),
  ];
}
