/**
 * A session given as the file `opencode export <id>` prints (and `convert --to opencode` writes, render.ts):
 * `{info, messages: [{info, parts}]}`, the session and each message and part in OpenCode's API shape, their ids
 * and the ids of what holds them inside the objects. Read into the rows the database would hold (rows.ts), so
 * decode.ts reads both the same way. An export holds one session: its subagents' sessions are not in it.
 */
import { readFileSync } from "node:fs";
import { InputError } from "../../errors.ts";
import { assertStoredTime } from "../../ir/clock.ts";
import { isObject, type Json, MAX_JSON_DEPTH, nestsDeeperThan } from "../../io/json.ts";
import type { SessionRow, StoredMessage, StoredSession } from "./stored.ts";

export function exportedSession(file: string): StoredSession {
  const text = readFileSync(file, "utf8");
  if (nestsDeeperThan(text)) throw new InputError(`${file}: nests deeper than ${MAX_JSON_DEPTH} levels`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${file}: neither an OpenCode database nor an export (${(error as Error).message})`);
  }
  if (!isObject(parsed) || !isObject(parsed.info) || !Array.isArray(parsed.messages)) {
    throw new InputError(`${file}: not an OpenCode export (expected {info, messages})`);
  }
  return {
    database: file,
    row: sessionRow(parsed.info, file),
    messages: parsed.messages.map((m, i) => message(m, `${file}: messages[${i}]`)),
    subagents: [],
  };
}

function sessionRow(info: Json, file: string): SessionRow {
  const where = `${file}: info`;
  const time = isObject(info.time) ? info.time : {};
  const tokens = isObject(info.tokens) ? info.tokens : {};
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  for (const key of ["created", "updated"]) assertStoredTime(time[key], 1, where, `time.${key}`);
  const number = (value: unknown) => (typeof value === "number" ? value : 0);
  const json = (value: unknown) => (value === undefined || value === null ? null : JSON.stringify(value));
  return {
    id: text(info.id, where, "id"),
    parent_id: typeof info.parentID === "string" ? info.parentID : null,
    title: typeof info.title === "string" ? info.title : "",
    directory: typeof info.directory === "string" ? info.directory : "",
    version: typeof info.version === "string" ? info.version : "",
    revert: json(info.revert),
    model: json(info.model),
    permission: json(info.permission),
    cost: number(info.cost),
    tokens_input: number(tokens.input),
    tokens_output: number(tokens.output),
    tokens_cache_read: number(cache.read),
    tokens_cache_write: number(cache.write),
    time_created: time.created as number,
    time_updated: time.updated as number,
    time_archived: typeof time.archived === "number" ? time.archived : null,
  };
}

/** A message's data is its `info` without the ids the row keeps in columns; a part's likewise. */
function message(entry: unknown, where: string): StoredMessage {
  if (!isObject(entry) || !isObject(entry.info) || !Array.isArray(entry.parts)) {
    throw new InputError(`${where}: expected {info, parts}`);
  }
  const { id, sessionID: _session, ...data } = entry.info;
  const time = isObject(data.time) ? data.time : {};
  assertStoredTime(time.created, 1, `${where}.info`, "time.created");
  return {
    id: text(id, `${where}.info`, "id"),
    time_created: time.created as number,
    data,
    parts: entry.parts.map((part, i) => {
      if (!isObject(part)) throw new InputError(`${where}.parts[${i}]: not an object`);
      const { id: partId, sessionID: _s, messageID: _m, ...partData } = part;
      return { id: text(partId, `${where}.parts[${i}]`, "id"), data: partData };
    }),
  };
}

function text(value: unknown, where: string, key: string): string {
  if (typeof value !== "string" || !value) throw new InputError(`${where}: ${key} is not a string`);
  return value;
}
