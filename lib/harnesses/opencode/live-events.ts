/**
 * What an `opencode run --format json` turn does, line by line (checked on 1.18.33): each model call is a step
 * (`step_start` … `step_finish`, the finish carrying its tokens and cost as OpenCode counted them), its words a
 * `text` event, and each tool part a `tool_use` event printed once the tool has run, holding the call and its
 * result (`state.status` `completed` or `error`). The words of a step are sent with its usage, when it ends.
 */
import type { LiveEvent } from "../types.ts";
import { jsonLine, type JsonRecord, recordOf } from "../../io/json-line.ts";
import { usageOf } from "./decode.ts";

export function openCodeLiveEvents(): (line: string, stream: 1 | 2) => LiveEvent[] {
  let said: string[] = [];
  return (line, stream) => {
    const event = stream === 1 ? jsonLine(line) : undefined;
    const part = recordOf(event?.part);
    switch (event?.type) {
      case "text":
        if (typeof part.text === "string" && part.text) said.push(part.text);
        return [];
      case "tool_use":
        return toolEvents(part);
      case "step_finish": {
        const content = said.join("\n");
        said = [];
        const usage = usageOf(part.tokens);
        return [{
          kind: "model_response",
          ...(content ? { content } : {}),
          ...(usage ? { usage } : {}),
          // OpenCode prices a step from its model list; one it has no prices for costs 0, which is no figure.
          ...(typeof part.cost === "number" && part.cost > 0 ? { costUsd: part.cost } : {}),
        }];
      }
      default:
        return [];
    }
  };
}

function toolEvents(part: JsonRecord): LiveEvent[] {
  const state = recordOf(part.state);
  const callId = String(part.callID ?? "");
  const call: LiveEvent = {
    kind: "tool_call",
    tool: String(part.tool ?? "tool"),
    callId,
    arguments: JSON.stringify(state.input ?? null),
  };
  if (state.status !== "completed" && state.status !== "error") return [call];
  const failed = state.status === "error";
  const output = failed ? state.error : state.output;
  return [call, {
    kind: "tool_result",
    callId,
    output: typeof output === "string" ? output : JSON.stringify(output ?? null),
    isError: failed,
  }];
}
