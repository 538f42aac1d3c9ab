/**
 * Rendering into Claude Code from the store's side: a Claude Code source's records are read from its file for
 * the codec to copy (write.ts), subagent transcripts likewise; any other source is rendered from the IR alone.
 */
import type { SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import { DEFAULT_READ_LIMITS, readJsonl } from "../../io/jsonl.ts";
import { copyRecords, encodeClaude } from "./write.ts";

export function renderClaude(
  session: SessionStream,
  options: RenderOptions,
  targetVersion?: string,
): AsyncGenerator<string> {
  const { maxRecordBytes } = options.limits ?? DEFAULT_READ_LIMITS;
  const source = session.meta.harness === "claude-code" && session.meta.path
    ? readJsonl(session.meta.path, {}, { maxRecordBytes, feedback: options.feedback })
    : undefined;
  return encodeClaude(session, options, targetVersion, source);
}

/** A subagent transcript of the source, retargeted to the new session. */
export function copyTranscript(
  path: string,
  options: Pick<RenderOptions, "id" | "cwd" | "model" | "limits" | "feedback">,
): AsyncGenerator<string> {
  const { maxRecordBytes } = options.limits ?? DEFAULT_READ_LIMITS;
  return copyRecords(readJsonl(path, {}, { maxRecordBytes, feedback: options.feedback }), options);
}
