/**
 * Copilot CLI names a session by a random UUID (its folder under `session-state/`, `session.start`'s
 * `data.sessionId`), as it makes one for `--session-id`; lower case, as it writes them.
 */
import { InputError } from "../../errors.ts";
import { isUuid, newUuid } from "../../ids.ts";

export const newCopilotSessionId = (): string => newUuid();

/** Refuses a session id Copilot could not have made (exit 2, before any store is read). */
export function checkCopilotSessionId(id: string): string {
  if (!isUuid(id)) {
    // Worded as every harness refuses an id, as Claude Code's and Codex's UUIDs (tests/refusal-policy.test.ts).
    throw new InputError(`invalid session id ${JSON.stringify(id)}: expected a UUID`);
  }
  return id.toLowerCase();
}
