/** The fake servers append one JSON line per request; adapters read them back as parsed values. */
import { existsSync, readFileSync } from "node:fs";

export function readRequestLog<T>(path: string): T[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as T);
}

/** A port nothing listens on: a harness that tries to reach a model in structure mode fails at once. */
export const UNREACHABLE_URL = "http://127.0.0.1:9";
