/** Reading a Copilot CLI session (the decoder comes in the next commit). */
import type { Session } from "../../ir/schema.ts";
import { RefusedError } from "../../errors.ts";

export function readCopilotSession(path: string): Promise<Session> {
  return Promise.reject(new RefusedError(`${path}: reading GitHub Copilot CLI sessions is not built yet`));
}
