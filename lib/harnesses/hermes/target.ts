/**
 * Everything a session becomes in Hermes: one `sessions` row and its `messages` rows, for `render` (as a
 * `sessions export` line) and `register` (as INSERTs) alike. Timestamps are the source's own (epoch seconds),
 * made monotonic and never later than now; the session is a plain `cli` session, so Hermes lists it.
 */
import type { Session } from "../../ir/schema.ts";
import { RecordClock } from "../../ir/clock.ts";
import { INTERRUPTED_RESULT } from "../../handshake/handshake.ts";
import { markFailure } from "../../ir/tool-failure.ts";
import { contentFromBlocks } from "./content.ts";
import type { RenderOptions } from "../types.ts";
import { copiedMessages } from "./copy.ts";
import { foreignMessages, type RowStamp } from "./from-ir.ts";
import { pyJson } from "./pyjson.ts";
import {
  blankMessage,
  type ExportedMessage,
  type HermesSessionsRow,
  hermesTitle,
  rowTime,
  type TargetRows,
} from "./rows.ts";
import type { HermesSource } from "./source.ts";

export interface TargetSettings {
  /** The model the row records: the one the target Hermes routes to (see config.ts). */
  model: string | null;
  /** `sessions.profile_name`: the named profile the target home is, if it is one. */
  profile?: string;
}

/**
 * The rows of `session` for the target. `source` is a Hermes source's rows (the store loads them): they are
 * copied; without them the IR is rendered as rows.
 */
export function targetRows(
  session: Session,
  options: RenderOptions,
  settings: TargetSettings,
  source?: HermesSource,
): TargetRows {
  const clock = new RecordClock(options.now, session.meta.createdAt);
  const stamp: RowStamp = { sessionId: options.id, clock };
  const messages = source ? copiedMessages(source, options.id, clock) : foreignMessages(session, stamp);
  addPendingRows(messages, session, options, clock);
  messages.forEach((m, i) => (m.id = i + 1));
  const base = source
    ? copiedSessionFields(source, session, options)
    : foreignSessionFields(session, options, messages);
  return { session: sessionRow(base, options, settings, messages), messages };
}

/** With --stub-open-calls, interrupted results for the open calls; then the resume handshake, last. */
export function addPendingRows(
  rows: ExportedMessage[],
  session: Session,
  options: RenderOptions,
  clock: RecordClock,
): void {
  if (options.stubOpenCalls) stubOpenCalls(rows, session, options.id);
  if (options.handshake) {
    // The handshake is a user row: Hermes sends it as the last history message before the new prompt, merged
    // with it into one user turn (repair_message_sequence), so every provider reads it. A system row would not
    // do: Hermes's Anthropic adapter makes any system message the system prompt, replacing Hermes's own.
    rows.push(blankMessage({
      session_id: options.id,
      role: "user",
      timestamp: rowTime(clock),
      content: options.handshake,
    }));
  }
}

/**
 * Synthetic interrupted results for the calls still open, right after the results the calling row already
 * has, so every call is answered before the conversation goes on (what an OpenAI-style API requires).
 */
function stubOpenCalls(rows: ExportedMessage[], session: Session, sessionId: string): void {
  const open = session.pending.openToolCalls;
  if (!open.length) return;
  const ids = new Set(open.map((c) => c.callId));
  const caller = rows.findLastIndex((r) =>
    r.role === "assistant" && !!r.tool_calls?.some((c) => ids.has(String(c.id)))
  );
  let at = caller === -1 ? rows.length : caller + 1;
  while (rows[at]?.role === "tool") at++;
  const after = rows[at - 1]?.timestamp ?? 0;
  const before = rows[at]?.timestamp ?? Number.POSITIVE_INFINITY;
  rows.splice(
    at,
    0,
    ...open.map((c, i) =>
      blankMessage({
        session_id: sessionId,
        role: "tool",
        timestamp: Math.min(after + (i + 1) * 1e-6, before),
        content: contentFromBlocks(markFailure([{ type: "text", text: INTERRUPTED_RESULT }], true)),
        tool_call_id: c.callId,
        tool_name: c.name,
      })
    ),
  );
}

/** What a session row says that does not come from the target's settings. */
interface SessionFields {
  startedAt: number;
  systemPrompt: string | null;
  modelConfig: string | null;
}

function foreignSessionFields(
  session: Session,
  options: RenderOptions,
  rows: ExportedMessage[],
): SessionFields {
  const created = session.meta.createdAt ? Date.parse(session.meta.createdAt) / 1000 : Number.NaN;
  const first = rows[0]?.timestamp ?? options.now.getTime() / 1000;
  return {
    startedAt: Number.isFinite(created) ? Math.min(created, first) : first,
    systemPrompt: null,
    modelConfig: null,
  };
}

/**
 * A copy keeps the conversation's start and Hermes's run settings. The stored system prompt names the working
 * directory, so it is kept only when the copy stays in the same one; otherwise Hermes builds a fresh one.
 */
function copiedSessionFields(source: HermesSource, session: Session, options: RenderOptions): SessionFields {
  const live = source.chain.at(-1)!;
  return {
    startedAt: Math.min(source.chain[0]!.started_at ?? 0, options.now.getTime() / 1000),
    systemPrompt: options.cwd === session.meta.cwd ? live.system_prompt ?? null : null,
    modelConfig: withoutChildMarkers(live.model_config),
  };
}

/** Branch and subagent markers would hide the copy from Hermes's listing. */
function withoutChildMarkers(config: string | null | undefined): string | null {
  if (!config) return null;
  try {
    const parsed = JSON.parse(config) as Record<string, unknown>;
    delete parsed._branched_from;
    delete parsed._delegate_from;
    return pyJson(parsed, { ensureAscii: true });
  } catch {
    return config;
  }
}

function sessionRow(
  fields: SessionFields,
  options: RenderOptions,
  settings: TargetSettings,
  messages: ExportedMessage[],
): HermesSessionsRow {
  const live = messages.filter((m) => m.active === 1);
  return {
    id: options.id,
    source: "cli",
    user_id: null,
    session_key: null,
    chat_id: null,
    chat_type: null,
    thread_id: null,
    display_name: null,
    origin_json: null,
    expiry_finalized: 0,
    model: settings.model,
    model_config: fields.modelConfig,
    system_prompt: fields.systemPrompt,
    parent_session_id: null,
    started_at: fields.startedAt,
    ended_at: null,
    end_reason: null,
    message_count: live.length,
    tool_call_count: live.reduce((n, m) => n + (m.tool_calls?.length ?? 0), 0),
    // Counters, billing and cost describe API calls this Hermes made; it fills them from its next turn on.
    input_tokens: 0,
    output_tokens: 0,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    cwd: options.cwd || null,
    git_branch: null,
    git_repo_root: null,
    billing_provider: null,
    billing_base_url: null,
    billing_mode: null,
    estimated_cost_usd: null,
    actual_cost_usd: null,
    cost_status: null,
    cost_source: null,
    pricing_version: null,
    title: hermesTitle(options.title) ?? null,
    api_call_count: 0,
    handoff_state: null,
    handoff_platform: null,
    handoff_error: null,
    compression_failure_cooldown_until: null,
    compression_failure_error: null,
    compression_fallback_streak: 0,
    profile_name: settings.profile ?? null,
    rewind_count: 0,
    archived: 0,
  };
}
