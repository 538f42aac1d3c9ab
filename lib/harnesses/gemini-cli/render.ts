/**
 * Rendering into Gemini CLI from the store's side. A Gemini CLI source with its file at hand is copied record by
 * record, only the session's id and project hash changed (copy.ts); any other source is rendered from the IR
 * (encode.ts), each model turn naming the model chosen for the target, else its own when Gemini knows it.
 */
import type { SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import { DEFAULT_READ_LIMITS, readJsonl } from "../../io/jsonl.ts";
import { encodeGemini } from "./encode.ts";
import { copyGemini } from "./copy.ts";
import { geminiModels } from "./models.ts";

export function renderGemini(session: SessionStream, options: RenderOptions): AsyncGenerator<string> {
  if (session.meta.harness === "gemini-cli" && session.meta.path) {
    const { maxRecordBytes } = options.limits ?? DEFAULT_READ_LIMITS;
    return copyGemini(readJsonl(session.meta.path, {}, { maxRecordBytes }), options);
  }
  return encodeGemini(
    session,
    options,
    (m) => options.model ?? (m.model !== undefined ? geminiModels.map(m.model) : undefined),
  );
}
