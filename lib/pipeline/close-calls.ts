/**
 * Every target mishandles a call left without a result when it resumes (seen in the live binaries against
 * the fake model servers): Claude Code drops the call from what it sends, so the model never learns it ran;
 * Codex sends an output of its own ("aborted"); Hermes sends "[Result unavailable — see context summary
 * above]", pointing at a summary that does not exist. So by default each open call is answered with a result
 * that says what happened, placed right after the response that made it, as every provider requires.
 */
import type { Message, Session } from "../ir/schema.ts";
import { INTERRUPTED_RESULT } from "../handshake/handshake.ts";

/** The session with an interrupted result for each pending call that has none, and those calls' ids. */
export function closeOpenCalls(session: Session): { session: Session; closed: string[] } {
  const list = session.messages;
  const answered = new Set<string>();
  for (const m of list) for (const b of m.blocks) if (b.type === "tool_result") answered.add(b.callId);
  const open = new Set(
    session.pending.openToolCalls.filter((c) => c.messageUid && !answered.has(c.callId)).map((c) => c.callId),
  );
  // Stubs go after the rest of the calling response and the results that answer it, before anything else.
  const after = new Map<number, Message[]>();
  const closed: string[] = [];
  list.forEach((m, i) => {
    const calls = m.blocks.flatMap((b) => (b.type === "tool_call" && open.has(b.id) ? [b.id] : []));
    if (!calls.length) return;
    let at = i;
    while (at + 1 < list.length && continuesResponse(m, list[at + 1]!)) at++;
    const stubs = after.get(at) ?? [];
    stubs.push(stubMessage(m, calls));
    after.set(at, stubs);
    closed.push(...calls);
  });
  if (!closed.length) return { session, closed };
  const messages = list.flatMap((m, i) => [m, ...(after.get(i) ?? [])]);
  return { session: { ...session, messages }, closed };
}

/** A later record of the same API response, or a message that only carries tool results. */
function continuesResponse(caller: Message, next: Message): boolean {
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
