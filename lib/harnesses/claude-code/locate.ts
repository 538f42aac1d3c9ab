/** Where Claude Code keeps its transcripts, and how we walk them without reading every file whole. */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ListingPart, SessionSummary, StoreListing } from "../types.ts";
import { isUuid } from "../../ids.ts";
import { readJsonl } from "../../io/jsonl.ts";
import { type Ends, type Windows, withEnds } from "../../io/head-tail.ts";
import { objectOfLine } from "../../io/json.ts";
import { mapBounded, READS_AT_ONCE } from "../../io/bounded.ts";
import { titleLine } from "../../ir/summary.ts";
import { blocksFromContent } from "./content.ts";
import { projectsDir } from "./home.ts";
import { fileStamp } from "../../io/file-stamp.ts";
import { assertNotLinkLoop, directoryIfPresent } from "../../io/file-kind.ts";
import { lastLineWhere } from "../../io/last-line.ts";
import { activityTime } from "../updated.ts";

/**
 * Every top-level transcript `projects/<bucket>/<uuid>.jsonl`; subagent files live one level deeper. A link
 * that loops where a bucket or a transcript would be fails the walk naming it (the store cannot be read whole).
 */
export function transcriptPaths(home: string): string[] {
  const root = projectsDir(home);
  if (!directoryIfPresent(root)) return [];
  const out: string[] = [];
  for (const bucket of readdirSync(root, { withFileTypes: true })) {
    assertNotLinkLoop(root, bucket);
    if (!bucket.isDirectory()) continue;
    const dir = join(root, bucket.name);
    for (const file of readdirSync(dir, { withFileTypes: true })) {
      if (!file.name.endsWith(".jsonl") || !isUuid(file.name.slice(0, -6))) continue;
      assertNotLinkLoop(dir, file);
      if (file.isFile()) out.push(join(dir, file.name));
    }
  }
  return out;
}

const HEAD_RECORDS = 200;
const KB = 1024;
/**
 * How much of a transcript a listing reads: a session's first records are small (every fixture's cwd and
 * first words sit in its first 2 KB), titles too. A transcript up to 32 KB is read whole; of a longer one the
 * first 4 KB and the last 16 KB. A 4 KB read at the start draws 16 KB of the kernel's read-ahead where a 16 KB
 * read drew 64 KB: cold, over the bench's 474 long transcripts, 17 MB from disk instead of 36 MB.
 */
const FIRST_WINDOWS: Windows = { head: 4 * KB, tail: 16 * KB, whole: 32 * KB };
/** When the first 4 KB do not hold the cwd and first words (a long first record): the first 16 KB. */
const WIDER_WINDOWS: Windows = { ...FIRST_WINDOWS, head: 16 * KB };

/**
 * A listing row from a file's two ends: cwd and the first user words are near the top (within its first
 * HEAD_RECORDS records); titles are small records Claude Code appends when a session is named (and again on
 * each exit and resume), so they are looked for in the head and in the tail. UPDATED is the last message's
 * time (lib/harnesses/updated.ts), from the tail read, or read further back from the end when the tail holds
 * none; the file's time only for a transcript with no timestamped message. A head that does not hold what the
 * row needs is read again wider, and then on by streaming (a huge first record).
 */
export async function summarize(path: string): Promise<SessionSummary> {
  return summarizeFromEnds(path) ?? await summarizeByStreaming(path);
}

type Row = Record<string, unknown>;

/** `updatedAt` is the last message's time, else the file's. */
function newSummary(path: string, updatedAt: string): SessionSummary {
  return { harness: "claude-code", id: path.slice(path.lastIndexOf("/") + 1, -6), path, updatedAt };
}

/** The bytes every timestamped record holds: other lines are not decoded when looking for the last message. */
const TIMESTAMP_MARK = Buffer.from('"timestamp"');

/**
 * A message record's time: `user`, `assistant` and `system` records are the conversation (a tool call is in an
 * assistant record, its result in a user one; the handshake is a system record); attachments, API requests,
 * queue operations and file snapshots carry times too, but are no message.
 */
function messageTime(line: Buffer): string | undefined {
  if (!line.includes(TIMESTAMP_MARK)) return undefined;
  const record = objectOfLine(line.toString("utf8"));
  if (record?.type !== "user" && record?.type !== "assistant" && record?.type !== "system") return undefined;
  return activityTime(record.timestamp);
}

/** The last message's time among `lines` (the file's last lines, in order), if one is there. */
function lastMessageTimeOf(lines: readonly Buffer[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const at = messageTime(lines[i]!);
    if (at !== undefined) return at;
  }
  return undefined;
}

/** The last message's time read from the end of the file, else the file's own. */
function updatedFromEnd(path: string): string {
  return lastLineWhere(path, messageTime).value ?? statSync(path).mtime.toISOString();
}

