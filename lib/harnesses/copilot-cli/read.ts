/**
 * Reading a Copilot CLI session from its store: its events.jsonl decoded (decode.ts), named and placed as
 * Copilot's own session list shows it, from the `workspace.yaml` beside it (its `name`, the first prompt unless
 * the user named it, and `cwd`), else from the events.
 */
import type { Session } from "../../ir/schema.ts";
import { DEFAULT_READ_LIMITS, readJsonl } from "../../io/jsonl.ts";
import { titleFromFirstUserText, titleLine } from "../../ir/summary.ts";
import type { ReadOptions } from "../types.ts";
import { decodeCopilot } from "./decode.ts";
import { workspaceOf } from "./locate.ts";
import { readWorkspace } from "./workspace.ts";

export async function readCopilotSession(path: string, options: ReadOptions = {}): Promise<Session> {
  const { maxRecordBytes } = options.limits ?? DEFAULT_READ_LIMITS;
  const tail = {};
  const session = await decodeCopilot({
    path,
    lines: readJsonl(path, tail, {
      maxRecordBytes,
      ...(options.feedback ? { feedback: options.feedback } : {}),
    }),
    tail,
  });
  const workspace = readWorkspace(workspaceOf(path));
  const meta = session.meta;
  meta.title = (workspace.name ? titleLine(workspace.name) : undefined) ?? titleFromFirstUserText(session);
  if (meta.title === undefined) delete meta.title;
  if (workspace.cwd) meta.cwd = workspace.cwd;
  return session;
}
