import type { Session, SessionMeta } from "./schema.ts";

/** An IR session with nothing in it yet: readers fill it as they stream. */
export function emptySession(meta: SessionMeta): Session {
  return {
    meta,
    messages: [],
    threads: [],
    tools: [],
    pending: { openToolCalls: [], queuedInput: [], interruptedTurn: false },
    passthrough: [],
    drift: [],
    notices: [],
  };
}
