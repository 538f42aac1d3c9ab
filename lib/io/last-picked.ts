/**
 * The last thing `pick` finds among the records of a JSONL file, read a line at a time (readJsonl: memory
 * follows the longest record, a broken interior line is an input error naming file and line): what a store
 * says last about a setting it records as it changes (an engine's effort, lib/harnesses/{pi,copilot-cli}/effort.ts).
 */
import { readJsonl } from "./jsonl.ts";
import { type JsonRecord, recordOf } from "./json-line.ts";

export async function lastPicked<T>(
  path: string,
  pick: (record: JsonRecord) => T | undefined,
): Promise<T | undefined> {
  let last: T | undefined;
  for await (const line of readJsonl(path)) last = pick(recordOf(line.value)) ?? last;
  return last;
}
