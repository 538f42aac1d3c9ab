/**
 * The envelope of every rollout line: an RFC 3339 timestamp that never runs backwards, and in paginated history a
 * strictly increasing `ordinal` (a missing or repeated one freezes the thread's history in Codex).
 */
import type { RecordClock } from "../../ir/clock.ts";

export interface RolloutLine<T extends string, P> {
  timestamp: string;
  ordinal?: number;
  type: T;
  payload: P;
}

export class LineWriter {
  constructor(
    private readonly clock: RecordClock,
    private readonly paginated: boolean,
    private ordinal = 0,
  ) {}

  /**
   * One serialized line; `at` is the source's time for it, if it had one. A payload that repeats the line's
   * time (started_at, completed_at_ms) is built from it.
   */
  line<T extends string, P>(type: T, payload: P | ((timestamp: string) => P), at?: string): string {
    const timestamp = this.clock.next(at);
    const body = typeof payload === "function" ? (payload as (timestamp: string) => P)(timestamp) : payload;
    const record: RolloutLine<T, P> = this.paginated
      ? { timestamp, ordinal: this.ordinal++, type, payload: body }
      : { timestamp, type, payload: body };
    return JSON.stringify(record);
  }
}
