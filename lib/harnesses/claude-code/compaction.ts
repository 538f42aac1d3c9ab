/**
 * Claude Code's own compaction, as the real binary writes it (fixtures/claude-code/<version>/compacted.jsonl,
 * checked by tests/claude-golden.test.ts): a `compact_boundary` system record that starts a new root
 * (parentUuid null) and points back at the last record it replaced (`logicalParentUuid`), then the summary as a
 * user record marked `isCompactSummary`. On resume Claude Code sends the model the chain from the boundary on,
 * so the history written before it stays on disk for the user to scroll and costs the model nothing.
 */
import type { Message } from "../../ir/schema.ts";
import { summaryText } from "../../ir/compacted.ts";
import type { ClaudeSystemRecord, ClaudeUserRecord } from "../../generated/claude-code/2.1.328.ts";
import { newUuid } from "../../ids.ts";

type Envelope = Pick<
  ClaudeUserRecord,
  "parentUuid" | "isSidechain" | "userType" | "cwd" | "sessionId" | "version"
>;

/** Characters a token, roughly: `preTokens` is only shown to the user, never sent. */
const CHARS_PER_TOKEN = 4;

/** The boundary after `replaced`, the uuid of the last history record written (none when none was). */
export function compactBoundary(
  history: Iterable<Message>,
  replaced: string | null,
  envelope: Envelope,
  timestamp: string,
): ClaudeSystemRecord & { uuid: string } {
  let chars = 0;
  for (const m of history) chars += JSON.stringify(m.blocks).length;
  return {
    ...envelope,
    parentUuid: null,
    logicalParentUuid: replaced,
    type: "system",
    subtype: "compact_boundary",
    content: "Conversation compacted",
    isMeta: false,
    timestamp,
    uuid: newUuid(),
    level: "info",
    compactMetadata: { trigger: "manual", preTokens: Math.ceil(chars / CHARS_PER_TOKEN) },
  };
}

/** The summary record: what the resumed model reads in place of the history, hidden in the transcript view. */
export function compactSummary(summary: Message, envelope: Envelope, timestamp: string): ClaudeUserRecord {
  return {
    ...envelope,
    type: "user",
    message: { role: "user", content: summaryText(summary) },
    isVisibleInTranscriptOnly: true,
    isCompactSummary: true,
    uuid: newUuid(),
    timestamp,
  };
}
