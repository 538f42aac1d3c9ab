/**
 * What a Hermes listing reads, stamped for the listing cache (lib/harnesses/listing-cache.ts): each profile's
 * `state.db` and its WAL (where a running Hermes's writes land before a checkpoint), and the legacy session
 * files beside it (their names, and each one's stamp: a file's time is the time it lists).
 */
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileStamp } from "../../io/file-stamp.ts";
import { hermesHomes, legacySessionsDir, stateDbPath } from "./profiles.ts";

export function hermesListingStamp(hermesHome: string): string {
  return hermesHomes(hermesHome).map(({ dir }) => {
    const db = stateDbPath(dir);
    const legacy = legacySessionsDir(dir);
    const files = existsSync(legacy) ? readdirSync(legacy).sort() : [];
    return [
      dir,
      fileStamp(db),
      fileStamp(`${db}-wal`),
      ...files.map((f) => `${f}=${fileStamp(join(legacy, f))}`),
    ]
      .join("|");
  }).join("\n");
}
