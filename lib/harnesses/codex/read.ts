/**
 * Reading a Codex thread from its store: the rollout streamed into the codec (decode.ts), then the title the
 * rollout does not carry: the name the index of its home keeps, else the first prompt.
 */
import { existsSync } from "node:fs";
import type { Session } from "../../ir/schema.ts";
import { readJsonl } from "../../io/jsonl.ts";
import { InputError } from "../../errors.ts";
import { titleFromFirstUserText } from "../../ir/summary.ts";
import { decodeCodex } from "./decode.ts";
import { indexedName } from "./list.ts";

export async function readCodexSession(path: string): Promise<Session> {
  if (!existsSync(path)) throw new InputError(`${path}: no such session file`);
  const tail = {};
  const session = await decodeCodex({ path, lines: readJsonl(path, tail), tail });
  session.meta.title ??= indexedName(path, session.meta.id) ?? titleFromFirstUserText(session);
  return session;
}
