/** Sessions across the harness stores, newest first; a store that cannot be read is named, the rest served. */
import type { Harness, Homes, SessionSummary } from "../harnesses/types.ts";
import { findHarness, type Registry } from "../harnesses/registry.ts";
import { type BrokenStore, listEachStore, listStores, type StoreListed } from "../harnesses/stores.ts";
import { canonicalCwd } from "../io/paths.ts";
import type { Feedback } from "../io/progress.ts";
import { newestFirst } from "./newest.ts";
import { shortestUniquePrefixes } from "./reference.ts";

export interface ListRequest {
  registry: Registry;
  /** Every registered harness's home, by harness name. */
  homes: Homes;
  /** Only this harness's sessions (a name or an alias). */
  from?: string;
  /** Only sessions recorded in this directory. */
  cwd?: string;
  /** session-bridge's own folder: its listing cache serves the stores unchanged since the last listing. */
  bridgeHome?: string;
  /** Who hears that the listing cache could not be kept (a link in its way). */
  feedback?: Feedback;
}

export interface ListedSession extends SessionSummary {
  /** The shortest id prefix that names this session alone among the listed stores' (what to type). */
  prefix: string;
}

export interface Listed {
  /** Newest first, by each session's last message (UPDATED: lib/harnesses/updated.ts). */
  sessions: ListedSession[];
  /** Stores that could not be read, and why. */
  broken: BrokenStore[];
}

/** The harnesses a request lists, and the directory it narrows to (canonical, as the stores record it). */
function scope(request: ListRequest): { sources: readonly Harness[]; cwd?: string } {
  const { registry } = request;
  const sources = request.from === undefined ? registry.harnesses : [findHarness(registry, request.from)];
  return { sources, ...(request.cwd ? { cwd: canonicalCwd(request.cwd) } : {}) };
}

const within = (sessions: readonly SessionSummary[], cwd: string | undefined) =>
  sessions.filter((r) => !cwd || r.cwd === cwd);

export async function listSessions(request: ListRequest): Promise<Listed> {
  const { sources, cwd } = scope(request);
  const { sessions, broken } = await listStores(sources, request.homes, request);
  // Unique among every session of the stores read, not only those in --cwd: the prefix is typed without it.
  const prefixes = shortestUniquePrefixes(sessions.map((s) => s.id));
  return {
    sessions: newestFirst(within(sessions, cwd)).map((r) => ({ ...r, prefix: prefixes.get(r.id)! })),
    broken,
  };
}

/**
 * The same sessions store by store, each store's newest first, each store read when the next is asked for (for
 * a screen drawn before the last store is read). No id prefixes: they are unique only among every store's.
 */
export async function* listSessionsByStore(request: ListRequest): AsyncGenerator<StoreListed> {
  const { sources, cwd } = scope(request);
  for await (const store of listEachStore(sources, request.homes, request)) {
    yield "broken" in store
      ? store
      : { harness: store.harness, sessions: newestFirst(within(store.sessions, cwd)) };
  }
}
