/**
 * What a `codex exec --json` turn does, line by line (checked on 0.169.0): `item.started` / `item.completed`
 * for each thing the agent does (a `command_execution`, an `mcp_tool_call`, a `file_change`, a `web_search`,
 * an `agent_message`), and `turn.completed` with the turn's token usage (`input_tokens` counting the cached
 * ones, as OpenAI reports them). An item seen only completed is called and answered at once.
 */
import type { LiveEvent } from "../types.ts";
import { countOf, jsonLine, type JsonRecord, recordOf } from "../../io/json-line.ts";

export function codexLiveEvents(): (line: string, stream: 1 | 2) => LiveEvent[] {
  const called = new Set<string>();
  return (line, stream) => {
    const event = stream === 1 ? jsonLine(line) : undefined;
    if (event?.type === "turn.completed") return [turnUsage(recordOf(event.usage))];
    if (event?.type !== "item.started" && event?.type !== "item.completed") return [];
    const item = recordOf(event.item);
    const id = String(item.id ?? "");
    if (item.type === "agent_message") {
      return event.type === "item.completed" && typeof item.text === "string"
        ? [{ kind: "model_response", content: item.text }]
        : [];
    }
    const call = toolCall(item, id);
    if (!call) return [];
    const events: LiveEvent[] = called.has(id) ? [] : [call];
    called.add(id);
    if (event.type === "item.completed") events.push(toolResult(item, id));
    return events;
  };
}

function toolCall(item: JsonRecord, callId: string): LiveEvent | undefined {
  const call = (tool: string, args: unknown): LiveEvent => ({
    kind: "tool_call",
    tool,
    callId,
    arguments: JSON.stringify(args ?? null),
  });
  switch (item.type) {
    case "command_execution":
      return call("shell", { command: item.command });
    case "mcp_tool_call":
      return call(`${String(item.server ?? "mcp")}.${String(item.tool ?? "tool")}`, item.arguments);
    case "file_change":
      return call("apply_patch", { changes: item.changes });
    case "web_search":
      return call("web_search", { query: item.query });
    default:
      return undefined;
  }
}

function toolResult(item: JsonRecord, callId: string): LiveEvent {
  const failed = item.status === "failed" ||
    (typeof item.exit_code === "number" && item.exit_code !== 0) ||
    item.error !== undefined && item.error !== null;
  const output = typeof item.aggregated_output === "string"
    ? item.aggregated_output
    : item.error !== undefined && item.error !== null
    ? JSON.stringify(item.error)
    : item.result !== undefined
    ? JSON.stringify(item.result)
    : String(item.status ?? "");
  return { kind: "tool_result", callId, output, isError: failed };
}

function turnUsage(usage: JsonRecord): LiveEvent {
  const cached = countOf(usage.cached_input_tokens);
  return {
    kind: "model_response",
    usage: {
      inputTokens: Math.max(0, countOf(usage.input_tokens) - cached),
      outputTokens: countOf(usage.output_tokens),
      cacheReadTokens: cached,
      cacheWriteTokens: countOf(usage.cache_write_input_tokens),
    },
  };
}
