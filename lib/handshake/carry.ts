/**
 * An earlier hop's handshake is replaced, never stacked, but what it said is not thrown away: the calls it
 * named as interrupted and the input it named as queued are carried into the pending state of this hop, so
 * the next handshake states them again and the model reads each once. A fact the current source states
 * itself is not repeated.
 */
import type { Block, EarlierHandoff, Message, OpenToolCall, Pending, QueuedInput } from "../ir/schema.ts";
import {
  CALLS_HEADING,
  EARLIER_CALL,
  EARLIER_HEADING,
  EARLIER_QUEUED,
  isHandshake,
  QUEUED_HEADING,
} from "./handshake.ts";

interface Stated {
  calls: { callId: string; name: string; command?: string }[];
  queued: string[];
}

/** What carrying needs to know of a thread, gathered in one pass over it (see ThreadSurvey in prepare.ts). */
export interface CarryFacts {
  /** What each earlier handshake in the thread stated, and where it stands. */
  handshakes: { stated: Stated; index: number }[];
  /** Where the model last answered (an assistant turn), -1 if never. */
  lastAnswer: number;
  /** The newest time an answer records. */
  lastAnswerAt?: string;
  /** The calls the thread makes: by call id, the name they go by and the message that made them. */
  calls: ReadonlyMap<string, { name: string; uid: string }>;
}

export type CarrySurvey = CarryFacts & { calls: Map<string, { name: string; uid: string }> };

export const newCarrySurvey = (): CarrySurvey => ({ handshakes: [], lastAnswer: -1, calls: new Map() });

/** Adds what message `m`, at `index`, says for carrying. */
export function noteCarryFacts(
  facts: CarrySurvey,
  m: Message,
  index: number,
): void {
  if (isHandshake(m)) facts.handshakes.push({ stated: parseHandshake(textOf(m.blocks)), index });
  if (answered(m)) {
    facts.lastAnswer = index;
    if (m.timestamp && (!facts.lastAnswerAt || m.timestamp > facts.lastAnswerAt)) {
      facts.lastAnswerAt = m.timestamp;
    }
  }
  for (const b of m.blocks) if (b.type === "tool_call") facts.calls.set(b.id, { name: b.name, uid: m.uid });
}

// After the model has answered since a handshake, its facts may have been dealt with: they are stated as an
// earlier hop's, for the model to check, not as in flight now.
const answered = (m: Message) => m.role === "assistant" && m.kind === "turn";

/** The session's pending state with every still-pending fact of its earlier handshakes added. */
export function carryPending(
  pending: Pending,
  earlier: EarlierHandoff | undefined,
  facts: CarryFacts,
): { pending: Pending; carried: number } {
  const sources: { stated: Stated; continued: boolean }[] = facts.handshakes.map((h) => ({
    stated: h.stated,
    continued: h.index < facts.lastAnswer,
  }));
  // The handshake this session was handed off with, as remembered: found even where the target harness moved
  // its record off the live thread.
  if (earlier) {
    sources.push({
      stated: { calls: earlier.calls, queued: earlier.queued },
      continued: !!facts.lastAnswerAt && facts.lastAnswerAt > earlier.at,
    });
  }
  if (!sources.length) return { pending, carried: 0 };
  const calls = new Map(pending.openToolCalls.map((c) => [c.callId, c]));
  const queued = new Map(pending.queuedInput.map((q) => [q.text, q]));
  const made = facts.calls;
  for (const { stated, continued } of sources) {
    for (const c of stated.calls) {
      if (calls.has(c.callId)) continue;
      const call = made.get(c.callId);
      const carried: OpenToolCall = call
        ? { callId: c.callId, name: call.name, messageUid: call.uid }
        : { callId: c.callId, name: c.name, messageUid: "", ...(c.command ? { command: c.command } : {}) };
      calls.set(c.callId, continued ? { ...carried, earlier: true } : carried);
    }
    for (const text of stated.queued) {
      if (!queued.has(text)) queued.set(text, continued ? { text, earlier: true } : { text });
    }
  }
  const carried = calls.size + queued.size - pending.openToolCalls.length - pending.queuedInput.length;
  return {
    pending: {
      ...pending,
      openToolCalls: [...calls.values()],
      queuedInput: [...queued.values()] as QueuedInput[],
    },
    carried,
  };
}

/** What the handshake given to a target says is pending, remembered with the written session. */
export function statedPending(pending: Pending, at: Date): EarlierHandoff | undefined {
  if (!pending.openToolCalls.length && !pending.queuedInput.length) return undefined;
  return {
    at: at.toISOString(),
    calls: pending.openToolCalls.map((c) => ({
      callId: c.callId,
      name: c.name,
      ...(c.command ? { command: c.command } : {}),
    })),
    queued: pending.queuedInput.map((q) => q.text),
  };
}

const CALL = /^([^\s()]+) \(([^\s()]+)\)(?:: (".*"))?$/;

/** What a handshake stated, read from its own lines (headings and item forms in handshake.ts). */
export function parseHandshake(text: string): Stated {
  const stated: Stated = { calls: [], queued: [] };
  let section: "calls" | "queued" | "earlier" | undefined;
  for (const line of text.split("\n")) {
    if (line === CALLS_HEADING) section = "calls";
    else if (line === QUEUED_HEADING) section = "queued";
    else if (line === EARLIER_HEADING) section = "earlier";
    else if (!line.startsWith("- ")) section = undefined;
    else if (section) {
      let item = line.slice(2);
      let kind: "calls" | "queued" = section === "queued" ? "queued" : "calls";
      if (section === "earlier") {
        kind = item.startsWith(EARLIER_QUEUED) ? "queued" : "calls";
        item = item.slice((kind === "queued" ? EARLIER_QUEUED : EARLIER_CALL).length);
      }
      if (kind === "queued") {
        const text = unquote(item);
        if (text !== undefined) stated.queued.push(text);
        continue;
      }
      const m = CALL.exec(item);
      const command = m?.[3] ? unquote(m[3]) : undefined;
      if (m) stated.calls.push({ name: m[1]!, callId: m[2]!, ...(command ? { command } : {}) });
    }
  }
  return stated;
}

function unquote(literal: string): string | undefined {
  try {
    const value: unknown = JSON.parse(literal);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function textOf(blocks: Block[]): string {
  return blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
}
