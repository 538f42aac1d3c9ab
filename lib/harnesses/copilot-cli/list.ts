/** Listing Copilot CLI sessions (the listing comes in the next commit). */
import type { StoreListing } from "../types.ts";

export const listing: StoreListing = { list: () => [] };
