/**
 * A long Claude Code session for the bench, built from the records real Claude Code 2.1.328 wrote
 * (fixtures/claude-code/2.1.328/thinking-tool-use.jsonl): its turn (user -> assistant thinking -> tool_use ->
 * tool_result -> assistant text) repeated and chained by parentUuid, each text padded so that 70 MB holds about
 * 40,000 records. Written as it is generated, so a 700 MB session never sits in memory.
 */
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { randomUUID } from "node:crypto";

const FIXTURE = fileURLToPath(
  new URL("../fixtures/claude-code/2.1.328/thinking-tool-use.jsonl", import.meta.url),
);
const FILLER = "The quick brown fox refactors the parser module and re-runs the suite. ".repeat(24);
const FLUSH_BYTES = 1 << 20;

type Json = Record<string, unknown>;

/** The conversation records of the fixture's one turn, in order. */
function turnTemplates(): Json[] {
  return readFileSync(FIXTURE, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Json)
    .filter((r) => r.type === "user" || r.type === "assistant");
}

function padded(template: Json): Json {
  const record = structuredClone(template);
  const message = record.message as { content: unknown };
  if (typeof message.content === "string") message.content = `${message.content} ${FILLER}`;
  else if (Array.isArray(message.content)) {
    for (const block of message.content as Json[]) {
      if (typeof block.text === "string") block.text = `${block.text} ${FILLER}`;
    }
  }
  return record;
}

export interface Generated {
  bytes: number;
  records: number;
}

export interface SessionShape {
  /** The session's id and working directory (default: the fixture's). */
  sessionId?: string;
  cwd?: string;
  /** When its first record was written. */
  start?: Date;
}

/** Writes a session of at least `megabytes` MB to `path` (replacing it); returns its size and record count. */
export function generateClaudeSession(path: string, megabytes: number, shape: SessionShape = {}): Generated {
  const templates = turnTemplates().map(padded);
  const target = megabytes * 1024 * 1024;
  const fd = openSync(path, "w");
  const start = (shape.start ?? new Date("2026-01-01T00:00:00Z")).getTime();
  const own = {
    ...(shape.sessionId ? { sessionId: shape.sessionId } : {}),
    ...(shape.cwd ? { cwd: shape.cwd } : {}),
  };
  let [bytes, records, pending] = [0, 0, ""];
  let parent: string | null = null;
  try {
    do {
      for (const template of templates) {
        const uuid = randomUUID();
        const line = `${
          JSON.stringify({
            ...template,
            ...own,
            uuid,
            parentUuid: parent,
            timestamp: new Date(start + records * 1000).toISOString(),
          })
        }\n`;
        pending += line;
        bytes += Buffer.byteLength(line);
        parent = uuid;
        records++;
        if (pending.length >= FLUSH_BYTES) {
          writeSync(fd, pending);
          pending = "";
        }
      }
    } while (bytes < target);
    if (pending) writeSync(fd, pending);
  } finally {
    closeSync(fd);
  }
  return { bytes, records };
}
