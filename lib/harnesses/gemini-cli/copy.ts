/**
 * A Gemini CLI session copied into another session (or project): every record as it was written, but the
 * session's own id and project hash, on its metadata lines (one per run) and in `$set.sessionId` updates (one
 * per resume), the handshake of an earlier hop, which the new one replaces, and the user messages that only
 * repeat results the calls before them already hold: Gemini records a finished call's result in the call and
 * again as a user message, and replays both on resume (google-gemini/gemini-cli#29365), so the copy keeps the
 * one in the call, as encode.ts writes a call. Then the handshake is appended as encode.ts writes it.
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
  const answered = new Set<string>();
  let last: string | undefined;
  for await (const read of records) {
    const record = read.value;
    if (!isObject(record)) {
      yield read.text();
      continue;
    }
    if (typeof record.timestamp === "string") last = record.timestamp;
    if (isEarlierHandshake(record) || repeatsResults(record, answered)) continue;
    if (typeof record.sessionId === "string" && typeof record.projectHash === "string") {
      const same = record.sessionId === options.id && record.projectHash === hash;
      yield same ? read.text() : JSON.stringify({ ...record, sessionId: options.id, projectHash: hash });
      continue;
    }
    const set = isObject(record.$set) ? record.$set : undefined;
    if (set && Array.isArray(set.messages)) {
      // A checkpoint is a whole message list of its own: the repeats in it go the same way.
      const seen = new Set<string>();
      const messages = set.messages.filter((m) => !(isObject(m) && repeatsResults(m, seen)));
      const sessionId = typeof set.sessionId === "string" ? { sessionId: options.id } : {};
      yield JSON.stringify({ ...record, $set: { ...set, messages, ...sessionId } });
      continue;
    }
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

/**
 * Whether `record` is a user message holding only function responses to calls an earlier gemini record of the
 * same list answered in its `toolCalls` (and notes the calls a gemini record answers, in `answered`).
 */
function repeatsResults(record: Record<string, unknown>, answered: Set<string>): boolean {
  if (record.type === "gemini" && Array.isArray(record.toolCalls)) {
    for (const call of record.toolCalls) {
      if (isObject(call) && typeof call.id === "string" && Array.isArray(call.result) && call.result.length) {
        answered.add(call.id);
      }
    }
    return false;
  }
  if (record.type !== "user" || !Array.isArray(record.content) || !record.content.length) return false;
  return record.content.every((part) => {
    const response = isObject(part) && isObject(part.functionResponse) ? part.functionResponse : undefined;
    return typeof response?.id === "string" && answered.has(response.id);
  });
}
