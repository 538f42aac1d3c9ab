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
  // Most text has no tag at all: the engine's indexOf answers that faster than the pattern can.
  if (!text.includes("<")) return { text, changed: 0 };
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

/**
 * Neutralizes every text a message carries (not harness context, which targets never replay). What needs no
 * change is passed on as it is, not copied: a held thread keeps both the source's messages and these.
 */
export function neutralizeMessage(m: Message, controlTags: ControlTags, counts: NeutralizedCounts): Message {
  if (m.kind === "context") return m;
  const fix = (text: string) => neutralizeCounted(text, controlTags, counts);
  const block = (b: Block): Block => {
    if (b.type === "text" || (b.type === "reasoning" && !b.signature && !b.encrypted)) {
      // A signed or encrypted reasoning block must stay byte-exact, or its provider rejects it.
      const text = fix(b.text);
      return text === b.text ? b : { ...b, text };
    }
    if (b.type === "tool_result") {
      const content = changedOrSame(b.content, (p) => {
        if (p.type !== "text") return p;
        const text = fix(p.text);
        return text === p.text ? p : { ...p, text };
      });
      return content === b.content ? b : { ...b, content };
    }
    return b;
  };
  const blocks = changedOrSame(m.blocks, block);
  return blocks === m.blocks ? m : { ...m, blocks };
}

/** `items` mapped through `each`, or `items` itself when `each` changed none of them. */
function changedOrSame<T>(items: T[], each: (item: T) => T): T[] {
  let out: T[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = each(items[i]!);
    if (item !== items[i] && !out) out = items.slice(0, i);
    out?.push(item);
  }
  return out ?? items;
}
