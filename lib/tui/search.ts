/**
 * The filter over sessions' first and last messages: the listing carries no message text (only a title), so
 * when the filter matches too few sessions by their short fields, sessions are read (a few at a time, newest
 * first) for their first and last message, until enough match or every one has been read. A newer filter
 * stops the reading of the older one. Nothing here renders.
 */
import type { Row } from "./row.ts";

/** A session's first prompt and last message, as much as the filter looks at. */
export interface Ends {
  first?: string;
  last?: string;
}

/** How many sessions are read at once: reading is parsing, and the machine has other work (and 2 cores). */
export const SCAN_CONCURRENCY = 2;

/** Text kept per message for matching: a 1 MB pasted prompt is not held for every session of a filter. */
const KEPT = 4096;

export const keptEnds = (first: string | undefined, last: string | undefined): Ends => ({
  ...(first === undefined ? {} : { first: first.slice(0, KEPT) }),
  ...(last === undefined ? {} : { last: last.slice(0, KEPT) }),
});

/** The query as a plain, case-insensitive substring of either message (fuzzy over long text matches anything). */
export function endsMatch(query: string, ends: Ends): boolean {
  const q = query.toLowerCase();
  return [ends.first, ends.last].some((t) => t?.toLowerCase().includes(q));
}

export interface Scan {
  /** Rows not matched by their short fields and not yet read, in the order to read them. */
  candidates: readonly Row[];
  /** How many of them must match for the scan to stop early. */
  wanted: number;
  read(row: Row): Promise<Ends>;
  matches(ends: Ends): boolean;
  /** Each row read (or that failed to read: empty ends, so it is not read again). */
  onRead(row: Row, ends: Ends): void;
  /** Set once the filter changed: no further session is read. */
  cancelled(): boolean;
}

/** Reads candidates SCAN_CONCURRENCY at a time until `wanted` match, all are read, or the scan is cancelled. */
export async function scanEnds(scan: Scan): Promise<void> {
  let next = 0;
  let found = 0;
  const worker = async () => {
    while (next < scan.candidates.length && found < scan.wanted && !scan.cancelled()) {
      const row = scan.candidates[next++]!;
      const ends = await scan.read(row).catch((): Ends => ({}));
      if (scan.matches(ends)) found++;
      scan.onRead(row, ends);
    }
  };
  await Promise.all(Array.from({ length: SCAN_CONCURRENCY }, worker));
}
