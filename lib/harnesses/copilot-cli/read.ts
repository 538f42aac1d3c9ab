/**
 * Reading a Copilot CLI session from its store: its events.jsonl decoded (decode.ts; streamed.ts once it is
 * large), named and placed as Copilot's own session list shows it, from the `workspace.yaml` beside it (its
 * `name`, the first prompt unless the user named it, and `cwd`), else from the events.
 */
import { statSync } from "node:fs";
import type { Session } from "../../ir/schema.ts";
import type { SessionStream } from "../../ir/stream.ts";
import { DEFAULT_READ_LIMITS, readJsonl, streams } from "../../io/jsonl.ts";
import { titleFromFirstUserText, titleLine } from "../../ir/summary.ts";
import type { ReadOptions } from "../types.ts";
import { decodeCopilot } from "./decode.ts";
import { decodeCopilotStreamed } from "./streamed.ts";
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
  return placed(session, path, () => titleFromFirstUserText(session));
}

/** The session to convert: held while it is small, its live thread streamed from the events once it is large. */
export async function openCopilotSession(path: string, options: ReadOptions = {}): Promise<SessionStream> {
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  if (!streams(statSync(path).size, limits)) return await readCopilotSession(path, options);
  const { maxRecordBytes } = limits;
  const { session, firstUserTitle } = await decodeCopilotStreamed({
    path,
    open: (start) => {
      const tail = {};
      return {
        lines: readJsonl(path, tail, {
          ...(start ? { start } : {}),
          maxRecordBytes,
          ...(options.feedback ? { feedback: options.feedback } : {}),
        }),
        tail,
      };
    },
  });
  return placed(session, path, () => firstUserTitle);
}

/** The session named and placed by its workspace.yaml, else titled by its first prompt. */
function placed<S extends SessionStream>(
  session: S,
  path: string,
  fromFirstPrompt: () => string | undefined,
): S {
  const workspace = readWorkspace(workspaceOf(path));
  const meta = session.meta;
  meta.title = (workspace.name ? titleLine(workspace.name) : undefined) ?? fromFirstPrompt();
  if (meta.title === undefined) delete meta.title;
  if (workspace.cwd) meta.cwd = workspace.cwd;
  return session;
}
