/**
 * Reading a Claude Code session from its store: the transcript and the subagent transcripts beside it
 * (`<dir>/<session-id>/subagents/agent-*.jsonl`), streamed into the codec (decode.ts).
 */
import { existsSync, readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Session } from "../../ir/schema.ts";
import { readJsonl } from "../../io/jsonl.ts";
import { InputError } from "../../errors.ts";
import { decodeClaude, type TranscriptLines } from "./decode.ts";

export async function readClaudeSession(path: string): Promise<Session> {
  if (!existsSync(path)) throw new InputError(`${path}: no such session file`);
  const dir = join(dirname(path), basename(path, ".jsonl"), "subagents");
  const subagents = existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort().map((f) => transcriptLines(join(dir, f)))
    : [];
  return await decodeClaude(transcriptLines(path), subagents);
}

/** A transcript's records, read lazily as the codec asks for them. */
function transcriptLines(path: string): TranscriptLines {
  const tail = {};
  return { path, lines: readJsonl(path, tail), tail };
}
