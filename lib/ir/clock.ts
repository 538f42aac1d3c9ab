import { InputError } from "../errors.ts";

/**
 * Timestamps for rendered records: the source's own times wherever it has them, and for gaps the previous time
 * plus a millisecond, so the target sees a monotonic history that never runs into the future.
 */
export class RecordClock {
  private last: number;
  /** The source time last read, parsed: a message's lines repeat its time. */
  private source = "";
  private parsed = Number.NaN;
  /**
   * The second last formatted and its text up to the milliseconds (lines come a millisecond apart), and the
   * minute's up to the seconds (a second's text is made from it and a table, no Date formatted for it).
   */
  private second = Number.NaN;
  private prefix = "";
  private minute = Number.NaN;
  private minutePrefix = "";

  constructor(private readonly now: Date, start?: string) {
    const parsed = start ? Date.parse(start) : Number.NaN;
    this.last = Number.isFinite(parsed) ? parsed - 1 : now.getTime() - 1;
  }

  /** The time last given, in milliseconds: for a payload that repeats it as a number (no text to parse back). */
  get lastMs(): number {
    return this.last;
  }

  next(source?: string): string {
    return this.iso(this.nextMs(source));
  }

  /** The next time as milliseconds since the epoch, for a writer that stores numbers (no text to parse back). */
  nextMs(source?: string): number {
    const parsed = this.sourceMs(source);
    const t = Number.isFinite(parsed) && parsed > this.last ? parsed : this.last + 1;
    this.last = Math.min(t, this.now.getTime());
    return this.last;
  }

  /**
   * A source time in milliseconds (NaN for none or no time), parsed once for the lines that repeat it: the
   * writer that asks for it first (a turn's id is minted from its first message's time) asks next() for it next.
   */
  sourceMs(source?: string): number {
    if (source !== this.source) {
      this.source = source ?? "";
      this.parsed = source ? Date.parse(source) : Number.NaN;
    }
    return this.parsed;
  }

  /**
   * `ms` as toISOString writes it, from the digits' tables: a Date is formatted only for a new minute, so a
   * record costs the one string it returns.
   */
  private iso(ms: number): string {
    const second = Math.floor(ms / 1000);
    if (second !== this.second) {
      const minute = Math.floor(second / 60);
      if (minute !== this.minute) {
        this.minute = minute;
        // "2026-01-01T00:00:00.000Z" up to its seconds' digits.
        this.minutePrefix = new Date(minute * 60_000).toISOString().slice(0, -7);
      }
      this.second = second;
      this.prefix = `${this.minutePrefix}${SECONDS[second - minute * 60]}.`;
    }
    return `${this.prefix}${DIGITS[ms - second * 1000]}Z`;
  }
}

/** 0 to 999 as three digits, as toISOString writes milliseconds; 0 to 59 as two, as it writes seconds. */
const DIGITS = Array.from({ length: 1000 }, (_, n) => String(n).padStart(3, "0"));
const SECONDS = DIGITS.slice(0, 60).map((d) => d.slice(1));

/**
 * The source time a handoff's handshake is written with: the handoff's own (`now`), not the last message's. The
 * handshake is then the copy's last message, so the copy is the newest session in whatever harness it went
 * into, as UPDATED orders them (lib/harnesses/updated.ts).
 */
export const handshakeTime = (now: Date): string => now.toISOString();

/**
 * A stored time (milliseconds since the epoch) as ISO 8601, or undefined when it is no time at all. Readers
 * refuse such a time where it is stored (assertRecordTime, assertStoredTime), so here it is only a guard.
 */
export function isoTime(ms: number): string | undefined {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/**
 * A record's time (ISO 8601 text) that no date can hold (a 13th month, a year past 275760, words) is bad input,
 * named by `where` (file and line): read as a missing time it would silently reorder or re-date the history.
 */
export function assertRecordTime(value: unknown, where: string, field: string): void {
  if (typeof value === "string" && Number.isNaN(Date.parse(value))) {
    throw new InputError(`${where}: ${field} ${shown(value)} is no time a date can hold`);
  }
}

/**
 * A database's time column (a number of `unit` milliseconds since the epoch; null is no time) holding what no
 * date can hold (a number beyond a Date's range, text, bytes) is bad input, named by `where` (database and row).
 */
export function assertStoredTime(value: unknown, unit: number, where: string, column: string): void {
  if (value === null || value === undefined) return;
  if (typeof value === "number" && !Number.isNaN(new Date(value * unit).getTime())) return;
  throw new InputError(`${where}: ${column} ${shown(value)} is no time a date can hold`);
}

function shown(value: unknown): string {
  if (typeof value === "string") {
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}...` : value);
  }
  if (value instanceof Uint8Array) return `(${value.length} bytes)`;
  return String(value);
}
