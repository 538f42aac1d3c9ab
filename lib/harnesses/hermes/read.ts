/** Reading a Hermes conversation from its store: the source's rows loaded (source.ts), then decoded. */
import type { Session } from "../../ir/schema.ts";
import { decodeHermes } from "./decode.ts";
import { loadSource } from "./source.ts";

export async function readHermesSession(path: string): Promise<Session> {
  return decodeHermes(await loadSource(path));
}
