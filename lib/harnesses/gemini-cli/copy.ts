/**
 * A Gemini CLI session copied into another session (or project): every record as it was written, but the
 * session's own id and project hash, on its metadata lines (one per run) and in `$set.sessionId` updates (one
 * per resume), and the handshake of an earlier hop, which the new one replaces. Then the handshake is appended
 * as encode.ts writes it.
 */
import type { JsonlLine } from "../../io/jsonl.ts";
import type { RenderOptions } from "../types.ts";
import { isObject } from "../../io/json.ts";
import { startsWithHandshake } from "../../handshake/handshake.ts";
import { handshakeLines, projectHash } from "./encode.ts";

export async function* copyGemini(
  records: AsyncIterable<JsonlLine>,
  options: Pick<RenderOptions, "id" | "cwd" | "handshake" | "now">,
): AsyncGenerator<string> {
  const hash = projectHash(options.cwd);
  let last: string | undefined;
  for await (const read of records) {
    const record = read.value;
    if (!isObject(record)) {
      yield read.text();
      continue;
    }
    if (typeof record.timestamp === "string") last = record.timestamp;
    if (isEarlierHandshake(record)) continue;
    if (typeof record.sessionId === "string" && typeof record.projectHash === "string") {
      const same = record.sessionId === options.id && record.projectHash === hash;
      yield same ? read.text() : JSON.stringify({ ...record, sessionId: options.id, projectHash: hash });
      continue;
    }
    const set = isObject(record.$set) ? record.$set : undefined;
    if (set && typeof set.sessionId === "string" && set.sessionId !== options.id) {
      yield JSON.stringify({ ...record, $set: { ...set, sessionId: options.id } });
      continue;
    }
    yield read.text();
  }
  if (options.handshake) yield* handshakeLines(options.handshake, options.now, last);
}

/** Our own handshake message: a user message whose text starts with the marker. */
function isEarlierHandshake(record: Record<string, unknown>): boolean {
  if (record.type !== "user" || typeof record.id !== "string" || !Array.isArray(record.content)) return false;
  const first = record.content[0];
  return isObject(first) && typeof first.text === "string" && startsWithHandshake(first.text);
}
