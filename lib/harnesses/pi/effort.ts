/**
 * The thinking level (Pi's reasoning effort) a Pi session runs at, as its file records it: the last
 * `thinking_level_change` entry's `thinkingLevel` (0.73.1 writes one when a session starts, at the level asked
 * with `--thinking` or its settings' default, and another at each change).
 */
import { piSessions } from "./home.ts";
import { sessionFiles } from "./locate.ts";
import { lastPicked } from "../../io/last-picked.ts";

export function storedThinkingLevel(id: string, home: string): string | undefined {
  const file = sessionFiles(piSessions(home)).find((path) => path.endsWith(`_${id}.jsonl`));
  if (!file) return undefined;
  return lastPicked(
    file,
    '"thinking_level_change"',
    (entry) =>
      entry.type === "thinking_level_change" && typeof entry.thinkingLevel === "string"
        ? entry.thinkingLevel
        : undefined,
  );
}
