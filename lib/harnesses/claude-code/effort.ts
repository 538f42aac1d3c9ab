/**
 * The reasoning effort a Claude Code conversation runs at, as its transcript records it: the `effort` of its
 * last assistant record (2.1.328 stamps each with the effort its request asked for: `--effort`, else the
 * model's default, `medium` in every captured fixture). Its stream-json output states none.
 */
import { basename } from "node:path";
import { transcriptPaths } from "./locate.ts";
import { lastPicked } from "../../io/last-picked.ts";

export function recordedEffort(id: string, home: string): string | undefined {
  const file = transcriptPaths(home).find((path) => basename(path) === `${id}.jsonl`);
  if (!file) return undefined;
  return lastPicked(
    file,
    '"effort"',
    (record) => record.type === "assistant" && typeof record.effort === "string" ? record.effort : undefined,
  );
}
