/**
 * The picker's filter over first and last messages, as a hook: when fewer rows match than `wanted`, the
 * narrowed rows that did not match and were never read are read (search.ts's scanEnds) and handed to `onEnds`
 * in batches; a new query, narrowing or page starts over (rows read or being read are not read again).
 * Returns how far the reading is, while it runs.
 */
import { useEffect, useRef, useState } from "react";
import { readEnds, type TuiContext } from "./data.ts";
import type { Row } from "./row.ts";
import { type Ends, endsMatch, scanEnds } from "./search.ts";

/** How often rows read by the scan are shown: each redraw filters every row again. */
const SCAN_REDRAW_MS = 100;

export interface MessageScan {
  context: TuiContext;
  query: string;
  /** The rows the filter applies to (harness and directory narrowing done). */
  narrowed: readonly Row[];
  /** The rows it matched so far. */
  shown: readonly Row[];
  wanted: number;
  /** A row's first and last message, when read. */
  endsOf(row: Row): Ends | undefined;
  onEnds(read: [key: string, ends: Ends][]): void;
}

export function useMessageScan(
  { context, query, narrowed, shown, wanted, endsOf, onEnds }: MessageScan,
): { read: number; of: number } | undefined {
  const [scanning, setScanning] = useState<{ read: number; of: number } | undefined>(undefined);
  const reading = useRef(new Set<string>());
  useEffect(() => {
    const missing = wanted - shown.length;
    if (!query || missing <= 0) return;
    const matched = new Set(shown.map((r) => r.key));
    const candidates = narrowed.filter((r) =>
      !matched.has(r.key) && !endsOf(r) && !reading.current.has(r.key)
    );
    if (!candidates.length) return;
    let cancelled = false;
    let batch: [string, Ends][] = [];
    let read = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = () => {
      timer = undefined;
      if (batch.length) onEnds(batch);
      batch = [];
      if (!cancelled) setScanning({ read, of: candidates.length });
    };
    setScanning({ read, of: candidates.length });
    scanEnds({
      candidates,
      wanted: missing,
      read: (row) => {
        reading.current.add(row.key);
        return readEnds(context, row);
      },
      matches: (e) => endsMatch(query, e),
      onRead: (row, e) => {
        reading.current.delete(row.key);
        read++;
        batch.push([row.key, e]);
        timer ??= setTimeout(flush, SCAN_REDRAW_MS);
      },
      cancelled: () => cancelled,
    }).then(() => {
      if (timer) clearTimeout(timer);
      flush();
      if (!cancelled) setScanning(undefined);
    });
    return () => {
      cancelled = true;
      setScanning(undefined);
    };
  }, [query, narrowed, wanted]);

  return scanning;
}
