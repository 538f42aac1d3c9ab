/**
 * The event log on SQLite, table for table LazyBridge 1.8.3's (`lazybridge/session.py` EventLog), so its
 * EventLog reads what we write and the other way round: WAL and a busy timeout for files, payloads as JSON
 * text, `ts` in seconds since the epoch.
 */
import { DatabaseSync } from "node:sqlite";
import type { JsonValue } from "./redact.ts";

/** LazyBridge's EventType values. */
export const EventType = {
  AGENT_START: "agent_start",
  AGENT_FINISH: "agent_finish",
  LOOP_STEP: "loop_step",
  MODEL_REQUEST: "model_request",
  MODEL_RESPONSE: "model_response",
  TOOL_CALL: "tool_call",
  TOOL_RESULT: "tool_result",
  TOOL_ERROR: "tool_error",
  TOOL_TIMEOUT: "tool_timeout",
  HIL_DECISION: "hil_decision",
} as const;
export type EventType = typeof EventType[keyof typeof EventType];

export type Payload = { [key: string]: JsonValue };

export interface EventRecord {
  eventType: EventType | string;
  payload: Payload;
  runId?: string | null;
  /** Seconds since the epoch; now when absent. */
  ts?: number;
}

export interface StoredEvent {
  id: number;
  event_type: string;
  run_id: string | null;
  payload: Payload;
  ts: number;
}

const SCHEMA = `CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL,
    run_id TEXT,
    event_type TEXT NOT NULL,
    payload TEXT NOT NULL,
    ts REAL NOT NULL
)`;
const BUSY_TIMEOUT_MS = 5000;

export class EventLog {
  #db: DatabaseSync | undefined;

  constructor(readonly path: string, readonly sessionId: string) {
    const db = new DatabaseSync(path);
    if (path !== ":memory:") {
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
      db.exec("PRAGMA journal_mode = WAL");
    }
    db.exec(SCHEMA);
    this.#db = db;
  }

  #open(): DatabaseSync {
    if (!this.#db) throw new Error(`event log ${this.path} is closed`);
    return this.#db;
  }

  record(event: EventRecord): void {
    this.recordMany([event]);
  }

  /** Writes every event in one transaction: all of them or none. */
  recordMany(events: readonly EventRecord[]): void {
    const db = this.#open();
    const insert = db.prepare(
      "INSERT INTO events (session_id, run_id, event_type, payload, ts) VALUES (?, ?, ?, ?, ?)",
    );
    db.exec("BEGIN IMMEDIATE");
    try {
      for (const e of events) {
        insert.run(
          this.sessionId,
          e.runId ?? null,
          e.eventType,
          JSON.stringify(e.payload),
          e.ts ?? Date.now() / 1000,
        );
      }
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }

  query({ eventType, runId }: { eventType?: EventType | string; runId?: string } = {}): StoredEvent[] {
    let sql = "SELECT id, event_type, run_id, payload, ts FROM events WHERE session_id = ?";
    const params: string[] = [this.sessionId];
    if (runId) (sql += " AND run_id = ?", params.push(runId));
    if (eventType) (sql += " AND event_type = ?", params.push(eventType));
    const rows = this.#open().prepare(`${sql} ORDER BY id ASC`).all(...params);
    return rows.map((r) => ({
      id: Number(r.id),
      event_type: String(r.event_type),
      run_id: r.run_id === null ? null : String(r.run_id),
      payload: JSON.parse(String(r.payload)) as Payload,
      ts: Number(r.ts),
    }));
  }

  /** Idempotent. */
  close(): void {
    this.#db?.close();
    this.#db = undefined;
  }
}

export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
}
export interface UsageSummary {
  total: UsageTotals;
  by_agent: Record<string, UsageTotals>;
  by_run: Record<string, UsageTotals & { agent_name: string }>;
}

function count(value: JsonValue | undefined): number {
  return typeof value === "number" ? value : 0;
}

/** Token and cost totals over MODEL_RESPONSE events, attributed as LazyBridge's usage_summary does. */
export function usageSummary(log: EventLog): UsageSummary {
  const runAgent = new Map<string, string>();
  for (const row of log.query({ eventType: EventType.AGENT_START })) {
    if (row.run_id) runAgent.set(row.run_id, String(row.payload.agent_name ?? "unknown"));
  }
  const zero = (): UsageTotals => ({ input_tokens: 0, output_tokens: 0, cost_usd: 0 });
  const summary: UsageSummary = { total: zero(), by_agent: {}, by_run: {} };
  for (const row of log.query({ eventType: EventType.MODEL_RESPONSE })) {
    const p = row.payload;
    const agent = p.agent_name ? String(p.agent_name) : (row.run_id && runAgent.get(row.run_id)) || "unknown";
    const add = (t: UsageTotals) => {
      t.input_tokens += count(p.input_tokens);
      t.output_tokens += count(p.output_tokens);
      t.cost_usd += count(p.cost_usd);
    };
    add(summary.total);
    add(summary.by_agent[agent] ??= zero());
    if (row.run_id) add(summary.by_run[row.run_id] ??= { agent_name: agent, ...zero() });
  }
  return summary;
}
