/**
 * Listing across harness stores, one store at a time: a store that cannot be read (a corrupt Codex
 * `state_5.sqlite`, a Hermes `state.db` that is not a database) is reported by name and reason, and the
 * sessions of every other store are still served. Callers decide what a broken store means for them.
 */
import type { Harness, Homes, ListingPart, SessionSummary } from "./types.ts";
import { classified, messageOf, PermissionError } from "../errors.ts";
import { deniedAt } from "../io/denied.ts";
import { homeOf } from "./homes.ts";
import { ListingCache } from "./listing-cache.ts";
import type { Feedback } from "../io/progress.ts";
import { mapBounded, READS_AT_ONCE } from "../io/bounded.ts";

export interface BrokenStore {
  harness: string;
  /** The store's root folder (the home it was looked for in). */
  store: string;
  error: string;
}

export interface Listing {
  sessions: SessionSummary[];
  broken: BrokenStore[];
}

/** One store's listing: its sessions, or why it could not be read. */
export type StoreListed =
  | { harness: string; sessions: SessionSummary[] }
  | { harness: string; broken: BrokenStore };

/** A store's listing as read, a broken one with what failed (the error its line is made from, for a diagnosis). */
export type StoreRead =
  | { harness: string; sessions: SessionSummary[] }
  | { harness: string; broken: BrokenStore; cause: unknown };

/**
 * With `bridgeHome`, each part of a store whose files are unchanged since the last listing is served from the
 * listing cache there (lib/harnesses/listing-cache.ts), and what is read is kept in it.
 *
 * The stores one at a time, in the order given, each read only when the consumer asks for the next. Listing
 * is mostly synchronous work on the one thread (SQLite queries, JSON parsing), so reading the stores at once
 * would finish at about the same time and let nothing be drawn in between; read one by one, a screen can draw
 * each store's sessions before the next store is read.
 */
export async function* listEachStore(
  harnesses: readonly Harness[],
  homes: Homes,
  cached: CachedListing = {},
): AsyncGenerator<StoreListed> {
  const cache = cacheOf(cached);
  for (const h of harnesses) {
    const store = await settle(h, homes, cache);
    cache?.save();
    yield listed(store);
  }
}

/** Every store read at once, in the order of `harnesses` (so broken stores are named in the registry's order). */
export async function listStores(
  harnesses: readonly Harness[],
  homes: Homes,
  cached: CachedListing = {},
): Promise<Listing> {
  const cache = cacheOf(cached);
  const listing: Listing = { sessions: [], broken: [] };
  const stores = await Promise.all(harnesses.map((h) => settle(h, homes, cache)));
  cache?.save();
  for (const store of stores) {
    if ("broken" in store) listing.broken.push(store.broken);
    else listing.sessions.push(...store.sessions);
  }
  return listing;
}

/** Where a listing keeps its cache: session-bridge's folder (none: no cache), and who hears it refused. */
export interface CachedListing {
  bridgeHome?: string;
  feedback?: Feedback;
}

const cacheOf = ({ bridgeHome, feedback }: CachedListing) =>
  bridgeHome === undefined ? undefined : ListingCache.load(bridgeHome, feedback);

/** One store read without the cache, a broken one with what failed (doctor's diagnosis starts from it). */
export function readStore(h: Harness, homes: Homes): Promise<StoreRead> {
  return settle(h, homes);
}

/** What a listing hands on: the sessions, or the broken store's name and line. */
const listed = (store: StoreRead): StoreListed =>
  "broken" in store ? { harness: store.harness, broken: store.broken } : store;

/**
 * A store's listing: from the cache part by part where the harness lists in parts, else read whole. A failure
 * is one line naming the path it met (a link that loops; for a permission refused, the folder that refuses).
 */
async function settle(h: Harness, homes: Homes, cache?: ListingCache): Promise<StoreRead> {
  const home = homeOf(homes, h);
  try {
    // Awaited inside the try: a harness whose listing throws synchronously is settled like one that rejects.
    const parts = cache && await h.store.listingParts(home);
    const sessions = cache && parts
      ? await listParts(`${h.name}:${home}`, parts, cache)
      : await h.store.list(home);
    return { harness: h.name, sessions };
  } catch (e) {
    const failure = classified(e);
    const cause = failure instanceof PermissionError ? deniedAt(failure) : failure;
    const broken = { harness: h.name, store: h.store.locate(home), error: messageOf(cause) };
    return { harness: h.name, broken, cause };
  }
}

/**
 * Each part as the cache kept it while its stamp holds, else read and kept. The stamps were taken before
 * anything was read: a part changed while it is read gives another stamp next time.
 */
async function listParts(
  store: string,
  parts: ListingPart[],
  cache: ListingCache,
): Promise<SessionSummary[]> {
  const listed = await mapBounded(parts, READS_AT_ONCE, async (part) => {
    const kept = cache.get(store, part.key, part.stamp);
    if (kept) return kept;
    const sessions = await part.list();
    cache.set(store, part.key, part.stamp, sessions);
    return sessions;
  });
  return listed.flat();
}

/** One line naming a broken store and why, for stderr and drift reports. */
export function brokenStoreLine(b: BrokenStore): string {
  return `${b.harness} store ${b.store} cannot be read: ${b.error}`;
}

/** Where the stores of `harnesses` were looked for, for a "nothing found" line: `codex: /home/u/.codex; ...`. */
export function storeLocations(harnesses: readonly Harness[], homes: Homes): string {
  return harnesses.map((h) => `${h.name}: ${h.store.locate(homeOf(homes, h))}`).join("; ");
}
