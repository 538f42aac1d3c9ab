/**
 * One Claude Code turn, non-interactively: `claude -p --output-format stream-json --verbose [--resume ID]`.
 * The stream's first event (`system` / `init`) names the session id, so an alias is bound before the model
 * answers; the final `result` event carries the answer and the id the turn ended in (a resume may move on to a
 * new id, which the alias then follows). A new conversation can be given its id (`--session-id UUID`), so the
 * engine names it before the turn.
 */
import type { EngineSpec } from "../types.ts";
import { claudeLiveEvents } from "./live-events.ts";
import { recordedEffort } from "./effort.ts";
import { jsonLine } from "../../io/json-line.ts";
import { argumentRoom } from "../../io/argument-limit.ts";

export const claudeEngine: EngineSpec = {
  liveEvents: claudeLiveEvents,
  effortOf: recordedEffort,
  command: "claude",
  supports: ["effort", "ephemeral", "session-id"],
  promptBytes: argumentRoom(),
  args: ({ prompt, resume, start, model, effort, ephemeral }) => [
    "-p",
    "--output-format",
    "stream-json",
    "--verbose",
    ...(resume ? ["--resume", resume] : []),
    // Checked on 2.1.328: the transcript is <id>.jsonl and every event names that id.
    ...(start ? ["--session-id", start] : []),
    ...(model ? ["--model", model] : []),
    ...(effort ? ["--effort", effort] : []),
    // Checked on 2.1.328: the turn runs, and no transcript is written.
    ...(ephemeral ? ["--no-session-persistence"] : []),
    // After `--`, a prompt that starts with a dash is still the prompt.
    "--",
    prompt,
  ],
  idFrom(line, stream) {
    const event = stream === 1 ? jsonLine(line) : undefined;
    return typeof event?.session_id === "string" ? event.session_id : undefined;
  },
  replyFrom(stdout) {
    let reply = "";
    for (const line of stdout.split("\n")) {
      const event = jsonLine(line);
      if (event?.type === "result" && typeof event.result === "string") reply = event.result;
    }
    return reply;
  },
};
