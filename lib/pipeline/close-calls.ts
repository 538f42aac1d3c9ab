/**
 * Every target mishandles a call left without a result when it resumes (seen in the live binaries against
 * the fake model servers): Claude Code drops the call from what it sends, so the model never learns it ran;
 * Codex sends an output of its own ("aborted"); Hermes sends "[Result unavailable — see context summary
 * above]", pointing at a summary that does not exist. So by default each open call is answered with a result
 * that says what happened, placed right after the response that made it, as every provider requires.
 */
import type { Message } from "../ir/schema.ts";
import { INTERRUPTED_RESULT } from "../handshake/handshake.ts";

/**
 * Inserts an interrupted result for each of the `open` calls into a thread as it passes: after the rest of the
 * calling response and the results that answer it, before anything else. Stateful: one per pass over a thread.
 */
export class StubInserter {
  /** Callers whose stub waits for the end of their response, oldest first. */
  private waiting: { caller: Message; calls: string[] }[] = [];

  constructor(private readonly open: ReadonlySet<string>) {}

  /** The messages to pass on now that `m` is next: stubs whose response ended before it, then `m`. */
  next(m: Message): Message[] {
    const out: Message[] = [];
    if (this.waiting.length) {
      const ended = this.waiting.filter((w) => !continuesResponse(w.caller, m));
      this.waiting = this.waiting.filter((w) => continuesResponse(w.caller, m));
      out.push(...ended.map((w) => stubMessage(w.caller, w.calls)));
    }
    out.push(m);
    const calls = this.open.size
      ? m.blocks.flatMap((b) => (b.type === "tool_call" && this.open.has(b.id) ? [b.id] : []))
      : [];
    if (calls.length) this.waiting.push({ caller: m, calls });
    return out;
  }

  /** The stubs still waiting when the thread ends. */
  end(): Message[] {
    const out = this.waiting.map((w) => stubMessage(w.caller, w.calls));
    this.waiting = [];
    return out;
  }
}

/** A later record of the same API response, or a message that only carries tool results. */
export function continuesResponse(caller: Message, next: Message): boolean {
  if (next.role === "assistant") {
    return !!caller.providerMessageId && next.providerMessageId === caller.providerMessageId;
  }
  return next.kind === "turn" && next.blocks.length > 0 && next.blocks.every((b) => b.type === "tool_result");
}

function stubMessage(caller: Message, callIds: string[]): Message {
  return {
    uid: `${caller.uid}:interrupted`,
    parentUid: caller.uid,
    role: "tool",
    kind: "turn",
    ...(caller.timestamp ? { timestamp: caller.timestamp } : {}),
    blocks: callIds.map((callId) => ({
      type: "tool_result",
      callId,
      isError: true,
      content: [{ type: "text", text: INTERRUPTED_RESULT }],
    })),
  };
}
