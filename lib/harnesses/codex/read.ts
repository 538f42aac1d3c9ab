/**
 * Reading a Codex thread from its store: the rollout streamed into the codec (decode.ts), then the title the
 * rollout does not carry: the name the index of its home keeps, else the first prompt.
 */
import { existsSync, statSync } from "node:fs";
import type { Session } from "../../ir/schema.ts";
import type { SessionStream } from "../../ir/stream.ts";
import { DEFAULT_READ_LIMITS, readJsonl, streams } from "../../io/jsonl.ts";
import type { ReadOptions } from "../types.ts";
import { InputError } from "../../errors.ts";
import { titleFromFirstUserText } from "../../ir/summary.ts";
import { decodeCodex, decodeCodexStreamed } from "./decode.ts";
import { spillMessages } from "../../ir/spill.ts";
import { indexedName } from "./list.ts";

export async function readCodexSession(path: string, options: ReadOptions = {}): Promise<Session> {
  assertExists(path);
  const tail = {};
  const { maxRecordBytes } = options.limits ?? DEFAULT_READ_LIMITS;
  const { feedback } = options;
  const session = await decodeCodex({
    path,
    lines: readJsonl(path, tail, { maxRecordBytes, feedback }),
    tail,
  });
  return titled(session, path, () => titleFromFirstUserText(session));
}

/** The session to convert: held while it is small, its live thread streamed from the rollout once it is large. */
export async function openCodexSession(path: string, options: ReadOptions = {}): Promise<SessionStream> {
  assertExists(path);
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  if (!streams(statSync(path).size, limits)) return await readCodexSession(path, options);
  const { maxRecordBytes } = limits;
  const { feedback } = options;
  const { session, firstUserTitle } = await decodeCodexStreamed({
    path,
    open: (start) => {
      const tail = {};
      return {
        lines: readJsonl(path, tail, { ...(start ? { start } : {}), maxRecordBytes, feedback }),
        tail,
      };
    },
    spill: spillMessages,
  });
  return titled(session, path, () => firstUserTitle);
}

function assertExists(path: string) {
  if (!existsSync(path)) throw new InputError(`${path}: no such session file`);
}

/** The session with the name its home's index keeps, else the one its first prompt gives, unless it has one. */
function titled<S extends SessionStream>(
  session: S,
  path: string,
  fromFirstPrompt: () => string | undefined,
): S {
  session.meta.title ??= indexedName(path, session.meta.id) ?? fromFirstPrompt();
  return session;
}
