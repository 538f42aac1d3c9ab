/**
 * Listing Gemini CLI sessions as `gemini --list-sessions` shows them: every main session file of every project
 * folder, titled by its `summary` (written by a later start-up of the CLI) else the first words the user typed,
 * dated by its last message, not by `lastUpdated` (a summary written days later bumps that), in the project
 * path its folder names. Subagent logs are part of their parent session, not listed. A file that cannot be
 * read is listed as unreadable, never stopping the rest.
 */
import { readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { ListingPart, SessionSummary, StoreListing } from "../types.ts";
import { readJsonl } from "../../io/jsonl.ts";
import { titleLine } from "../../ir/summary.ts";
import { fileStamp } from "../../io/file-stamp.ts";
import { mapBounded, READS_AT_ONCE } from "../../io/bounded.ts";
import { isObject, nestsDeeperThan, optStr, tooDeep } from "../../io/json.ts";
import { InputError } from "../../errors.ts";
import { geminiStore } from "./home.ts";
import { activityTime } from "../updated.ts";
import { projectPathOf, projectsBySlug, sessionFiles } from "./locate.ts";
import { LogReplay, type ReplayedLog } from "./replay.ts";
import { contentText, CONTEXT_START } from "./parts.ts";

const HARNESS = "gemini-cli";

/** What the CLI never takes for the user's words (isIgnoredUserContent): commands, its own context blocks. */
export function isIgnoredUserText(text: string): boolean {
  const t = text.trim();
  return !t || t.startsWith("/") || t.startsWith("?") || CONTEXT_START.test(t);
}

/** The log of a session file replayed (a legacy `.json` read whole). */
export async function replayFile(path: string): Promise<ReplayedLog> {
  const replay = new LogReplay(path, HARNESS);
  if (path.endsWith(".json")) {
    const text = readFileSync(path, "utf8");
    if (nestsDeeperThan(text)) throw new InputError(`${path}: ${tooDeep}`);
    const document: unknown = JSON.parse(text);
    if (isObject(document)) {
      replay.addWhole(document, { harness: HARNESS, path, offset: 0, length: 0, type: "session" });
    }
  } else {
    for await (const line of readJsonl(path)) replay.add(line);
  }
  return replay.result();
}

/** The first words the user typed, as the CLI's list shows a session without a summary. */
export function firstTypedWords(log: ReplayedLog): string | undefined {
  for (const { record } of log.messages) {
    if (record.type !== "user") continue;
    const text = contentText(record.content);
    if (!isIgnoredUserText(text)) return titleLine(text);
  }
  return undefined;
}

/**
 * Whether the log ever held a turn: words the user typed, or a model message with text, a tool call or a
 * thought (the CLI's isResumableMessageRecord), live or since rewound. A file that never did is left out of
 * the list: the stub `--resume` makes when it starts in a later minute than the session file's name (metadata
 * and its context only, under the same session id) would otherwise make that id name two sessions. (The CLI
 * also hides a session a rewind emptied; we keep listing it, as its rewound turns are read as a branch.)
 */
export function everHeldATurn(log: ReplayedLog): boolean {
  return [log.messages, ...log.rewound].flat().some(({ record }) => {
    if (record.type === "user") return !isIgnoredUserText(contentText(record.content));
    if (record.type !== "gemini") return false;
    const many = (value: unknown) => Array.isArray(value) && value.length > 0;
    return contentText(record.content).trim().length > 0 || many(record.toolCalls) || many(record.thoughts);
  });
}

/** The time of the newest message: the conversation's last activity. */
export function lastActivity(log: ReplayedLog): string | undefined {
  let last: string | undefined;
  for (const { record } of log.messages) {
    const at = activityTime(record.timestamp);
    if (at && (!last || at > last)) last = at;
  }
  return last;
}

async function summarize(path: string, projects: ReadonlyMap<string, string>): Promise<SessionSummary[]> {
  const cwd = projectPathOf(path, projects);
  const base: SessionSummary = { harness: HARNESS, id: basename(path).replace(/\.jsonl?$/, ""), path };
  if (cwd) base.cwd = cwd;
  let log: ReplayedLog;
  try {
    log = await replayFile(path);
  } catch {
    return [{ ...base, title: "(unreadable)", updatedAt: statSync(path).mtime.toISOString() }];
  }
  if (!everHeldATurn(log)) return [];
  const id = optStr(log.metadata.sessionId);
  const title = optStr(log.metadata.summary) ?? firstTypedWords(log);
  const updatedAt = lastActivity(log) ?? activityTime(log.metadata.lastUpdated);
  return [{
    ...base,
    ...(id ? { id } : {}),
    ...(title ? { title: titleLine(title) ?? title } : {}),
    ...(updatedAt ? { updatedAt } : {}),
  }];
}

/** A session's row, or none when its file went away between the walk and the read. */
async function listed(path: string, projects: ReadonlyMap<string, string>): Promise<SessionSummary[]> {
  try {
    return await summarize(path, projects);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

export async function listGemini(home: string): Promise<SessionSummary[]> {
  const store = geminiStore(home);
  const projects = projectsBySlug(store);
  return (await mapBounded(sessionFiles(store), READS_AT_ONCE, (path) => listed(path, projects))).flat();
}

/**
 * Each session file a part of its own for the listing cache, stamped with the files naming its project's path
 * too (`.project_root`, `projects.json`).
 */
export function geminiListingParts(home: string): ListingPart[] {
  const store = geminiStore(home);
  const projectsStamp = fileStamp(join(store, "projects.json"));
  return sessionFiles(store).map((path) => ({
    key: path,
    stamp: [path, join(dirname(dirname(path)), ".project_root")].map(fileStamp).join("|") +
      `|${projectsStamp}`,
    list: () => listed(path, projectsBySlug(store)),
  }));
}

/** What the descriptor's store loads to list (lib/harnesses/lazy-store.ts). */
export const listing: StoreListing = { list: listGemini, listingParts: geminiListingParts };
