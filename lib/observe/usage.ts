/**
 * Token and cost totals across many sessions, through the same replay and usageSummary as `events`: each
 * session's model responses are recorded in one in-memory event log under the group they count for (the
 * harness, the model, the session or the day), and the summary's `by_agent` is the table by that group.
 * Costs the harness did not record are estimates from the dated price table: how much of each group's cost is
 * estimated, and which models had no price (their tokens counted, their cost not), are reported beside it.
 */
import type { Message, Session } from "../ir/schema.ts";
import { EventLog, EventType, type UsageSummary, usageSummary } from "./event-log.ts";
import { CostBasis, PRICES_AS_OF } from "./prices.ts";
import { replaySession } from "./replay.ts";

export const USAGE_GROUPS = ["harness", "model", "session", "day"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export interface UsageRequest {
  by: UsageGroup;
  /** Only model responses at or after this time. */
  since?: Date;
}

export interface UsageReport extends UsageSummary {
  /** The part of `cost_usd` (in total and by group) estimated from the price table, not recorded. */
  estimated: { total: number; by_agent: Record<string, number> };
  /**
   * Models the price table has no price for, with the number of their model responses; session totals over
   * several models (which cannot be priced) under their names joined by " + ".
   */
  unpriced: Record<string, number>;
  /** The date of the price table the estimates come from. */
  pricesAsOf: string;
}

export function usageAcross(sessions: Iterable<Session>, { by, since }: UsageRequest): UsageReport {
  const log = new EventLog(":memory:", "usage");
  try {
    for (const session of sessions) {
      const events = replaySession(session, { countsOnly: true, agentOf: groupOf(by) }).filter((e) =>
        e.eventType === EventType.MODEL_RESPONSE && (!since || (e.ts ?? 0) >= since.getTime() / 1000)
      );
      // Run ids are per session; the log holds many sessions, so each run is named by its harness too.
      log.recordMany(events.map((e) => ({
        ...e,
        runId: e.runId ? `${session.meta.harness}:${e.runId}` : null,
      })));
    }
    return { ...usageSummary(log), ...pricing(log), pricesAsOf: PRICES_AS_OF };
  } finally {
    log.close();
  }
}

function pricing(log: EventLog): Pick<UsageReport, "estimated" | "unpriced"> {
  const estimated: UsageReport["estimated"] = { total: 0, by_agent: {} };
  const unpriced: Record<string, number> = {};
  for (const { payload: p } of log.query({ eventType: EventType.MODEL_RESPONSE })) {
    if (p.cost_basis === CostBasis.ESTIMATED && typeof p.cost_usd === "number") {
      const agent = String(p.agent_name ?? "unknown");
      estimated.total += p.cost_usd;
      estimated.by_agent[agent] = (estimated.by_agent[agent] ?? 0) + p.cost_usd;
    } else if (p.cost_basis === CostBasis.UNPRICED) {
      const model = Array.isArray(p.models)
        ? p.models.join(" + ")
        : typeof p.model === "string"
        ? p.model
        : "(no model recorded)";
      unpriced[model] = (unpriced[model] ?? 0) + 1;
    }
  }
  return { estimated, unpriced };
}

function groupOf(by: UsageGroup): (session: Session, message: Message | undefined) => string {
  switch (by) {
    case "harness":
      return (s) => s.meta.harness;
    case "model":
      return (s, m) => m?.model ?? s.meta.models[0] ?? "unknown";
    case "session":
      return (s) => `${s.meta.harness}:${s.meta.id}`;
    case "day":
      return (s, m) => (m?.timestamp ?? s.meta.updatedAt ?? s.meta.createdAt ?? "unknown").slice(0, 10);
  }
}
