/**
 * Listing across harness stores, one store at a time: a store that cannot be read (a corrupt Codex
 * `state_5.sqlite`, a Hermes `state.db` that is not a database) is reported by name and reason, and the
 * sessions of every other store are still served. Callers decide what a broken store means for them.
 */
import type { Harness, Homes, SessionSummary } from "./types.ts";
import { messageOf } from "../errors.ts";
import { homeOf } from "./homes.ts";
import { ListingCache } from "./listing-cache.ts";

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

/**
 * With `bridgeHome`, a store whose files are unchanged since the last listing is served from the listing cache
 * there (lib/harnesses/listing-cache.ts), and what is read is kept in it.
 *
 * The stores one at a time, in the order given, each read only when the consumer asks for the next. Listing
 * is mostly synchronous work on the one thread (SQLite queries, JSON parsing), so reading the stores at once
 * would finish at about the same time and let nothing be drawn in between; read one by one, a screen can draw
 * each store's sessions before the next store is read.
 */
export async function* listEachStore(
  harnesses: readonly Harness[],
  homes: Homes,
  bridgeHome?: string,
): AsyncGenerator<StoreListed> {
  const cache = bridgeHome === undefined ? undefined : ListingCache.load(bridgeHome);
  for (const h of harnesses) {
    const store = await settle(h, homes, cache);
    cache?.save();
    yield store;
  }
}

/** Every store read at once, in the order of `harnesses` (so broken stores are named in the registry's order). */
export async function listStores(
  harnesses: readonly Harness[],
  homes: Homes,
  bridgeHome?: string,
): Promise<Listing> {
  const cache = bridgeHome === undefined ? undefined : ListingCache.load(bridgeHome);
  const listing: Listing = { sessions: [], broken: [] };
  const stores = await Promise.all(harnesses.map((h) => settle(h, homes, cache)));
  cache?.save();
  for (const store of stores) {
    if ("broken" in store) listing.broken.push(store.broken);
    else listing.sessions.push(...store.sessions);
  }
  return listing;
}

/** A store's listing: what the cache kept of it while its files are unchanged, else read (and kept). */
async function settle(h: Harness, homes: Homes, cache?: ListingCache): Promise<StoreListed> {
  const home = homeOf(homes, h);
  try {
    const key = `${h.name}:${home}`;
    // Taken before the store is read: a change made while it is read gives another stamp next time.
    const stamp = cache && (await h.listingStamp?.(home));
    const kept = stamp === undefined ? undefined : cache?.get(key, stamp);
    if (kept) return { harness: h.name, sessions: kept };
    // Awaited inside the try: a harness whose listing throws synchronously is settled like one that rejects.
    const sessions = await h.list(home);
    if (stamp !== undefined) cache?.set(key, stamp, sessions);
    return { harness: h.name, sessions };
  } catch (e) {
    return { harness: h.name, broken: { harness: h.name, store: h.locate(home), error: messageOf(e) } };
  }
}

/** One line naming a broken store and why, for stderr and drift reports. */
export function brokenStoreLine(b: BrokenStore): string {
  return `${b.harness} store ${b.store} cannot be read: ${b.error}`;
}

/** Where the stores of `harnesses` were looked for, for a "nothing found" line: `codex: /home/u/.codex; ...`. */
export function storeLocations(harnesses: readonly Harness[], homes: Homes): string {
  return harnesses.map((h) => `${h.name}: ${h.locate(homeOf(homes, h))}`).join("; ");
}
