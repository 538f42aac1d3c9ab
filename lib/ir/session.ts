import type { Origin, PassthroughRecords, Session, SessionMeta } from "./schema.ts";

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

/** Counts one more source record of `type` that is not a message (`origin` is asked for only for the first). */
export function notePassthrough(tally: PassthroughRecords[], type: string, origin: () => Origin): void {
  const known = tally.find((p) => p.type === type);
  if (known) known.count++;
  else tally.push({ type, count: 1, first: origin() });
}
