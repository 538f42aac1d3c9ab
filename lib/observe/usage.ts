/**
 * Token and cost totals across many sessions, through the same replay and usageSummary as `events`: each
 * session's model responses are recorded in one in-memory event log under the group they count for (the
 * harness, the model, the session or the day), and the summary's `by_agent` is the table by that group.
 */
import type { Message, Session } from "../ir/schema.ts";
import { EventLog, EventType, type UsageSummary, usageSummary } from "./event-log.ts";
import { replaySession } from "./replay.ts";

export const USAGE_GROUPS = ["harness", "model", "session", "day"] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

export interface UsageRequest {
  by: UsageGroup;
  /** Only model responses at or after this time. */
  since?: Date;
}

export function usageAcross(sessions: Iterable<Session>, { by, since }: UsageRequest): UsageSummary {
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
    return usageSummary(log);
  } finally {
    log.close();
  }
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
