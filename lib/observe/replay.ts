/**
 * A harness session (the IR) as LazyBridge events: each user turn a run (agent start and finish), each model
 * response with the token usage the harness recorded, tool calls, results and errors. Subagent and sidechain
 * threads are runs of their own, nested under the turn they ran in (`parent_run_id`).
 *
 * Usage: Claude Code records it per response (split records of one response repeat it, so it is counted once
 * per provider message id); Codex (`token_count`) and Hermes (session columns, with cost) record only session
 * totals, which become one model response at the session's end marked `usage_scope: "session"`.
 * `input_tokens` is every prompt token the model read, cached or not (as OpenAI reports it); the cached part
 * is also given apart as `cache_read_tokens` and `cache_write_tokens`.
 *
 * Cost: the harness's own (Hermes) as `cost_basis: "recorded"`; otherwise estimated from the dated price
 * table (`cost_basis: "estimated"`, with `prices_as_of`), or `cost_basis: "unpriced"` and no `cost_usd` for a
 * model the table does not have (or session totals spread over several models).
 */
import type { Block, Message, Session, Usage } from "../ir/schema.ts";
import { type EventRecord, EventType, type Payload } from "./event-log.ts";
import { CostBasis, estimateCost, PRICES_AS_OF } from "./prices.ts";

export interface ReplayOptions {
  /** The agent name model responses are counted under (usage groups by it); the harness name by default. */
  agentOf?: (session: Session, message: Message | undefined) => string;
  /** Leave message text, tool arguments and results out (usage needs only the counts). */
  countsOnly?: boolean;
}

export function replaySession(session: Session, options: ReplayOptions = {}): EventRecord[] {
  const events: EventRecord[] = [];
  const agentOf = options.agentOf ?? ((s: Session) => s.meta.harness);
  const fallbackTs = seconds(session.meta.createdAt) ?? seconds(session.meta.updatedAt) ?? 0;
  const perMessage = [session.messages, ...session.threads.map((t) => t.messages)].some((ms) =>
    ms.some((m) => m.usage)
  );
  const counted = new Set<string>();
  let lastTs = fallbackTs;
  const tsOf = (m: Message | undefined) => (lastTs = seconds(m?.timestamp) ?? lastTs);

  const runOf = (prefix: string, n: number) => `${session.meta.id}:${prefix}${n}`;
  let run: { id: string; start: Message } | undefined;
  let turn = 0;
  const turnStarts: { id: string; ts: number }[] = [];
  const finish = (ts: number) => {
    if (!run) return;
    events.push({ eventType: EventType.AGENT_FINISH, runId: run.id, ts, payload: agentPayload(session) });
    run = undefined;
  };

  const replayMessages = (messages: Message[], runId: () => string | null) => {
    for (const m of messages) {
      const ts = tsOf(m);
      const id = runId();
      if (m.role === "assistant") {
        events.push(...responseEvents(session, m, id, ts, perMessage, counted, agentOf, options));
      }
      events.push(...toolEvents(m, id, ts, options));
    }
  };

  for (const m of session.messages) {
    const ts = tsOf(m);
    if (m.role === "user" && m.kind === "turn" && m.blocks.some((b) => b.type === "text")) {
      finish(ts);
      run = { id: runOf("turn-", ++turn), start: m };
      turnStarts.push({ id: run.id, ts });
      events.push({
        eventType: EventType.AGENT_START,
        runId: run.id,
        ts,
        payload: { ...agentPayload(session), ...(options.countsOnly ? {} : { task: textOf(m.blocks) }) },
      });
      continue;
    }
    const id = run?.id ?? null;
    if (m.role === "assistant") {
      events.push(...responseEvents(session, m, id, ts, perMessage, counted, agentOf, options));
    }
    events.push(...toolEvents(m, id, ts, options));
  }
  finish(lastTs);

  session.threads.forEach((thread, i) => {
    const id = runOf(`${thread.kind}-`, i + 1);
    const first = seconds(thread.messages[0]?.timestamp) ?? lastTs;
    // A subagent or sidechain ran inside the turn that was under way when it started.
    const parent = turnStarts.findLast((t) => t.ts <= first) ?? turnStarts[0];
    events.push({
      eventType: EventType.AGENT_START,
      runId: id,
      ts: first,
      payload: {
        ...agentPayload(session),
        thread_kind: thread.kind,
        thread_id: thread.id,
        ...(parent ? { parent_run_id: parent.id } : {}),
      },
    });
    replayMessages(thread.messages, () => id);
    events.push({ eventType: EventType.AGENT_FINISH, runId: id, ts: lastTs, payload: agentPayload(session) });
  });

  const total = session.meta.usage;
  if (!perMessage && (total || session.meta.costUsd !== undefined)) {
    const ts = seconds(session.meta.updatedAt) ?? lastTs;
    // Totals over several models cannot be priced: which model read which tokens is not recorded.
    const model = session.meta.models.length === 1 ? session.meta.models[0] : undefined;
    events.push({
      eventType: EventType.MODEL_RESPONSE,
      runId: turn ? runOf("turn-", turn) : null,
      ts,
      payload: {
        agent_name: agentOf(session, undefined),
        usage_scope: "session",
        ...(session.meta.models[0] ? { model: session.meta.models[0] } : {}),
        ...(session.meta.models.length > 1 ? { models: session.meta.models } : {}),
        ...(total ? tokens(total) : {}),
        ...costOf(model, total, session.meta.costUsd),
      },
    });
  }
  return events;
}