/** The bytes every title record holds (`"type":"custom-title"`, `"ai-title"`): other lines are not decoded. */
const TITLE_MARK = Buffer.from('-title"');

/** The row from the file's ends, or undefined when they cannot say (the streaming reader then decides). */
function summarizeFromEnds(path: string): SessionSummary | undefined {
  try {
    const use = (ends: Ends) => summaryOfEnds(path, ends);
    return withEnds(path, FIRST_WINDOWS, use) ?? withEnds(path, WIDER_WINDOWS, use);
  } catch {
    return undefined;
  }
}

function summaryOfEnds(path: string, ends: Ends): SessionSummary | undefined {
  const summary = newSummary(path, ends.modified.toISOString());
  let firstUser: string | undefined;
  const titles: { custom?: string; ai?: string } = {};
  const lines = [...ends.head, ...ends.tail];
  for (const [index, line] of lines.entries()) {
    const inHead = index < Math.min(ends.head.length, HEAD_RECORDS) && (!summary.cwd || !firstUser);
    // Once the head has given cwd and first words, only titles count: most lines are not even decoded.
    if (!inHead && !line.includes(TITLE_MARK)) continue;
    const record = objectOfLine(line.toString("utf8"));
    if (record === undefined) {
      if (index < ends.head.length) return undefined;
      continue;
    }
    if (inHead) {
      if (!summary.cwd && typeof record.cwd === "string") summary.cwd = record.cwd;
      if (!firstUser && record.type === "user" && record.isMeta !== true) {
        firstUser = userText(record.message);
      }
    }
    takeTitle(record, titles);
  }
  if (!ends.whole && ends.head.length < HEAD_RECORDS && (!summary.cwd || !firstUser)) return undefined;
  const title = titles.custom ?? titles.ai ?? firstUser;
  if (title !== undefined) summary.title = title;
  // The lines read that end the file (the tail, or every line of a file read whole); further back only when
  // they hold no message, which a file read whole then has none of.
  const last = lastMessageTimeOf(ends.whole ? ends.head : ends.tail);
  if (last !== undefined) summary.updatedAt = last;
  else if (!ends.whole) summary.updatedAt = updatedFromEnd(path);
  return summary;
}

/** A rename's title is the last one written; Claude Code's own summary title the first. */
function takeTitle(r: Row, titles: { custom?: string; ai?: string }): void {
  if (r.type === "custom-title" && typeof r.customTitle === "string") titles.custom = r.customTitle;
  if (r.type === "ai-title" && typeof r.aiTitle === "string") titles.ai ??= r.aiTitle;
}

/** The first HEAD_RECORDS records, read as a stream: for heads too large for the window. */
async function summarizeByStreaming(path: string): Promise<SessionSummary> {
  const summary = newSummary(path, updatedFromEnd(path));
  const titles: { custom?: string; ai?: string } = {};
  let firstUser: string | undefined;
  let seen = 0;
  try {
    for await (const { value } of readJsonl(path)) {
      if (++seen > HEAD_RECORDS) break;
      const r = value as Row;
      if (!summary.cwd && typeof r.cwd === "string") summary.cwd = r.cwd;
      takeTitle(r, titles);
      if (!firstUser && r.type === "user" && r.isMeta !== true) firstUser = userText(r.message);
    }
  } catch {
    titles.custom ??= titles.ai ?? "(unreadable)";
  }
  const title = titles.custom ?? titles.ai ?? firstUser;
  if (title !== undefined) summary.title = title;
  return summary;
}

function userText(message: unknown): string | undefined {
  const text = blocksFromContent((message as { content?: unknown } | undefined)?.content).find((b) =>
    b.type === "text"
  );
  return text?.type === "text" ? titleLine(text.text) : undefined;
}

/**
 * A transcript's listing row, or none when the transcript is gone (Claude Code removes old sessions, a user
 * deletes one) between the folder's walk and its reading: one session gone is not a store that cannot be read.
 */
async function listed(path: string): Promise<SessionSummary[]> {
  try {
    return [await summarize(path)];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

/**
 * Each transcript a part of its own for the listing cache (lib/harnesses/listing-cache.ts): a session written
 * to (a running Claude Code), or added, is read alone; a session removed is gone from the listing.
 */
export function claudeListingParts(home: string): ListingPart[] {
  return transcriptPaths(home).map((path) => ({
    key: path,
    stamp: fileStamp(path),
    list: () => listed(path),
  }));
}

/** Every session in the home, summarized from its transcript's two ends. */
export async function listClaude(home: string): Promise<SessionSummary[]> {
  return (await mapBounded(transcriptPaths(home), READS_AT_ONCE, listed)).flat();
}

/** What the descriptor's store loads to list (lib/harnesses/lazy-store.ts). */
export const listing: StoreListing = { list: listClaude, listingParts: claudeListingParts };
