/**
 * Reading a Claude Code session from its store: the transcript and the subagent transcripts beside it
 * (`<dir>/<session-id>/subagents/agent-*.jsonl`), streamed into the codec (decode.ts).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Session } from "../../ir/schema.ts";
import type { SessionStream } from "../../ir/stream.ts";
import { DEFAULT_READ_LIMITS, openRecords, readJsonlBatches, streams } from "../../io/jsonl.ts";
import type { ReadOptions } from "../types.ts";
import { InputError } from "../../errors.ts";
import { decodeClaude, decodeClaudeStreamed, type TranscriptLines } from "./decode.ts";

export async function readClaudeSession(path: string, options: ReadOptions = {}): Promise<Session> {
  return await decodeClaude(transcriptLines(path, options), subagentLines(path, options));
}

/** The session to convert: held while it is small, its live thread streamed from the file once it is large. */
export async function openClaudeSession(path: string, options: ReadOptions = {}): Promise<SessionStream> {
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  if (existsSync(path) && !streams(statSync(path).size, limits)) {
    return await readClaudeSession(path, options);
  }
  return await decodeClaudeStreamed(transcriptLines(path, options), subagentLines(path, options), {
    open: () => openRecords(path, options.feedback),
  });
}

function subagentLines(path: string, options: ReadOptions): TranscriptLines[] {
  if (!existsSync(path)) throw new InputError(`${path}: no such session file`);
  const dir = join(dirname(path), basename(path, ".jsonl"), "subagents");
  return existsSync(dir)
    ? readdirSync(dir).filter((f) => f.endsWith(".jsonl")).sort().map((f) =>
      transcriptLines(join(dir, f), options)
    )
    : [];
}

/** A transcript's records, read lazily as the codec asks for them. */
function transcriptLines(
  path: string,
  { limits = DEFAULT_READ_LIMITS, feedback }: ReadOptions,
): TranscriptLines {
  const tail = {};
  return {
    path,
    lines: readJsonlBatches(path, tail, { maxRecordBytes: limits.maxRecordBytes, feedback }),
    tail,
  };
}
