/** A line of a harness's JSON-lines output as an object, or undefined for anything else (banners, blanks). */
export type JsonRecord = { [key: string]: unknown };

export function jsonLine(line: string): JsonRecord | undefined {
  if (!line.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? value as JsonRecord
      : undefined;
  } catch {
    return undefined;
  }
}

/** A field of such a line that should hold an object: that object, or an empty one for anything else. */
export function recordOf(value: unknown): JsonRecord {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? value as JsonRecord : {};
}

/** A field that should hold a count (tokens): that count, or 0 for anything else. */
export function countOf(value: unknown): number {
  return typeof value === "number" && value >= 0 ? value : 0;
}
