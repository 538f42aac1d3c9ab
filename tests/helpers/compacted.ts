/**
 * A compacted session's two parts as text, to compare what a writer kept with what the source held: the
 * history before the compaction and the summary with the conversation after it.
 */
import type { Message, Session } from "../../lib/ir/schema.ts";
import { isHandshake } from "../../lib/handshake/handshake.ts";
import { readClaudeSession } from "../../lib/harnesses/claude-code/read.ts";

/** The compacted Claude Code session every hop-back test starts from (a real /compact, 2.1.332). */
export const CLAUDE_COMPACTED = new URL("../../fixtures/claude-code/2.1.332/compacted.jsonl", import.meta.url)
  .pathname;

/** The words of that session's summary that every writer must carry (its markup may be neutralized). */
export const SUMMARY_MARK = "COMPACT-SUMMARY: s-52fe4e60";

/** The conversation's words, `role: text`, one per message (what a harness injected and handshakes left out). */
export function conversationTexts(messages: Message[]): string[] {
  return messages.flatMap((m) => {
    if (m.kind === "context" || isHandshake(m)) return [];
    const text = m.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
    return text ? [`${m.role === "assistant" ? "assistant" : "user"}: ${text}`] : [];
  });
}

export interface CompactedParts {
  /** Every message before the compaction, oldest first. */
  history: string[];
  summary: string;
  /** The live thread after the summary. */
  after: string[];
}

/** A session's compacted history, its summary and what followed it, as text. */
export function compactedParts(session: Session): CompactedParts {
  const history = session.threads.filter((t) => t.kind === "compacted").flatMap((t) => t.messages);
  const at = session.messages.findIndex((m) => m.kind === "summary");
  const summary = session.messages[at];
  return {
    history: conversationTexts(history),
    summary: summary ? summary.blocks.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n") : "",
    after: conversationTexts(session.messages.slice(at + 1)),
  };
}

/** The source's parts, read with session-bridge's own Claude Code reader. */
export async function claudeCompactedParts(): Promise<CompactedParts> {
  return compactedParts(await readClaudeSession(CLAUDE_COMPACTED));
}
