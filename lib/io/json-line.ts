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
