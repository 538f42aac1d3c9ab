/**
 * What `copilot -p PROMPT --output-format json` prints (1.0.102, seen live): one session event a line, as the
 * session records them plus the ephemeral ones (deltas, `session.background_tasks_changed`, ...), without
 * `session.start`, and last a `result` line naming the session (`sessionId`) and the run's `exitCode`. A
 * failed model call is a `session.error` event (`data.message`). Subagent events carry an `agentId`.
 */
import { jsonLine, type JsonRecord, recordOf } from "../../io/json-line.ts";

export interface PromptOutput {
  sessionId?: string;
  /** The main agent's last message when it asked for no tool: the answer after any tool calls. */
  reply: string;
  /** Why the run failed: a `session.error`'s message, else a non-zero `exitCode`. */
  error?: string;
}

/** The session id a line of the output announces (only the closing `result` line names it). */
export function promptSessionId(line: string): string | undefined {
  const event = jsonLine(line);
  return event?.type === "result" && typeof event.sessionId === "string" ? event.sessionId : undefined;
}

export function parsePromptOutput(stdout: string): PromptOutput {
  const out: PromptOutput = { reply: "" };
  for (const line of stdout.split("\n")) {
    const event = jsonLine(line);
    if (!event) continue;
    const data = recordOf(event.data);
    if (event.type === "result") {
      if (typeof event.sessionId === "string") out.sessionId = event.sessionId;
      if (typeof event.exitCode === "number" && event.exitCode !== 0) {
        out.error ??= `exit code ${event.exitCode}`;
      }
    } else if (event.type === "session.error") {
      out.error = typeof data.message === "string" ? data.message : "session.error";
    } else if (event.type === "assistant.message" && event.agentId === undefined) {
      // Words beside a tool request are the model thinking aloud; the answer is the message that asks for none.
      out.reply = asksForTools(data) ? "" : typeof data.content === "string" ? data.content : "";
    }
  }
  return out;
}

function asksForTools(data: JsonRecord): boolean {
  return Array.isArray(data.toolRequests) && data.toolRequests.length > 0;
}
