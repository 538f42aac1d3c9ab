/**
 * What a running Copilot CLI has recorded so far, for the certify driver to wait on and take answers from: the
 * session folders of its store (`session-state/<id>/`, each with an `events.jsonl` once its first prompt is
 * recorded: the TUI makes the folder at start) and the main agent's events of one, in order, as much of each as a
 * seeding needs. The session reader proper is the harness's store.
 */
import { existsSync, readFileSync } from "node:fs";
import { jsonLine, recordOf } from "../../../io/json-line.ts";
import { copilotEventsFile } from "../home.ts";
import { copilotEventFiles, folderId } from "../locate.ts";

export interface RecordedEvent {
  type: string;
  /** A `user.message`'s or `assistant.message`'s words. */
  content: string;
  /** A `user.message`'s delivery: `idle`, `steering` (typed while busy, sent at once), `queued`. */
  delivery: string;
  /** An `assistant.message`'s tool requests, or a tool event's call: id and shell command. */
  calls: { id: string; command: string }[];
}

/** The sessions of a store that have recorded anything, by folder name (the session id). */
export function recordedSessions(copilotHome: string): string[] {
  return copilotEventFiles(copilotHome).flatMap((path) => folderId(path) ?? []);
}

/** The main agent's events of a session in order, as far as they are written (subagents' left out). */
export function recordedEvents(copilotHome: string, id: string): RecordedEvent[] {
  const path = copilotEventsFile(copilotHome, id);
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").flatMap((line) => {
    // A line the CLI is writing right now is no JSON yet.
    const event = jsonLine(line);
    if (!event || typeof event.type !== "string" || event.agentId !== undefined) return [];
    const data = recordOf(event.data);
    return [{
      type: event.type,
      content: typeof data.content === "string" ? data.content : "",
      delivery: typeof data.delivery === "string" ? data.delivery : "",
      calls: callsOf(event.type, data),
    }];
  });
}

function callsOf(type: string, data: Record<string, unknown>): RecordedEvent["calls"] {
  if (type === "assistant.message") {
    return (Array.isArray(data.toolRequests) ? data.toolRequests : []).map((request) => {
      const r = recordOf(request);
      return { id: String(r.toolCallId), command: commandOf(r.arguments) };
    });
  }
  if (type === "tool.execution_start" || type === "tool.execution_complete") {
    return [{ id: String(data.toolCallId), command: commandOf(data.arguments) }];
  }
  return [];
}

function commandOf(args: unknown): string {
  const command = recordOf(args).command;
  return typeof command === "string" ? command : "";
}

/**
 * The answer of the turn whose prompt holds `prompt`, once that turn has ended: after the prompt and before the
 * next prompt that starts a turn of its own (words sent while it ran, `steering`, belong to it), an
 * `assistant.message` asking for no tool, and the `assistant.turn_end` after it; its words.
 */
export function answerAfter(events: RecordedEvent[], prompt: string): string | undefined {
  const asked = events.findIndex((e) => e.type === "user.message" && e.content.includes(prompt));
  if (asked < 0) return undefined;
  const rest = events.slice(asked + 1);
  const next = rest.findIndex((e) => e.type === "user.message" && e.delivery !== "steering");
  const after = next < 0 ? rest : rest.slice(0, next);
  const answered = after.findLastIndex((e) => e.type === "assistant.message" && e.calls.length === 0);
  if (answered < 0 || !after.slice(answered + 1).some((e) => e.type === "assistant.turn_end")) {
    return undefined;
  }
  return after[answered]!.content.trim();
}

/** Whether a shell call running `command` has started and has no result yet. */
export function runningCall(events: RecordedEvent[], command: string): boolean {
  const started = events.filter((e) =>
    e.type === "tool.execution_start" && e.calls[0]?.command.includes(command)
  );
  return started.some((s) =>
    !events.some((e) => e.type === "tool.execution_complete" && e.calls[0]?.id === s.calls[0]?.id)
  );
}
