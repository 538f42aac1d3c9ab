/**
 * The thinking level (Pi's reasoning effort) a Pi session runs at, as its file records it: the last
 * `thinking_level_change` entry's `thinkingLevel` (0.73.1 writes one when a session starts, at the level asked
 * with `--thinking` or its settings' default, and another at each change). The file is read a line at a time;
 * only lines naming that entry type are parsed.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { piSessions } from "./home.ts";
import { sessionFiles } from "./locate.ts";
import { jsonLine } from "../../io/json-line.ts";

export async function storedThinkingLevel(id: string, home: string): Promise<string | undefined> {
  const file = sessionFiles(piSessions(home)).find((path) => path.endsWith(`_${id}.jsonl`));
  if (!file) return undefined;
  let level: string | undefined;
  for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
    if (!line.includes('"thinking_level_change"')) continue;
    const entry = jsonLine(line);
    if (entry?.type === "thinking_level_change" && typeof entry.thinkingLevel === "string") {
      level = entry.thinkingLevel;
    }
  }
  return level;
}
