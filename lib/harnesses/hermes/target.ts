/**
 * Everything a session becomes in Hermes: one `sessions` row and its `messages` rows, for `render` (as a
 * `sessions export` line) and `register` (as INSERTs) alike. Timestamps are the source's own (epoch seconds),
 * made monotonic and never later than now; the session is a plain `cli` session, so Hermes lists it.
 */
import type { OpenToolCall } from "../../ir/schema.ts";
import type { SessionHead, SessionStream } from "../../ir/stream.ts";
import { handshakeTime, RecordClock } from "../../ir/clock.ts";
import { INTERRUPTED_RESULT } from "../../handshake/handshake.ts";
import { markFailure } from "../../ir/tool-failure.ts";
import { contentFromBlocks } from "./content.ts";
import type { RenderOptions } from "../types.ts";
import { copiedMessages } from "./copy.ts";
import { foreignRows } from "./compaction.ts";
import { pyJson } from "./pyjson.ts";
import { blankMessage, type ExportedMessage, type HermesSessionsRow, hermesTitle, rowTime } from "./rows.ts";
import type { HermesSource } from "./source.ts";

export interface TargetSettings {
  /** The model the row records: the one the target Hermes routes to (see config.ts). */
  model: string | null;
  /** `sessions.profile_name`: the named profile the target home is, if it is one. */
  profile?: string;
  /** Store the handshake row as one text part (see register.ts, OLD_MERGING_GENERATION). */
  handshakeAsPart?: boolean;
}

/** Everything a session becomes in Hermes, made as it is read. */
export interface TargetRows {
  /**
   * The message rows, numbered from 1, each made as the thread (or, for a copy, the source's rows) is read:
   * one pass, nothing held. Iterable once.
   */
  messages: AsyncIterable<ExportedMessage>;
  /** The sessions row, once `messages` has been read: its counts and start come from the rows. */
  session(): HermesSessionsRow;
}

/** What the sessions row takes from the rows, counted as they pass. */
interface RowTally {
  /** Live rows (the ones Hermes loads) and the tool calls they make. */
  live: number;
  toolCalls: number;
  /** The first row's time. */
  first?: number;
}

/**
 * The rows of `session` for the target. `source` is a Hermes source's rows (the store loads them): they are
 * copied; without them the IR thread is rendered as rows.
 */
export function targetRows(
  session: SessionStream,
  options: RenderOptions,
  settings: TargetSettings,
  source?: HermesSource,
): TargetRows {
  const clock = new RecordClock(options.now, session.meta.createdAt);
  const made = source
    ? copiedMessages(source, options.id, clock)
    : foreignRows(session, { sessionId: options.id, clock });
  const tally: RowTally = { live: 0, toolCalls: 0 };
  async function* messages(): AsyncGenerator<ExportedMessage> {
    let id = 0;
    for await (const m of withPendingRows(made, session, options, clock, settings)) {
      m.id = ++id;
      tally.first ??= m.timestamp;
      if (m.active === 1) {
        tally.live++;
        tally.toolCalls += m.tool_calls?.length ?? 0;
      }
      yield m;
    }
  }
  return {
    messages: messages(),
    session: () =>
      sessionRow(
        source
          ? copiedSessionFields(source, session, options)
          : foreignSessionFields(session, options, tally.first),
        options,
        settings,
        tally,
      ),
  };
}

/** The rows with, as they pass, the interrupted results for open calls (--stub-open-calls), then the handshake. */
async function* withPendingRows(
  rows: Iterable<ExportedMessage> | AsyncIterable<ExportedMessage>,
  session: SessionHead,
  options: RenderOptions,
  clock: RecordClock,
  settings: TargetSettings,
): AsyncGenerator<ExportedMessage> {
  const stubs = options.stubOpenCalls
    ? new OpenCallStubs(session.pending.openToolCalls, options.id)
    : undefined;
  for await (const row of rows) {
    if (stubs) yield* stubs.next(row);
    yield row;
  }
  if (stubs) yield* stubs.end();
  const handshake = handshakeRow(options, clock);
  if (handshake && settings.handshakeAsPart) handshake.content = [{ type: "text", text: options.handshake! }];
  if (handshake) yield handshake;
}

/**
 * The handshake is a user row: Hermes sends it as the last history message before the new prompt, merged with
 * it into one user turn (repair_message_sequence), so every provider reads it. A system row would not do:
 * Hermes's Anthropic adapter makes any system message the system prompt, replacing Hermes's own.
 */
