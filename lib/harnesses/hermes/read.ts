/** Reading a Hermes conversation from its store: the source's rows loaded (source.ts), then decoded. */
import type { Session } from "../../ir/schema.ts";
import type { SessionStream } from "../../ir/stream.ts";
import { DEFAULT_READ_LIMITS } from "../../io/jsonl.ts";
import type { ReadOptions } from "../types.ts";
import { decodeHermes, decodeHermesStreamed } from "./decode.ts";
import { loadSource } from "./source.ts";
import { spillMessages } from "../../ir/spill.ts";

export async function readHermesSession(path: string, options: ReadOptions = {}): Promise<Session> {
  return decodeHermes(await loadSource(path, options));
}

/**
 * The session to convert: held while its rows are small, its live thread streamed from the database once they
 * are large. Export lines, snapshots and gateway transcripts are JSON files read whole, and are always held.
 */
export async function openHermesSession(path: string, options: ReadOptions = {}): Promise<SessionStream> {
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  const source = await loadSource(path, options);
  return source.storesAtLeast?.(limits.streamFromBytes)
    ? decodeHermesStreamed(source, spillMessages)
    : decodeHermes(source);
}
