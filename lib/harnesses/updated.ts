/**
 * UPDATED, one rule for every harness: a session's last conversation activity, the time of its last message
 * (a user's, an assistant's, a tool call or its result) as the session itself records it. `list`, the TUI's
 * picker and the references that count sessions (`latest`, `latest~N`, `H~N`) all order by it
 * (lib/pipeline/newest.ts), so the order does not depend on how a session's files got where they are: a file
 * copied, touched or restored keeps its date, and a harness's own "updated" stamp (a title set, a summary
 * written, an index row rewritten) moves nothing. A handoff writes its handshake message with the time of the
 * handoff (lib/ir/clock.ts, handshakeTime), so the copy just made is the newest session in every harness.
 *
 * Where each harness's listing finds that time, and what it uses where the session records none:
 * - Claude Code: the last `user`, `assistant` or `system` record with a `timestamp`, read from the transcript's
 *   end (lib/io/last-line.ts); a transcript with none is dated by its file's time.
 * - Codex: the rollout's last `response_item` line (messages, reasoning, calls and their outputs), indexed or
 *   not; with none (or no rollout), the `threads` row's `updated_at`, else the file's time.
 * - Hermes: the newest `messages.timestamp` of the session's live tip; a session with no message its root's
 *   `started_at`. Of the files the database does not hold, a legacy transcript by its last message line (read
 *   from the end, its local time as Hermes wrote it); a snapshot (one JSON document) by its file's time.
 * - Gemini CLI: the newest message's `timestamp` in its log; with none, the log's `lastUpdated`.
 * - OpenCode: the newest `message.time_created` of the session; with none, the session's `time_updated`.
 * - Copilot CLI: the newest `user.message`, `assistant.message` or `tool.execution_complete` event; with none
 *   (never listed: such a folder holds no conversation), `workspace.yaml`'s `updated_at`.
 * - Pi: the newest `message` entry (any role, tool results included) or `custom_message` entry (the
 *   handshake); with none, the session header's `timestamp`.
 * A file that cannot be read at all is listed as unreadable, dated by its file's time.
 */

/**
 * A recorded time as `list` shows and compares it (ISO 8601 in UTC, to the millisecond, as toISOString writes
 * it): from text any date parser takes (an offset, no milliseconds) or milliseconds since the epoch. One form
 * for every harness, so sessions of different stores compare by their text. Undefined for no time at all.
 */
export function activityTime(value: unknown): string | undefined {
  const ms = typeof value === "string" ? Date.parse(value) : typeof value === "number" ? value : Number.NaN;
  if (!Number.isFinite(ms)) return undefined;
  const date = new Date(Math.round(ms));
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
