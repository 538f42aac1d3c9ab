/**
 * Listing across harness stores, one store at a time: a store that cannot be read (a corrupt Codex
 * `state_5.sqlite`, a Hermes `state.db` that is not a database) is reported by name and reason, and the
 * sessions of every other store are still served. Callers decide what a broken store means for them.
 */
import type { Harness, Homes, SessionSummary } from "./types.ts";
import { messageOf } from "../errors.ts";
import { homeOf } from "./homes.ts";

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

export async function listStores(harnesses: readonly Harness[], homes: Homes): Promise<Listing> {
  // async: a harness whose listing throws synchronously is settled like one that rejects.
  const results = await Promise.allSettled(harnesses.map(async (h) => await h.list(homeOf(homes, h))));
  const listing: Listing = { sessions: [], broken: [] };
  results.forEach((result, i) => {
    const h = harnesses[i]!;
    if (result.status === "fulfilled") listing.sessions.push(...result.value);
    else {listing.broken.push({
        harness: h.name,
        store: h.locate(homeOf(homes, h)),
        error: messageOf(result.reason),
      });}
  });
  return listing;
}

/** One line naming a broken store and why, for stderr and drift reports. */
export function brokenStoreLine(b: BrokenStore): string {
  return `${b.harness} store ${b.store} cannot be read: ${b.error}`;
}

/** Where the stores of `harnesses` were looked for, for a "nothing found" line: `codex: /home/u/.codex; ...`. */
export function storeLocations(harnesses: readonly Harness[], homes: Homes): string {
  return harnesses.map((h) => `${h.name}: ${h.locate(homeOf(homes, h))}`).join("; ");
}