export function handshakeRow(options: RenderOptions, clock: RecordClock): ExportedMessage | undefined {
  if (!options.handshake) return undefined;
  return blankMessage({
    session_id: options.id,
    role: "user",
    timestamp: rowTime(clock, handshakeTime(options.now)),
    content: options.handshake,
  });
}

/**
 * Synthetic interrupted results for the calls still open, right after the results the calling row already
 * has, so every call is answered before the conversation goes on (what an OpenAI-style API requires). Rows
 * pass through one at a time: the calling row is the one that completes the open calls the thread holds, and
 * the stubs go before the first row after it that is not one of its results (or at the end).
 */
export class OpenCallStubs {
  private readonly ids: Set<string>;
  /** Open calls made in the thread whose calling row has not passed yet. */
  private readonly unseen: Set<string>;
  private closing = false;
  private done: boolean;
  /** The time of the row passed last. */
  private last = 0;

  constructor(private readonly open: OpenToolCall[], private readonly sessionId: string) {
    this.ids = new Set(open.map((c) => c.callId));
    this.unseen = new Set(open.filter((c) => c.messageUid).map((c) => c.callId));
    this.done = !open.length;
  }

  /** The stubs that go before `row`, if this is where they go. */
  next(row: ExportedMessage): ExportedMessage[] {
    const out = this.closing && !this.done && row.role !== "tool" ? this.stubs(row.timestamp) : [];
    if (!this.done && !this.closing && row.role === "assistant" && this.calls(row)) {
      this.closing = !this.unseen.size;
    }
    this.last = row.timestamp;
    return out;
  }

  /** The stubs still owed when the rows end. */
  end(): ExportedMessage[] {
    return this.done ? [] : this.stubs(Number.POSITIVE_INFINITY);
  }

  /** Whether the row calls an open call (marking the calls it makes as seen). */
  private calls(row: ExportedMessage): boolean {
    let calls = false;
    for (const c of row.tool_calls ?? []) {
      if (!this.ids.has(String(c.id))) continue;
      calls = true;
      this.unseen.delete(String(c.id));
    }
    return calls;
  }

  private stubs(before: number): ExportedMessage[] {
    this.done = true;
    return this.open.map((c, i) =>
      blankMessage({
        session_id: this.sessionId,
        role: "tool",
        timestamp: Math.min(this.last + (i + 1) * 1e-6, before),
        content: contentFromBlocks(markFailure([{ type: "text", text: INTERRUPTED_RESULT }], true)),
        tool_call_id: c.callId,
        tool_name: c.name,
      })
    );
  }
}

/** What a session row says that does not come from the target's settings. */
interface SessionFields {
  startedAt: number;
  systemPrompt: string | null;
  modelConfig: string | null;
}

function foreignSessionFields(session: SessionHead, options: RenderOptions, first?: number): SessionFields {
  const created = session.meta.createdAt ? Date.parse(session.meta.createdAt) / 1000 : Number.NaN;
  const start = first ?? options.now.getTime() / 1000;
  return {
    startedAt: Number.isFinite(created) ? Math.min(created, start) : start,
    systemPrompt: null,
    modelConfig: null,
  };
}

/** A copy keeps the conversation's start, Hermes's run settings and (see keptSystemPrompt) its prompt. */
function copiedSessionFields(
  source: HermesSource,
  session: SessionHead,
  options: RenderOptions,
): SessionFields {
  const live = source.chain.at(-1)!;
  return {
    startedAt: Math.min(source.chain[0]!.started_at ?? 0, options.now.getTime() / 1000),
    systemPrompt: keptSystemPrompt(source, session, options),
    modelConfig: withoutChildMarkers(live.model_config),
  };
}

/**
 * The stored system prompt names the working directory, so a copy keeps it only when it stays in the same one;
 * otherwise Hermes builds a fresh one.
 */
export function keptSystemPrompt(
  source: HermesSource,
  session: SessionHead,
  options: RenderOptions,
): string | null {
  return options.cwd === session.meta.cwd ? source.chain.at(-1)!.system_prompt ?? null : null;
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
  tally: RowTally,
): HermesSessionsRow {
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
    message_count: tally.live,
    tool_call_count: tally.toolCalls,
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
