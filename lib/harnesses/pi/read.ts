/**
 * Reading a Pi session file into the codec (decode.ts). The file is read whole: the live branch is known only
 * from its last entry, and any earlier entry may be on it.
 */
import type { Session } from "../../ir/schema.ts";
import { DEFAULT_READ_LIMITS, readJsonl } from "../../io/jsonl.ts";
import type { ReadOptions } from "../types.ts";
import { decodePi } from "./decode.ts";

export async function readPiSession(path: string, options: ReadOptions = {}): Promise<Session> {
  const { maxRecordBytes } = options.limits ?? DEFAULT_READ_LIMITS;
  const tail = {};
  return await decodePi({
    path,
    lines: readJsonl(path, tail, { maxRecordBytes, feedback: options.feedback }),
    tail,
  });
}
