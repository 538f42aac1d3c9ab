/**
 * Rendering into Codex from the store's side: the Codex to write for is detected in the target home (or the
 * defaults, without one), and a Codex source's rollout is read for the codec to copy (write.ts).
 */
import type { SessionHead, SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import { DEFAULT_READ_LIMITS, type JsonlLine, readJsonl } from "../../io/jsonl.ts";
import { type CodexTarget, defaultTarget, detectTarget } from "./target.ts";
import { isCopy, renderRollout } from "./write.ts";
import { deferredIterable } from "../../io/deferred.ts";

export function renderCodex(session: SessionStream, options: RenderOptions): AsyncIterable<string> {
  // Each line goes straight from the writer to the consumer, not through a wrapper generator.
  return deferredIterable(async () => {
    const target = options.home
      ? await detectTarget(options.home, options.targetVersion)
      : defaultTarget(options.targetVersion);
    return rolloutLines(session, options, target);
  });
}

/** The rendered rollout, the source's records read from its file when the session is copied. */
export function rolloutLines(
  session: SessionStream,
  options: RenderOptions,
  target: CodexTarget,
): AsyncGenerator<string> {
  return renderRollout(session, options, target, sourceRecords(session, options));
}

/** A Codex source's rollout records, for a copy; none for any other source. */
export function sourceRecords(
  session: SessionHead,
  { limits = DEFAULT_READ_LIMITS, feedback }: Pick<RenderOptions, "limits" | "feedback">,
): AsyncGenerator<JsonlLine> | undefined {
  return isCopy(session)
    ? readJsonl(session.meta.path!, {}, { maxRecordBytes: limits.maxRecordBytes, feedback })
    : undefined;
}
