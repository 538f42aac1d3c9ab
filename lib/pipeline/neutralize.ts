/**
 * Transcript text is data. When it moves to another harness it is made inert in two ways:
 * - tags that a harness treats as instructions (`<system-reminder>`, `<environment_context>`, our own handoff
 *   marker, ...) could pose as the target's own control messages, so their angle brackets become look-alike
 *   guillemets: readable, inert;
 * - terminal control sequences (ESC[31m, OSC titles and hyperlinks) and bidirectional overrides (U+202E) would
 *   act on the screen of whoever views the target's transcript, or make text read differently from what it is,
 *   so each such character is written as its visible `\uXXXX` escape, by the same function that guards the
 *   terminal (lib/io/control-characters.ts).
 * Same-harness copies keep the original bytes; this runs only on the way to another harness.
 */
import type { Block, Message, Session } from "../ir/schema.ts";
import { escapeControls } from "../io/control-characters.ts";

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

export interface Neutralized {
  session: Session;
  /** Harness control tags made inert. */
  tags: number;
  /** Terminal control and bidi characters escaped. */
  controls: number;
}

/** Neutralizes every text the conversation carries (not harness context, which targets never replay). */
export function neutralizeSession(session: Session): Neutralized {
  let tags = 0;
  let controls = 0;
  const fix = (text: string) => {
    const t = neutralizeText(text);
    const c = escapeControls(t.text);
    tags += t.changed;
    controls += c.changed;
    return c.text;
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
  const queuedInput = session.pending.queuedInput.map((q) => ({ ...q, text: fix(q.text) }));
  return {
    session: {
      ...session,
      messages: session.messages.map(message),
      pending: { ...session.pending, queuedInput },
    },
    tags,
    controls,
  };
}
