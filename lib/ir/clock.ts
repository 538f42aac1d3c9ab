/**
 * Timestamps for rendered records: the source's own times wherever it has them, and for gaps the previous time
 * plus a millisecond, so the target sees a monotonic history that never runs into the future.
 */
export class RecordClock {
  private last: number;

  constructor(private readonly now: Date, start?: string) {
    const parsed = start ? Date.parse(start) : Number.NaN;
    this.last = Number.isFinite(parsed) ? parsed - 1 : now.getTime() - 1;
  }

  next(source?: string): string {
    const parsed = source ? Date.parse(source) : Number.NaN;
    const t = Number.isFinite(parsed) && parsed > this.last ? parsed : this.last + 1;
    this.last = Math.min(t, this.now.getTime());
    return new Date(this.last).toISOString();
  }
}

/**
 * A stored time (milliseconds since the epoch) as ISO 8601, or undefined when it is no time at all: NaN from a
 * text column, or a number beyond what a Date can hold. A store's odd value is then treated as a missing one
 * instead of ending the read with "Invalid Date".
 */
export function isoTime(ms: number): string | undefined {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
