/**
 * What the end of a Claude Code transcript (the interrupted results, the handshake) needs from the live thread,
 * noted as the thread streams past the writer: the thread may be too large to hold, and is read only once.
 */
import type { Message, OpenToolCall } from "../../ir/schema.ts";
import { isHandshake } from "../../handshake/handshake.ts";

export class ThreadEnd {
  /** Of the pending calls only (a handful), those a tool_result in the thread answers. */
  private readonly answered = new Set<string>();
  private readonly pendingIds: ReadonlySet<string>;
  private last: string | undefined;

  constructor(private readonly pending: readonly OpenToolCall[]) {
    this.pendingIds = new Set(pending.map((c) => c.callId));
  }

  note(m: Message): void {
    // An earlier hop's handshake is being replaced, so the chain goes on from the message before it.
    if (!isHandshake(m)) this.last = m.uid;
    if (!this.pendingIds.size) return;
    for (const b of m.blocks) {
      if (b.type === "tool_result" && this.pendingIds.has(b.callId)) this.answered.add(b.callId);
    }
  }

  /** The newest message of the live thread that is not an earlier hop's handshake. */
  get lastLiveUid(): string | undefined {
    return this.last;
  }

  /** Pending calls the thread leaves without a result (a foreign source may carry its stubs already). */
  unanswered(): OpenToolCall[] {
    return this.pending.filter((c) => !this.answered.has(c.callId));
  }
}