function agentPayload(session: Session): Payload {
  return {
    agent_name: session.meta.harness,
    ...(session.meta.provider ? { provider: session.meta.provider } : {}),
    ...(session.meta.models[0] ? { model: session.meta.models[0] } : {}),
  };
}

function responseEvents(
  session: Session,
  m: Message,
  runId: string | null,
  ts: number,
  perMessage: boolean,
  counted: Set<string>,
  agentOf: (session: Session, message: Message | undefined) => string,
  options: ReplayOptions,
): EventRecord[] {
  const text = textOf(m.blocks);
  const key = m.providerMessageId ?? m.uid;
  const usage = perMessage && m.usage && !counted.has(key) ? m.usage : undefined;
  if (usage) counted.add(key);
  if (!usage && !text) return [];
  const model = m.model ?? session.meta.models[0];
  return [{
    eventType: EventType.MODEL_RESPONSE,
    runId,
    ts,
    payload: {
      agent_name: agentOf(session, m),
      ...(model ? { model } : {}),
      ...(m.agentId ? { subagent: m.agentId } : {}),
      ...(usage ? usagePayload(model, usage) : {}),
      ...(text && !options.countsOnly ? { content: text } : {}),
    },
  }];
}

function toolEvents(m: Message, runId: string | null, ts: number, options: ReplayOptions): EventRecord[] {
  const events: EventRecord[] = [];
  for (const b of m.blocks) {
    if (b.type === "tool_call") {
      events.push({
        eventType: EventType.TOOL_CALL,
        runId,
        ts,
        payload: {
          tool: b.name,
          call_id: b.id,
          ...(options.countsOnly ? {} : { arguments: JSON.stringify(b.input ?? null) }),
        },
      });
    } else if (b.type === "tool_result") {
      const text = textOf(b.content);
      events.push({
        eventType: b.isError ? EventType.TOOL_ERROR : EventType.TOOL_RESULT,
        runId,
        ts,
        payload: {
          call_id: b.callId,
          ...(options.countsOnly ? {} : b.isError ? { error: text } : { result: text }),
        },
      });
    }
  }
  return events;
}

/**
 * A model response's token counts and cost, as the replay records them: the harness's own cost if it gave one,
 * else the price table's estimate (or unpriced). For a live turn's usage too (lib/engines).
 */
export function usagePayload(model: string | undefined, usage: Usage, recordedCost?: number): Payload {
  return { ...tokens(usage), ...costOf(model, usage, recordedCost) };
}

function tokens(u: Usage): Payload {
  return {
    input_tokens: u.inputTokens + u.cacheReadTokens + u.cacheWriteTokens,
    output_tokens: u.outputTokens,
    cache_read_tokens: u.cacheReadTokens,
    cache_write_tokens: u.cacheWriteTokens,
  };
}

/** The harness's cost if it recorded one, else the price table's estimate; nothing for no tokens at all. */
function costOf(model: string | undefined, usage: Usage | undefined, recorded: number | undefined): Payload {
  if (recorded !== undefined) return { cost_usd: recorded, cost_basis: CostBasis.RECORDED };
  if (!usage) return {};
  const counts = {
    input: usage.inputTokens,
    output: usage.outputTokens,
    cacheRead: usage.cacheReadTokens,
    cacheWrite: usage.cacheWriteTokens,
  };
  if (!counts.input && !counts.output && !counts.cacheRead && !counts.cacheWrite) return {};
  const cost = model === undefined ? undefined : estimateCost(model, counts);
  if (cost === undefined) return { cost_basis: CostBasis.UNPRICED };
  return { cost_usd: cost, cost_basis: CostBasis.ESTIMATED, prices_as_of: PRICES_AS_OF };
}

function textOf(blocks: readonly { type: string }[]): string {
  return blocks.filter((b): b is Extract<Block, { type: "text" }> => b.type === "text").map((b) => b.text)
    .join("\n");
}

function seconds(iso: string | undefined): number | undefined {
  if (!iso) return undefined;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? undefined : ms / 1000;
}
