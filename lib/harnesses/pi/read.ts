/**
 * Reading a Pi session file into the codec (decode.ts). The live branch is known only from the file's last
 * entry, and any earlier entry may be on it: a small file is read whole; a large one is indexed, its records
 * read again by their place as its threads are built.
 */
import { existsSync, statSync } from "node:fs";
import type { Session } from "../../ir/schema.ts";
import type { SessionStream } from "../../ir/stream.ts";
import { DEFAULT_READ_LIMITS, openRecords, readJsonl, streams } from "../../io/jsonl.ts";
import type { ReadOptions } from "../types.ts";
import { InputError } from "../../errors.ts";
import { spillMessages } from "../../ir/spill.ts";
import { decodePi, decodePiStreamed, type SessionLines } from "./decode.ts";

export async function readPiSession(path: string, options: ReadOptions = {}): Promise<Session> {
  return await decodePi(sessionLines(path, options));
}

/** The session to convert: held while it is small, its live thread streamed from the file once it is large. */
export async function openPiSession(path: string, options: ReadOptions = {}): Promise<SessionStream> {
  if (!existsSync(path)) throw new InputError(`${path}: no such session file`);
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  if (!streams(statSync(path).size, limits)) return await readPiSession(path, options);
  return await decodePiStreamed({
    ...sessionLines(path, options),
    open: () => openRecords(path, options.feedback),
    spill: spillMessages,
  });
}

function sessionLines(path: string, options: ReadOptions): SessionLines {
  const { maxRecordBytes } = options.limits ?? DEFAULT_READ_LIMITS;
  const tail = {};
  return { path, lines: readJsonl(path, tail, { maxRecordBytes, feedback: options.feedback }), tail };
}
