/**
 * Listing Pi sessions as `pi -r` shows them in its "All" scope: every session file of every project folder,
 * named by its latest `session_info` name, else its first user message; in the header's `cwd`; dated by its
 * last message, not the file's time (facts.ts, lib/harnesses/updated.ts). A file whose first line is no session
 * header is left out, as Pi leaves it out; one that cannot be read is listed as unreadable, never stopping
 * the rest.
 */
import { statSync } from "node:fs";
import type { ListingPart, SessionSummary, StoreListing } from "../types.ts";
import { readJsonl } from "../../io/jsonl.ts";
import { titleLine } from "../../ir/summary.ts";
import { fileStamp } from "../../io/file-stamp.ts";
import { mapBounded, READS_AT_ONCE } from "../../io/bounded.ts";
import { isObject, optStr } from "../../io/json.ts";
import { activityTime } from "../updated.ts";
import { piSessions } from "./home.ts";
import { sessionFiles } from "./locate.ts";
import { ListFacts } from "./facts.ts";

const HARNESS = "pi";

async function summarize(path: string): Promise<SessionSummary[]> {
  let header: Record<string, unknown> | undefined;
  const facts = new ListFacts();
  try {
    for await (const { value } of readJsonl(path)) {
      if (!header) {
        if (!isObject(value) || value.type !== "session" || typeof value.id !== "string") return [];
        header = value;
      } else if (isObject(value)) facts.add(value);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw error;
    const base = { harness: HARNESS, id: header ? String(header.id) : path, path };
    return [{ ...base, title: "(unreadable)", updatedAt: statSync(path).mtime.toISOString() }];
  }
  if (!header) return [];
  const cwd = optStr(header.cwd);
  const title = facts.name
    ? titleLine(facts.name)
    : facts.firstUserText
    ? titleLine(facts.firstUserText)
    : undefined;
  const updatedAt = activityTime(facts.lastActivity ?? header.timestamp);
  return [{
    harness: HARNESS,
    id: header.id as string,
    path,
    ...(cwd ? { cwd } : {}),
    ...(title ? { title } : {}),
    ...(updatedAt ? { updatedAt } : {}),
    messages: facts.messages,
  }];
}

/** A session's row, or none when its file went away between the walk and the read. */
async function listed(path: string): Promise<SessionSummary[]> {
  try {
    return await summarize(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

export async function listPi(home: string): Promise<SessionSummary[]> {
  return (await mapBounded(sessionFiles(piSessions(home)), READS_AT_ONCE, listed)).flat();
}

/** Each session file a part of its own for the listing cache: nothing else names what its row says. */
export function piListingParts(home: string): ListingPart[] {
  return sessionFiles(piSessions(home)).map((path) => ({
    key: path,
    stamp: fileStamp(path),
    list: () => listed(path),
  }));
}

/** What the descriptor's store loads to list (lib/harnesses/lazy-store.ts). */
export const listing: StoreListing = { list: listPi, listingParts: piListingParts };
