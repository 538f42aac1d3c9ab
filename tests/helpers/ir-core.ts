/**
 * The conversation core every conversion must preserve: per API turn, the role and the blocks that carry
 * meaning (text, reasoning text, tool calls with their input, tool results with their pairing), in order.
 * Harness-injected context and the handoff handshake are not conversation and are left out.
 */
import type { Message } from "../../lib/ir/schema.ts";
import { isHandshake } from "../../lib/handshake/handshake.ts";

export type CoreBlock =
  | { t: "text"; text: string }
  | { t: "reasoning"; text: string }
  | { t: "call"; id: string; name: string; input: unknown }
  | { t: "result"; callId: string; text: string; isError: boolean };

export interface CoreTurn {
  role: "user" | "assistant";
  blocks: CoreBlock[];
}

/** Reasoning carried as text by a target that cannot hold it is still the same words. */
const REASONING_AS_TEXT = /^\[reasoning\] /;

export function conversationCore(messages: Message[]): CoreTurn[] {
  const turns: CoreTurn[] = [];
  for (const m of messages) {
    if (m.kind === "context" || isHandshake(m)) continue;
    const role = m.role === "assistant" ? "assistant" : "user";
    const blocks = m.blocks.flatMap((b): CoreBlock[] => {
      switch (b.type) {
        case "text":
          if (!b.text) return [];
          return REASONING_AS_TEXT.test(b.text)
            ? [{ t: "reasoning", text: b.text.replace(REASONING_AS_TEXT, "") }]
            : [{ t: "text", text: b.text }];
        case "reasoning":
          return b.text ? [{ t: "reasoning", text: b.text }] : [];
        case "tool_call":
          return [{ t: "call", id: b.id, name: b.name, input: b.input }];
        case "tool_result":
          return [{
            t: "result",
            callId: b.callId,
            isError: b.isError,
            text: b.content.map((p) => (p.type === "text" ? p.text : "")).join(""),
          }];
        default:
          return [];
      }
    });
    if (!blocks.length) continue;
    const last = turns.at(-1);
    if (last?.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks });
  }
  // Within a user turn, results come first (the API requires it), so order is compared per kind.
  for (const t of turns) {
    if (t.role === "user") t.blocks.sort((a, b) => Number(b.t === "result") - Number(a.t === "result"));
    // Adjacent texts (or reasoning texts) of one turn are the same words whether a harness keeps them as parts or
    // joins them (Hermes keeps one reasoning text per response, Gemini CLI one thought per summary).
    t.blocks = joinAdjacentTexts(t.blocks);
  }
  return turns;
}

function joinAdjacentTexts(blocks: CoreBlock[]): CoreBlock[] {
  const out: CoreBlock[] = [];
  for (const b of blocks) {
    const last = out.at(-1);
    if ((b.t === "text" || b.t === "reasoning") && last?.t === b.t) last.text = `${last.text}\n\n${b.text}`;
    else out.push({ ...b });
  }
  return out;
}
