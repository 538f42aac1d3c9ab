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
   * The next line's time, `at` being the source's time for it if it had one: taken first by a line whose payload
   * repeats it (started_at, completed_at_ms), then given to lineAt, so no payload is built in a closure per line.
   */
  time(at?: string): string {
    return this.clock.next(at);
  }

  /** The source's time `at` in milliseconds (NaN for none), parsed once for this and the time() that follows. */
  sourceMs(at?: string): number {
    return this.clock.sourceMs(at);
  }

  /** The time time() last gave, in milliseconds (a payload's `started_at`, `completed_at_ms`), not parsed back. */
  lastMs(): number {
    return this.clock.lastMs;
  }

  /** One serialized line at `timestamp`, which time() gave it. */
  lineAt<T extends string, P>(timestamp: string, type: T, payload: P): string {
    const record: RolloutLine<T, P> = this.paginated
      ? { timestamp, ordinal: this.ordinal++, type, payload }
      : { timestamp, type, payload };
    return JSON.stringify(record);
  }

  /** One serialized line; `at` is the source's time for it, if it had one. */
  line<T extends string, P>(type: T, payload: P, at?: string): string {
    return this.lineAt(this.time(at), type, payload);
  }
}
