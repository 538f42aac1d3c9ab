/**
 * What a running OpenCode has recorded so far in its opencode.db, for the certify driver to wait on and take
 * answers from: its sessions, and a session's messages with their parts in the order OpenCode itself loads them
 * (by id: ids are time-ordered), as much of each as a seeding needs. Read-only, and the database is in WAL mode,
 * so reading never blocks the OpenCode writing it. The session reader proper is the harness's store.
 */
import { existsSync } from "node:fs";
import { DatabaseSync } from "node:sqlite";
import { isObject, type Json } from "../../../io/json.ts";

export interface RecordedPart {
  /** `text`, `reasoning`, `tool`, `step-start`, `step-finish`, ... */
  type: string;
  text: string;
  /** A tool part's call: its lifecycle status (`pending`, `running`, `completed`, `error`) and shell command. */
  call?: { status: string; command: string };
}

export interface RecordedMessage {
  id: string;
  role: string;
  /** An assistant message OpenCode has finished (its `time.completed` set), normally or not. */
  completed: boolean;
  /** Why the assistant message ended (`stop`, `tool-calls`, ...). */
  finish: string;
  /** The error it ended with (`MessageAbortedError` when the person interrupted it). */
  error: string;
  parts: RecordedPart[];
}

/** The ids of the sessions a person started (no subagent's), oldest first; none before the database exists. */
export function mainSessions(database: string): string[] {
  return withDatabase(
    database,
    [],
    (db) =>
      db.prepare("SELECT id FROM session WHERE parent_id IS NULL ORDER BY time_created, id").all()
        .map((row) => String(row.id)),
  );
}

/** A session's messages with their parts, in order. */
export function recordedMessages(database: string, sessionId: string): RecordedMessage[] {
  return withDatabase(database, [], (db) => {
    const parts = new Map<string, RecordedPart[]>();
    const partRows = db.prepare("SELECT message_id, data FROM part WHERE session_id = ? ORDER BY id")
      .all(sessionId);
    for (const row of partRows) {
      const messageId = String(row.message_id);
      const own = parts.get(messageId) ?? [];
      own.push(recordedPart(parseData(row.data)));
      parts.set(messageId, own);
    }
    return db.prepare("SELECT id, data FROM message WHERE session_id = ? ORDER BY id").all(sessionId)
      .map((row) => {
        const id = String(row.id);
        const data = parseData(row.data);
        const time = isObject(data.time) ? data.time : {};
        return {
          id,
          role: String(data.role),
          completed: typeof time.completed === "number",
          finish: typeof data.finish === "string" ? data.finish : "",
          error: isObject(data.error) && typeof data.error.name === "string" ? data.error.name : "",
          parts: parts.get(id) ?? [],
        };
      });
  });
}

/** The words of a message's text parts. */
export function messageText(message: RecordedMessage): string {
  return message.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
}

function recordedPart(data: Json): RecordedPart {
  const state = isObject(data.state) ? data.state : {};
  const input = isObject(state.input) ? state.input : {};
  return {
    type: String(data.type),
    text: typeof data.text === "string" ? data.text : "",
    ...(data.type === "tool"
      ? {
        call: {
          status: String(state.status),
          command: typeof input.command === "string" ? input.command : "",
        },
      }
      : {}),
  };
}

function parseData(data: unknown): Json {
  try {
    const value: unknown = JSON.parse(String(data));
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

function withDatabase<T>(database: string, none: T, read: (db: DatabaseSync) => T): T {
  if (!existsSync(database)) return none;
  const db = new DatabaseSync(database, { readOnly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}
