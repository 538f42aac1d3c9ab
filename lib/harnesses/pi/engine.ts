/**
 * One Pi turn, non-interactively: `pi --mode json [--session ID | --no-session] [--model M] [--thinking LEVEL]`
 * (the effort is Pi's thinking level: off, minimal, low, medium, high, xhigh), the prompt on stdin (as an
 * argument, words starting with `@` would name a file to attach and words starting with `-` a flag; stdin, read
 * whole when it is no terminal, is the message as it is, trimmed). The first line printed is the session file's
 * header, so an alias is bound before the model answers; the answer is the text of the turn's last assistant
 * message. Pi looks `--session ID` up among the sessions of the folder it runs in, then of every folder (found in
 * another, it asks on stdin whether to fork it there, which a run whose stdin was the prompt declines).
 * Checked on 0.73.1.
 */
import type { EngineSpec } from "../types.ts";
import { piLiveEvents } from "./live-events.ts";
import { storedThinkingLevel } from "./effort.ts";
import { jsonLine } from "../../io/json-line.ts";
import { JSON_MODE, parseJsonEvents } from "./certify/run.ts";

export const piEngine: EngineSpec = {
  liveEvents: piLiveEvents,
  effortOf: storedThinkingLevel,
  command: "pi",
  supports: ["effort", "ephemeral"],
  args: ({ resume, model, effort, ephemeral }) => [
    ...JSON_MODE,
    ...(resume ? ["--session", resume] : []),
    ...(ephemeral ? ["--no-session"] : []),
    ...(model ? ["--model", model] : []),
    ...(effort ? ["--thinking", effort] : []),
  ],
  input: ({ prompt }) => prompt,
  idFrom(line, stream) {
    const event = stream === 1 ? jsonLine(line) : undefined;
    return event?.type === "session" && typeof event.id === "string" ? event.id : undefined;
  },
  replyFrom: (stdout) => parseJsonEvents(stdout).reply,
};
