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
import { COMPACTION_MARKER, SUMMARY_END, SUMMARY_PREFIX } from "./summary-words.ts";

/** The rows of a foreign session: its compacted history set aside, then its live thread. */
export async function* foreignRows(session: SessionStream, stamp: RowStamp): AsyncGenerator<ExportedMessage> {
  const compaction = await compactionOf(session);
  if (!compaction) {
    yield* foreignMessages(session.messages, stamp);
    return;
  }
  for await (const row of foreignMessages(compaction.history, stamp)) {
    // Each row is made fresh for this pass: set aside where it is, not copied (a long history has tens of
    // thousands).
    row.active = 0;
    row.compacted = 1;
    yield row;
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
