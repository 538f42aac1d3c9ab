/**
 * Where Copilot CLI keeps sessions in its home: `session-state/<uuid>/events.jsonl`, one folder per session
 * (named by its id), with `workspace.yaml` beside the events. Folders of other names (`.session-operation-locks`)
 * are not sessions.
 */
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { byCodeUnit } from "../../io/compare.ts";
import { assertNotLinkLoop, directoryIfPresent, regularFileIfPresent } from "../../io/file-kind.ts";
import { isUuid } from "../../ids.ts";
import { copilotSessionState } from "./home.ts";

export const EVENTS_FILE = "events.jsonl";
export const WORKSPACE_FILE = "workspace.yaml";

/** Every session's events file in a home, in folder-name order. */
export function copilotEventFiles(home: string): string[] {
  const root = copilotSessionState(home);
  if (!directoryIfPresent(root)) return [];
  const entries = readdirSync(root, { withFileTypes: true }).sort((a, b) => byCodeUnit(a.name, b.name));
  const out: string[] = [];
  for (const entry of entries) {
    // Only a folder named by a session id is a session (a link to another disk included).
    if (!(entry.isDirectory() || entry.isSymbolicLink()) || !isUuid(entry.name)) continue;
    assertNotLinkLoop(root, entry);
    const events = join(root, entry.name, EVENTS_FILE);
    if (regularFileIfPresent(events)) out.push(events);
  }
  return out;
}

/** The `workspace.yaml` beside an events file. */
export const workspaceOf = (eventsPath: string): string => join(dirname(eventsPath), WORKSPACE_FILE);

/** The session id a store's layout gives an events file: its folder's name, when that is a UUID. */
export function folderId(eventsPath: string): string | undefined {
  const name = basename(dirname(eventsPath));
  return isUuid(name) ? name.toLowerCase() : undefined;
}
