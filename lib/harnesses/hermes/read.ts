/** Reading a Hermes conversation from its store: the source's rows loaded (source.ts), then decoded. */
import type { Session } from "../../ir/schema.ts";
import type { SessionStream } from "../../ir/stream.ts";
import { streams } from "../../io/jsonl.ts";
import { decodeHermes, decodeHermesStreamed } from "./decode.ts";
import { loadSource } from "./source.ts";

export async function readHermesSession(path: string): Promise<Session> {
  return decodeHermes(await loadSource(path));
}

/**
 * The session to convert: held while its rows are small, its live thread streamed from the database once they
 * are large. Export lines, snapshots and gateway transcripts are JSON files read whole, and are always held.
 */
export async function openHermesSession(path: string): Promise<SessionStream> {
  const source = await loadSource(path);
  return source.storedBytes && streams(source.storedBytes())
    ? decodeHermesStreamed(source)
    : decodeHermes(source);
}
