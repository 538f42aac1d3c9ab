/**
 * One OpenCode turn, non-interactively: `opencode run --format json [--session ID] [--model P/M]`, the prompt on
 * stdin (given as arguments, `run` joins the words, putting each that holds a space in double quotes: 1.18.33
 * sends `opencode run "say hello"` as `"say hello"`). Every JSON event names the session (`sessionID`), so an
 * alias is bound at the first one; the answer is the turn's last text part. A turn not to be kept is deleted
 * after it, by `opencode session delete ID`.
 */
import type { EngineSpec } from "../types.ts";
import { openCodeLiveEvents } from "./live-events.ts";
import { jsonLine } from "../../io/json-line.ts";
import { parseRunEvents } from "./certify/run.ts";

export const openCodeEngine: EngineSpec = {
  liveEvents: openCodeLiveEvents,
  command: "opencode",
  args: ({ resume, model }) => [
    "run",
    "--format",
    "json",
    ...(resume ? ["--session", resume] : []),
    ...(model ? ["--model", model] : []),
  ],
  input: ({ prompt }) => prompt,
  idFrom(line, stream) {
    const event = stream === 1 ? jsonLine(line) : undefined;
    return typeof event?.sessionID === "string" ? event.sessionID : undefined;
  },
  replyFrom: (stdout) => parseRunEvents(stdout).reply,
  // No flag for a run it does not keep: `session delete` removes the session with its messages, parts and
  // events, and exits 1 for one it does not find (checked on 1.18.33).
  forget: {
    args: (id) => ["session", "delete", id],
    deleted: ({ code }) => code === 0,
  },
};
