/**
 * Listing Copilot CLI sessions as its own session list shows them (the TUI's Sessions tab): one row per session
 * folder, named by `workspace.yaml`'s `name` (the first prompt unless the user named it), in its `cwd`, dated
 * by the conversation's last activity (the newest message of the events, not a shutdown or a resume that only
 * opened it). A folder whose events never held a message (the TUI makes one at start, before any prompt) is no
 * conversation and is left out. A file that cannot be read is listed as unreadable, never stopping the rest.
 */
import { statSync } from "node:fs";
import type { ListingPart, SessionSummary, StoreListing } from "../types.ts";
import { readJsonl } from "../../io/jsonl.ts";
import { titleLine } from "../../ir/summary.ts";
import { fileStamp } from "../../io/file-stamp.ts";
import { mapBounded, READS_AT_ONCE } from "../../io/bounded.ts";
import { isObject, optStr } from "../../io/json.ts";
import { copilotEventFiles, folderId, workspaceOf } from "./locate.ts";
import { activityTime } from "../updated.ts";

/**
 * The workspace reader parses YAML with a library: loaded when a session is listed, not when `list` starts, so a
 * machine with no Copilot session never loads it (tests/startup.test.ts keeps every library out of the listing).
 */
const workspaceReader = () => import("./workspace.ts");

const HARNESS = "copilot-cli";

/** The events that are conversation: their times date the session. */
const CONVERSATION = new Set(["user.message", "assistant.message", "tool.execution_complete"]);

/** What one pass over the events says of the session. */
interface Scan {
  id?: string;
  cwd?: string;
  firstPrompt?: string;
  lastActivity?: string;
  messages: number;
}

async function scan(path: string): Promise<Scan> {
  const found: Scan = { messages: 0 };
  for await (const { value } of readJsonl(path)) {
    if (!isObject(value)) continue;
    const data = isObject(value.data) ? value.data : {};
    const context = isObject(data.context) ? data.context : {};
    const main = value.agentId === undefined;
    switch (value.type) {
      case "session.start":
        found.id = optStr(data.sessionId);
        found.cwd = optStr(context.cwd) ?? found.cwd;
        break;
      case "session.resume":
        found.cwd = optStr(context.cwd) ?? found.cwd;
        break;
      case "user.message":
        if (main) found.firstPrompt ??= optStr(data.content);
        break;
    }
    if (typeof value.type === "string" && CONVERSATION.has(value.type)) {
      found.messages++;
      const at = activityTime(value.timestamp);
      if (at && (!found.lastActivity || at > found.lastActivity)) found.lastActivity = at;
    }
  }
  return found;
}

async function summarize(path: string): Promise<SessionSummary[]> {
  const base: SessionSummary = { harness: HARNESS, id: folderId(path) ?? path, path };
  const workspace = (await workspaceReader()).readWorkspace(workspaceOf(path));
  let found: Scan;
  try {
    found = await scan(path);
  } catch {
    return [{ ...base, title: "(unreadable)", updatedAt: statSync(path).mtime.toISOString() }];
  }
  if (!found.messages) return [];
  const cwd = workspace.cwd ?? found.cwd;
  const title = workspace.name ?? found.firstPrompt;
  const line = title ? titleLine(title) : undefined;
  const updatedAt = found.lastActivity ?? activityTime(workspace.updatedAt);
  return [{
    ...base,
    ...(found.id ? { id: found.id } : {}),
    ...(cwd ? { cwd } : {}),
    ...(line ? { title: line } : {}),
    ...(updatedAt ? { updatedAt } : {}),
    messages: found.messages,
  }];
}

/** A session's row, or none when its folder went away between the walk and the read. */
async function listed(path: string): Promise<SessionSummary[]> {
  try {
    return await summarize(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}

export async function listCopilot(home: string): Promise<SessionSummary[]> {
  return (await mapBounded(copilotEventFiles(home), READS_AT_ONCE, listed)).flat();
}

/** Each session folder a part of its own for the listing cache, stamped with its events and its workspace. */
export function copilotListingParts(home: string): ListingPart[] {
  return copilotEventFiles(home).map((path) => ({
    key: path,
    stamp: `${fileStamp(path)}|${fileStamp(workspaceOf(path))}`,
    list: () => listed(path),
  }));
}

/** What the descriptor's store loads to list (lib/harnesses/lazy-store.ts). */
export const listing: StoreListing = { list: listCopilot, listingParts: copilotListingParts };
