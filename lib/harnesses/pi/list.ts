/**
 * Listing Pi sessions as `pi -r` shows them (skeleton: filled in by the reader's next commit).
 */
import type { SessionSummary, StoreListing } from "../types.ts";

export function listPi(_home: string): SessionSummary[] {
  return [];
}

/** What the descriptor's store loads to list (lib/harnesses/lazy-store.ts). */
export const listing: StoreListing = { list: listPi };
