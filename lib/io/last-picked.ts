/**
 * What `pick` finds in the last record of a JSONL file that has it, read from the end (lastLineWhere: windows
 * of at most a few MB, a line longer than any record a reader takes passed over): what a store says last about
 * a setting it records as it changes (an engine's effort, lib/harnesses/*\/effort.ts). Only lines holding
 * `marker` are decoded and parsed.
 */
import { lastLineWhere } from "./last-line.ts";
import { jsonLine, type JsonRecord } from "./json-line.ts";

export function lastPicked<T>(
  path: string,
  marker: string,
  pick: (record: JsonRecord) => T | undefined,
): T | undefined {
  return lastLineWhere(path, (line) => {
    if (!line.includes(marker)) return undefined;
    const record = jsonLine(line.toString("utf8"));
    return record ? pick(record) : undefined;
  }).value;
}
