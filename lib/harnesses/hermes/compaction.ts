/**
 * Hermes's own compaction in place, as Hermes 0.19 stores it (fixtures/hermes/0.19.0/compressed-inplace.*,
 * agent/context_compressor.py): the rows it replaced stay in the session, set aside (`active = 0,
 * compacted = 1`, so its search still finds them and `hermes --resume` loads none), and the summary is an
 * active row in Hermes's own words around it (its prefix, then the end marker). A foreign compacted session
 * is written that way: its history on disk, its live thread from the summary on what the model is sent.
 */
import type { Message } from "../../ir/schema.ts";
import { pipeMessages, type SessionStream } from "../../ir/stream.ts";
import { compactionOf, summaryText } from "../../ir/compacted.ts";
import { foreignMessages, type RowStamp } from "./from-ir.ts";
import type { ExportedMessage } from "./rows.ts";
import { COMPACTION_MARKER } from "./to-ir.ts";

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

/** The rows of a foreign session: its compacted history set aside, then its live thread. */
export async function* foreignRows(session: SessionStream, stamp: RowStamp): AsyncGenerator<ExportedMessage> {
  const compaction = await compactionOf(session);
  if (!compaction) {
    yield* foreignMessages(session.messages, stamp);
    return;
  }
  for await (const row of foreignMessages(compaction.history, stamp)) {
    yield { ...row, active: 0, compacted: 1 };
  }
  const live = pipeMessages(session.messages, () => {
    let at = 0;
    return { next: (m) => [at++ === compaction.summaryAt ? inHermesWords(m) : m], end: () => [] };
  });
  yield* foreignMessages(live, stamp);
}

/** The summary as Hermes writes its own (a summary that came from Hermes has its words already). */
function inHermesWords(summary: Message): Message {
  const text = summaryText(summary);
  if (text.includes(COMPACTION_MARKER)) return summary;
  return { ...summary, blocks: [{ type: "text", text: `${SUMMARY_PREFIX}\n${text}\n\n${SUMMARY_END}` }] };
}
