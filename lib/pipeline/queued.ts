/**
 * A prompt the person queued while the agent was busy, never sent: the harness would have sent it as their
 * next message once the turn ended, so that is where it goes, as their own words at the end of the thread
 * (after any interrupted call's result). In the thread it keeps its place on every later hop, once, where a
 * handshake's mention of it would move behind whatever turns came after that handshake.
 */
import type { Message, QueuedInput } from "../ir/schema.ts";
import type { MessagePass } from "../ir/stream.ts";

/** `pass`, with the queued prompts following whatever it passes on last. */
export function endingWithQueued(pass: MessagePass, queued: readonly QueuedInput[]): MessagePass {
  if (!queued.length) return pass;
  let last: string | null = null;
  const noted = (messages: Message[]) => {
    last = messages.at(-1)?.uid ?? last;
    return messages;
  };
  return {
    next: (m) => noted(pass.next(m)),
    end: () => {
      const out = noted(pass.end());
      for (const [n, q] of queued.entries()) {
        const message: Message = {
          uid: `${last ?? "thread"}:queued-${n}`,
          parentUid: last,
          role: "user",
          kind: "turn",
          ...(q.timestamp ? { timestamp: q.timestamp } : {}),
          blocks: [{ type: "text", text: q.text }],
        };
        out.push(message);
        last = message.uid;
      }
      return out;
    },
  };
}
