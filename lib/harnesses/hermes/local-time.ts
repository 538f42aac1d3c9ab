/**
 * Hermes's file times: its legacy transcripts and snapshots write `datetime.now().isoformat()`, the machine's
 * local time with microseconds and no zone. Read by the file reader and by the listing, which loads no reader.
 */

/** Naive ISO local time (`datetime.now().isoformat()`, microseconds) to epoch seconds. */
export function localIsoSeconds(text: unknown): number | undefined {
  if (typeof text !== "string") return typeof text === "number" ? text : undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?$/.exec(text);
  if (!m) {
    const parsed = Date.parse(text);
    return Number.isFinite(parsed) ? parsed / 1000 : undefined;
  }
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  return new Date(y, mo - 1, d, h, mi, s).getTime() / 1000 + (m[7] ? Number(`0${m[7]}`) : 0);
}
