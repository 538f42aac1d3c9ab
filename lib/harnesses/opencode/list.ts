import type { StoreListing } from "../types.ts";

/** What the descriptor's store loads to list (lib/harnesses/lazy-store.ts). Filled in by the listing commit. */
export const listing: StoreListing = { list: () => [] };
