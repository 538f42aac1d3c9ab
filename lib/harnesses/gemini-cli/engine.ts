/**
 * One Gemini CLI turn, non-interactively: `gemini --output-format stream-json [--resume ID] --prompt=TEXT`.
 * The stream's first event (`init`) names the session id, so an alias is bound before the model answers; the
 * answer is the assistant text streamed after the turn's last tool call (checked on 0.61.0). A turn not to be
 * kept is deleted after it, by `gemini --delete-session ID`.
 */
import type { EngineSpec } from "../types.ts";
import { geminiLiveEvents } from "./live-events.ts";
import { jsonLine } from "../../io/json-line.ts";
import { argumentRoom } from "../../io/argument-limit.ts";

export const geminiEngine: EngineSpec = {
  liveEvents: geminiLiveEvents,
  command: "gemini",
  supports: ["session-id"],
  promptBytes: argumentRoom("--prompt="),
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
  // Gemini CLI has no flag for a run it does not keep; it deletes a session by id (or list index), printing
  // "Deleted session" on stdout, and exits 0 whether or not it found one (checked on 0.61.0). It looks the id
  // up in the project of the folder it runs in, where the turn ran, and deletes the session's logs with it.
  forget: {
    args: (id) => ["--delete-session", id],
    deleted: ({ code, stdout }) => code === 0 && /^Deleted session /m.test(stdout),
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
