/**
 * One Gemini CLI turn, non-interactively: `gemini --output-format stream-json [--resume ID] --prompt=TEXT`.
 * The stream's first event (`init`) names the session id, so an alias is bound before the model answers; the
 * answer is the assistant text streamed after the turn's last tool call (checked on 0.61.0).
 */
import type { EngineSpec } from "../types.ts";
import { geminiLiveEvents } from "./live-events.ts";
import { jsonLine } from "../../io/json-line.ts";

export const geminiEngine: EngineSpec = {
  liveEvents: geminiLiveEvents,
  command: "gemini",
  supports: ["session-id"],
  args: ({ prompt, resume, start, model }) => [
    "--output-format",
    "stream-json",
    ...(resume ? ["--resume", resume] : []),
    // "Start a new session with a manually provided UUID" (0.61.0).
    ...(start ? ["--session-id", start] : []),
    ...(model ? ["--model", model] : []),
    // Joined to its flag, a prompt that starts with a dash is still the prompt.
    `--prompt=${prompt}`,
  ],
  idFrom(line, stream) {
    const event = stream === 1 ? jsonLine(line) : undefined;
    return event?.type === "init" && typeof event.session_id === "string" ? event.session_id : undefined;
  },
  replyFrom(stdout) {
    let reply = "";
    for (const line of stdout.split("\n")) {
      const event = jsonLine(line);
      // Text before a tool call is the model thinking aloud; the answer is what follows the last one.
      if (event?.type === "tool_use" || event?.type === "tool_result") reply = "";
      else if (event?.type === "message" && event.role === "assistant" && typeof event.content === "string") {
        reply += event.content;
      }
    }
    return reply;
  },
};
