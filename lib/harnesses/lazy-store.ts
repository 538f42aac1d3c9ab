/**
 * A harness's store as its descriptor holds it: the facts at once, the listing and the readers/writers each
 * imported on first call. One helper instead of a hand-written lazy wrapper per method and harness: a
 * descriptor names its two modules, and start-up, `--help` and `list` load no reader or writer
 * (tests/startup.test.ts).
 */
import { deferredIterable } from "../io/deferred.ts";
import type { HarnessStore, StoreAccess, StoreFacts, StoreListing } from "./types.ts";

/** The modules a store is loaded from, each an `import()` of a file in the harness's folder. */
export interface StoreModules {
  /** The module exporting the listing (`export const listing: StoreListing`), apart from the readers. */
  listing(): Promise<{ listing: StoreListing }>;
  /** The module exporting the readers, writers and configuration parsers (`export const access: StoreAccess`). */
  access(): Promise<{ access: StoreAccess }>;
}

export function lazyStore(facts: StoreFacts, modules: StoreModules): HarnessStore {
  const listing = async () => (await modules.listing()).listing;
  const access = async () => (await modules.access()).access;
  return {
    ...facts,
    list: async (home) => await (await listing()).list(home),
    listingParts: async (home) => {
      const loaded = await listing();
      return loaded.listingParts ? await loaded.listingParts(home) : undefined;
    },
    read: async (path, options) => await (await access()).read(path, options),
    open: async (path, options) => {
      const loaded = await access();
      // A held session is a stream too.
      return loaded.open ? await loaded.open(path, options) : await loaded.read(path, options);
    },
    // Each rendered line goes straight from the writer to the consumer, not through a wrapper generator.
    render: (session, options) => deferredIterable(async () => (await access()).render(session, options)),
    plan: async (session, options, home, force) => await (await access()).plan(session, options, home, force),
    configuredModel: async (home, place) => await (await access()).configuredModel(home, place),
    soleWriter: async (database, env) => (await access()).soleWriter?.(database, env),
  };
}
