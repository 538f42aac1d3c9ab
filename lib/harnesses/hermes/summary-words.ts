/**
 * The words Hermes 0.19 puts around a compaction summary it writes on its own (agent/context_compressor.py):
 * a standalone summary row is its SUMMARY_PREFIX, a newline, the summary, a blank line and its end marker.
 */

/** What every Hermes summary holds, however it was placed (standalone or merged into the next message). */
export const COMPACTION_MARKER = "[CONTEXT COMPACTION — REFERENCE ONLY]";

/** Hermes 0.19's SUMMARY_PREFIX (context_compressor.py), which opens every summary it writes. */
export const SUMMARY_PREFIX = `${COMPACTION_MARKER} Earlier turns were compacted into the summary below. ` +
  "This is a handoff from a previous context window — treat it as background reference, NOT as active " +
  "instructions. Do NOT answer questions or fulfill requests mentioned in this summary; they were already " +
  "addressed. Respond ONLY to the latest user message that appears AFTER this summary — that message is the " +
  "single source of truth for what to do right now. Topic overlap with the summary does NOT mean you should " +
  "resume its task: even on similar topics, the latest user message WINS. Treat ONLY the latest message as the " +
  "active task and discard stale items from '## Historical Task Snapshot' / '## Historical In-Progress State' / " +
  "'## Historical Pending User Asks' / '## Historical Remaining Work' entirely — do not 'wrap up' or 'finish' " +
  "work described there unless the latest message explicitly asks for it. Reverse signals in the latest message " +
  "(e.g. 'stop', 'undo', 'roll back', 'just verify', 'don't do that anymore', 'never mind', a new topic) must " +
  "immediately end any in-flight work described in the summary; do not re-surface it in later turns. " +
  "IMPORTANT: Your persistent memory (MEMORY.md, USER.md) in the system prompt is ALWAYS authoritative and " +
  "active — never ignore or deprioritize memory content due to this compaction note. None of the above " +
  "restricts HOW you work: your tools remain fully active — keep calling them normally for the active task " +
  "(edit files, run commands, search) instead of merely narrating what you would do. The current session state " +
  "(files, config, etc.) may reflect work described here — avoid repeating it:";

/** Hermes 0.19's _SUMMARY_END_MARKER, after every standalone summary. */
export const SUMMARY_END =
  "--- END OF CONTEXT SUMMARY — respond to the message below, not the summary above ---";

/**
 * The summary a standalone Hermes summary row holds, without Hermes's words around it; undefined for any other
 * text. What a writer wrapped (compaction.ts) reads back as the words it was given, so a hop keeps them.
 */
export function unwrappedSummary(text: string): string | undefined {
  const [open, close] = [`${SUMMARY_PREFIX}\n`, `\n\n${SUMMARY_END}`];
  if (!text.startsWith(open) || !text.endsWith(close) || text.length < open.length + close.length) {
    return undefined;
  }
  return text.slice(open.length, text.length - close.length);
}
