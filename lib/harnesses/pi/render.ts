/**
 * Rendering into Pi from the store's side: the IR as the entries 0.73.1 writes (encode.ts), the model the
 * session continues on named as Pi names it, with the wire API the target home's models.json (or Pi's
 * built-in providers) gives its provider, and the thinking level its settings start a session at.
 */
import type { SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import { DEFAULT_THINKING_LEVEL, encodePi, piModelRef } from "./encode.ts";
import { piApis, piThinkingLevel } from "./settings.ts";

/** The model the file continues on: the handoff's choice, else the source's last. */
export const continuedModel = (session: SessionStream, options: RenderOptions): string | undefined =>
  options.model ?? session.meta.models.at(-1);

export function renderPi(session: SessionStream, options: RenderOptions): AsyncGenerator<string> {
  const apiOf = piApis(options.home);
  const named = continuedModel(session, options);
  const model = named ? piModelRef(named, apiOf) : undefined;
  return encodePi(session, options, {
    ...(model ? { model } : {}),
    apiOf,
    thinkingLevel: options.home ? piThinkingLevel(options.home, options.cwd) : DEFAULT_THINKING_LEVEL,
  });
}
