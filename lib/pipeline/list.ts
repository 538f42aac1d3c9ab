/** Sessions across the harness stores, newest first; a store that cannot be read is named, the rest served. */
import type { Homes, SessionSummary } from "../harnesses/types.ts";
import { findHarness, type Registry } from "../harnesses/registry.ts";
import { type BrokenStore, listStores } from "../harnesses/stores.ts";
import { canonicalCwd } from "../io/paths.ts";
import { newestFirst, shortestUniquePrefixes } from "./reference.ts";

export interface ListRequest {
  registry: Registry;
  /** Every registered harness's home, by harness name. */
  homes: Homes;
  /** Only this harness's sessions (a name or an alias). */
  from?: string;
  /** Only sessions recorded in this directory. */
  cwd?: string;
}

export interface ListedSession extends SessionSummary {
  /** The shortest id prefix that names this session alone among the listed stores' (what to type). */
  prefix: string;
}

export interface Listed {
  /** Newest first (by the time each harness last updated the session). */
  sessions: ListedSession[];
  /** Stores that could not be read, and why. */
  broken: BrokenStore[];
}

export async function listSessions(request: ListRequest): Promise<Listed> {
  const { registry } = request;
  const sources = request.from === undefined ? registry.harnesses : [findHarness(registry, request.from)];
  const cwd = request.cwd ? canonicalCwd(request.cwd) : undefined;
  const { sessions, broken } = await listStores(sources, request.homes);
  // Unique among every session of the stores read, not only those in --cwd: the prefix is typed without it.
  const prefixes = shortestUniquePrefixes(sessions.map((s) => s.id));
  return {
    sessions: newestFirst(sessions.filter((r) => !cwd || r.cwd === cwd)).map((r) => ({
      ...r,
      prefix: prefixes.get(r.id)!,
    })),
    broken,
  };
}
