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
import type { Block, Message } from "../ir/schema.ts";
import { escapeControls } from "../io/control-characters.ts";

/** session-bridge's own marker, inert inside moved text whatever harnesses are registered. */
const OWN_TAGS = ["session-bridge-handoff"];

/** The control tags to make inert: every registered harness's (its descriptor's `controlTags`) and ours. */
export interface ControlTags {
  readonly pattern: RegExp;
}

export function controlTags(harnessTags: readonly string[]): ControlTags {
  const tags = [...new Set([...harnessTags, ...OWN_TAGS])];
  const names = tags.map((t) => t.replace(/[-/\\^$*+?.()|[\]{}]/g, "\\$&")).join("|");
  return { pattern: new RegExp(`<(/?)(${names})(\\s[^<>]*)?>`, "gi") };
}

export function neutralizeText(text: string, tags: ControlTags): { text: string; changed: number } {
  let changed = 0;
  const out = text.replace(tags.pattern, (_m, slash: string, tag: string, rest: string | undefined) => {
    changed++;
    return `‹${slash}${tag}${rest ?? ""}›`;
  });
  return { text: out, changed };
}

/** What neutralizing changed so far: the report's counts. */
export interface NeutralizedCounts {
  /** Harness control tags made inert. */
  tags: number;
  /** Terminal control and bidi characters escaped. */
  controls: number;
}

/** A text made inert, counted into `counts`. */
export function neutralizeCounted(text: string, controlTags: ControlTags, counts: NeutralizedCounts): string {
  const t = neutralizeText(text, controlTags);
  const c = escapeControls(t.text);
  counts.tags += t.changed;
  counts.controls += c.changed;
  return c.text;
}

/** Neutralizes every text a message carries (not harness context, which targets never replay). */
export function neutralizeMessage(m: Message, controlTags: ControlTags, counts: NeutralizedCounts): Message {
  if (m.kind === "context") return m;
  const fix = (text: string) => neutralizeCounted(text, controlTags, counts);
  const block = (b: Block): Block => {
    if (b.type === "text") return { ...b, text: fix(b.text) };
    // A signed or encrypted reasoning block must stay byte-exact, or its provider rejects it.
    if (b.type === "reasoning" && !b.signature && !b.encrypted) return { ...b, text: fix(b.text) };
    if (b.type === "tool_result") {
      return { ...b, content: b.content.map((p) => (p.type === "text" ? { ...p, text: fix(p.text) } : p)) };
    }
    return b;
  };
  return { ...m, blocks: m.blocks.map(block) };
}
