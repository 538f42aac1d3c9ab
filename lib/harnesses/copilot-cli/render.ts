/**
 * Rendering into Copilot CLI from the store's side: the IR as the events 1.0.102 writes (encode.ts), every
 * assistant message naming the model chosen for the target, else its own when Copilot knows it, and the
 * startup model change naming the model the session continues on.
 */
import type { SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import { encodeCopilot, type EncodedSummary, type EncodeSettings } from "./encode.ts";
import { copilotModels } from "./models.ts";

/** The version whose events the writer writes (the pinned one). */
export const WRITTEN_VERSION = "1.0.102";

/** What the events take from the target: the version, and the models they name. */
export function encodeSettings(session: SessionStream, options: RenderOptions): EncodeSettings {
  const last = session.meta.models.at(-1);
  const model = options.model ?? (last !== undefined ? copilotModels.map(last) : undefined);
  return {
    version: options.targetVersion ?? WRITTEN_VERSION,
    modelFor: (m) => options.model ?? (m.model !== undefined ? copilotModels.map(m.model) : undefined),
    ...(model ? { model } : {}),
  };
}

export function renderCopilot(
  session: SessionStream,
  options: RenderOptions,
  summary?: EncodedSummary,
): AsyncGenerator<string> {
  return encodeCopilot(session, options, encodeSettings(session, options), summary);
}
