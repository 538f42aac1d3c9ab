/**
 * What a running Gemini CLI has recorded so far, for the TUI driver to wait on: the session files in a store
 * and the messages of one, as the CLI itself would load them back. Only the record kinds a seeding makes are
 * applied (a message replaces an earlier one with its id, keeping that place; a `$set.messages` checkpoint
 * replaces the whole list); the session reader proper is the harness's store.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { isObject, type Json } from "../../../io/json.ts";
import { sessionFiles } from "../locate.ts";

/**
 * Whether the store holds `id` where `gemini --list-sessions` run in `cwd` looks: a main session file in the
 * chats folder of the project slug `projects.json` gives `cwd`.
 */
export function listedInStore(store: string, id: string, cwd: string): boolean {
  let slug: unknown;
  try {
    const registry = JSON.parse(readFileSync(join(store, "projects.json"), "utf8")) as { projects?: unknown };
    slug = isObject(registry.projects) ? registry.projects[cwd] : undefined;
  } catch {
    return false;
  }
  if (typeof slug !== "string") return false;
  const chats = join(store, "tmp", slug, "chats");
  return sessionFiles(store).some((f) => dirname(f) === chats && sessionIdOf(f) === id);
}

/** The session id a file's first line (the metadata) names. */
export function sessionIdOf(path: string): string | undefined {
  const first = readRecords(path)[0];
  return typeof first?.sessionId === "string" ? first.sessionId : undefined;
}

export interface RecordedMessage {
  id: string;
  type: string;
  content: unknown;
  toolCalls: Json[];
}

/** The messages of a session file in order, as far as they are written. */
export function recordedMessages(path: string): RecordedMessage[] {
  const byId = new Map<string, RecordedMessage>();
  for (const record of readRecords(path)) {
    const set = isObject(record.$set) ? record.$set : undefined;
    if (set && Array.isArray(set.messages)) {
      byId.clear();
      for (const m of set.messages) if (isObject(m)) remember(byId, m);
    } else if (typeof record.id === "string") remember(byId, record);
  }
  return [...byId.values()];
}

function remember(byId: Map<string, RecordedMessage>, m: Json): void {
  if (typeof m.id !== "string") return;
  byId.set(m.id, {
    id: m.id,
    type: String(m.type),
    content: m.content ?? null,
    toolCalls: Array.isArray(m.toolCalls) ? m.toolCalls.filter(isObject) : [],
  });
}

function readRecords(path: string): Json[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8").split("\n").flatMap((line) => {
    try {
      const value = JSON.parse(line) as unknown;
      return isObject(value) ? [value] : [];
    } catch {
      // The line the CLI is writing right now.
      return [];
    }
  });
}
