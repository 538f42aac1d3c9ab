/**
 * A Hermes store is one part for the listing cache (lib/harnesses/listing-cache.ts): one query per database
 * lists all its sessions, so there is nothing to gain in pieces. Its stamp covers what the listing reads: each
 * profile's `state.db` and its WAL (where a running Hermes's writes land before a checkpoint), and the legacy
 * session files beside it (their names, and each one's stamp: a file's time is the time it lists).
 */
import { readdirSync } from "node:fs";
import { directoryIfPresent } from "../../io/file-kind.ts";
import { join } from "node:path";
import { fileStamp } from "../../io/file-stamp.ts";
import { hermesHomes, legacySessionsDir, stateDbPath } from "./profiles.ts";
import type { ListingPart, StoreListing } from "../types.ts";
import { listHermes } from "./list.ts";

export function hermesListingParts(hermesHome: string): Promise<ListingPart[]> {
  const list = () => Promise.resolve().then(() => listHermes(hermesHome));
  return Promise.resolve([{ key: "databases", stamp: hermesListingStamp(hermesHome), list }]);
}

function hermesListingStamp(hermesHome: string): string {
  return hermesHomes(hermesHome).map(({ dir }) => {
    const db = stateDbPath(dir);
    const legacy = legacySessionsDir(dir);
    const files = directoryIfPresent(legacy) ? readdirSync(legacy).sort() : [];
    return [
      dir,
      fileStamp(db),
      fileStamp(`${db}-wal`),
      ...files.map((f) => `${f}=${fileStamp(join(legacy, f))}`),
    ]
      .join("|");
  }).join("\n");
}

/** What the descriptor's store loads to list (lib/harnesses/lazy-store.ts): the whole store is one part. */
export const listing: StoreListing = { list: listHermes, listingParts: hermesListingParts };
