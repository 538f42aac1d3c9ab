/**
 * Transcript text is data. When it moves to another harness, tags that a harness treats as instructions
 * (`<system-reminder>`, `<environment_context>`, our own handoff marker, ...) could pose as the target's own
 * control messages, so their angle brackets become look-alike guillemets: readable, inert.
 */
import type { Block, Message, Session } from "../ir/schema.ts";

const CONTROL_TAGS = [
  "system-reminder",
  "environment_context",
  "user_instructions",
  "developer_instructions",
  "permissions instructions",
  "session-bridge-handoff",
  "command-name",
  "command-message",
  "command-args",
  "local-command-stdout",
  "local-command-stderr",
  "task-notification",
  "turn_aborted",
  "user_shell_command",
  "INSTRUCTIONS",
];

const PATTERN = new RegExp(
  `<(/?)(${CONTROL_TAGS.map((t) => t.replace(/[-/\\^$*+?.()|[\]{}]/g, "\\$&")).join("|")})(\\s[^<>]*)?>`,
  "gi",
);

export function neutralizeText(text: string): { text: string; changed: number } {
  let changed = 0;
  const out = text.replace(PATTERN, (_m, slash: string, tag: string, rest: string | undefined) => {
    changed++;
    return `‹${slash}${tag}${rest ?? ""}›`;
  });
  return { text: out, changed };
}

/** Neutralizes every text the conversation carries (not harness context, which targets never replay). */
export function neutralizeSession(session: Session): { session: Session; neutralized: number } {
  let neutralized = 0;
  const fix = (text: string) => {
    const r = neutralizeText(text);
    neutralized += r.changed;
    return r.text;
  };
  const block = (b: Block): Block => {
    if (b.type === "text") return { ...b, text: fix(b.text) };
    // A signed or encrypted reasoning block must stay byte-exact, or its provider rejects it.
    if (b.type === "reasoning" && !b.signature && !b.encrypted) return { ...b, text: fix(b.text) };
    if (b.type === "tool_result") {
      return { ...b, content: b.content.map((p) => (p.type === "text" ? { ...p, text: fix(p.text) } : p)) };
    }
    return b;
  };
  const message = (m: Message): Message => (m.kind === "context" ? m : { ...m, blocks: m.blocks.map(block) });
  return { session: { ...session, messages: session.messages.map(message) }, neutralized };
}
