/**
 * Hermes sessions that live in files rather than `state.db`: `hermes sessions export` lines (one session object
 * with its `messages` per line), opt-in JSON snapshots `sessions/session_<id>.json` (the only place the tool
 * catalog is kept) and legacy gateway transcripts `sessions/<id>.jsonl` (up to 0.14: a `session_meta` line,
 * then one message per line). Each is read into the same sessions-row / message shapes as the database.
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { InputError } from "../../errors.ts";
import type { Session } from "../../ir/schema.ts";
import { assertRecordTime, assertStoredTime } from "../../ir/clock.ts";
import { DEFAULT_READ_LIMITS, readJsonl } from "../../io/jsonl.ts";
import type { ReadOptions } from "../types.ts";
import { assertRegularFile } from "../../io/file-kind.ts";
import { DriftCollector } from "../../schemas/drift.ts";
import { VALIDATORS } from "../../generated/validators/hermes.ts";
import { encodeContent } from "./content.ts";
import { GENERATIONS, LEGACY_TRANSCRIPT_VERSION, NEWEST_GENERATION } from "./generations.ts";
import { decodeMessage, type HermesMessage, type SessionRecord } from "./message.ts";
import { pyJson } from "./pyjson.ts";
import { localIsoSeconds } from "./local-time.ts";
import { isObject, type Json, nestsDeeperThan, optStr, tooDeep } from "../../io/json.ts";

type Tools = Session["tools"];

export interface FileSession {
  chain: SessionRecord[];
  messages: HermesMessage[];
  tools: Tools;
  version: string;
  drift: DriftCollector;
  notices: string[];
  /** A `hermes sessions export` line: the stored rows themselves. */
  exported?: boolean;
}

/**
 * A time in a Hermes file (ISO text in snapshots and transcripts, epoch seconds in snapshots' messages and in
 * exports) that no date can hold is bad input named by `where`, as it is in state.db rows: read as a missing time
 * it would silently re-date the history.
 */
function assertFileTime(value: unknown, where: string, field: string): void {
  if (typeof value === "string") assertRecordTime(value, where, field);
  else assertStoredTime(value, 1000, where, field);
}

function toolSchemas(tools: unknown): Tools {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((t): Tools => {
    const fn = isObject(t) && isObject(t.function) ? t.function : undefined;
    if (!fn || typeof fn.name !== "string") return [];
    return [{
      name: fn.name,
      ...(optStr(fn.description) ? { description: optStr(fn.description) } : {}),
      ...(fn.parameters !== undefined ? { inputSchema: fn.parameters } : {}),
    }];
  });
}

/** A `session_<id>.json` snapshot. */
export function readSnapshot(path: string): FileSession {
  let snapshot: unknown;
  assertRegularFile(path);
  const text = readFileSync(path, "utf8");
  if (nestsDeeperThan(text)) throw new InputError(`${path}: ${tooDeep}`);
  try {
    snapshot = JSON.parse(text);
  } catch {
    throw new InputError(`${path}: not valid JSON`);
  }
  if (!isObject(snapshot) || !Array.isArray(snapshot.messages)) {
    throw new InputError(`${path}: not a Hermes session snapshot (no messages list)`);
  }
  assertFileTime(snapshot.session_start, path, "session_start");
  snapshot.messages.forEach((m, i) => {
    if (isObject(m)) assertFileTime(m.timestamp, `${path}: message ${i + 1}`, "timestamp");
  });
  const drift = new DriftCollector("hermes", VALIDATORS);
  drift.check(NEWEST_GENERATION.version, "snapshot", snapshot, 1);
  const id = optStr(snapshot.session_id) ?? basename(path, ".json").replace(/^session_/, "");
  const session: SessionRecord = {
    id,
    source: optStr(snapshot.platform) ?? "cli",
    model: optStr(snapshot.model) ?? null,
    system_prompt: optStr(snapshot.system_prompt) ?? null,
    started_at: localIsoSeconds(snapshot.session_start) ?? 0,
    billing_base_url: optStr(snapshot.base_url) ?? null,
  };
  return {
    chain: [session],
    messages: snapshot.messages.filter(isObject).map((m) => withSecondsTimestamp(decodeMessage(m))),
    tools: toolSchemas(snapshot.tools),
    version: NEWEST_GENERATION.version,
    drift,
    notices: [],
  };
}

function withSecondsTimestamp(message: HermesMessage): HermesMessage {
  const seconds = localIsoSeconds(message.timestamp);
  if (seconds === undefined) delete message.timestamp;
  else message.timestamp = seconds;
  return message;
}

/**
 * A JSONL file: a legacy gateway transcript (its records carry `role`) or a `hermes sessions export` file (each
 * line one session with `messages`). An export holding several sessions is refused: name one with
 * `hermes sessions export --session-id`.
 */
export async function readHermesJsonl(
  path: string,
  { limits = DEFAULT_READ_LIMITS, feedback }: ReadOptions,
): Promise<FileSession> {
  const tail: { truncatedLine?: number } = {};
  const lines = readJsonl(path, tail, { maxRecordBytes: limits.maxRecordBytes, feedback });
  const first = await lines.next();
  if (first.done || !isObject(first.value.value)) {
    throw new InputError(`${path}: no Hermes session in this file`);
  }
  const read = Array.isArray(first.value.value.messages)
    ? readExportLine(path, first.value.value, first.value.line)
    : await readTranscript(path, first.value.value, lines);
  if (Array.isArray(first.value.value.messages) && !(await lines.next()).done) {
    throw new InputError(`${path}: holds several exported sessions; export one with --session-id`);
  }
  if (tail.truncatedLine) {
    read.notices.push(
      `${path}:${tail.truncatedLine}: incomplete last line (a live writer was mid-append); skipped`,
    );
  }
  return read;
}

/** Keys an export line adds to the sessions row (`export_session`, `export_session_lineage`). */
const EXPORT_KEYS = new Set(["messages", "segments", "lineage_session_ids"]);

function readExportLine(path: string, line: Json, lineNo: number): FileSession {
  const drift = new DriftCollector("hermes", VALIDATORS);
  const segments = Array.isArray(line.segments) && line.segments.every(isObject)
    ? line.segments as Json[]
    : [line];
  const chain = segments.map((s) => sessionPart(path, s));
  const version = exportGeneration(Object.keys(chain.at(-1)!));
  for (const session of chain) drift.check(version, "sessions-row", session, lineNo);
  const messages = segments.flatMap((s) => (Array.isArray(s.messages) ? s.messages.filter(isObject) : []));
  for (const session of chain) {
    const where = `${path}:${lineNo}: session ${JSON.stringify(session.id)}`;
    assertFileTime(session.started_at, where, "started_at");
    assertFileTime(session.ended_at, where, "ended_at");
  }
  messages.forEach((m, i) => assertFileTime(m.timestamp, `${path}:${lineNo}: message ${i + 1}`, "timestamp"));
  messages.forEach((m, i) => drift.check(version, "messages-row", storedForm(m), i + 1));
  return {
    chain,
    messages: messages.map(decodeMessage),
    tools: [],
    version,
    drift,
    notices: [],
    exported: true,
  };
}

function sessionPart(path: string, value: Json): SessionRecord {
  if (typeof value.id !== "string") throw new InputError(`${path}: an exported session without an id`);
  return Object.fromEntries(Object.entries(value).filter(([k]) => !EXPORT_KEYS.has(k))) as SessionRecord;
}

/** The generation whose sessions columns are exactly (or most tightly) the exported keys. */
function exportGeneration(keys: string[]): string {
  const fitting = GENERATIONS.filter((g) => keys.every((k) => g.columns.sessions.includes(k)));
  return (fitting[0] ?? NEWEST_GENERATION).version;
}

/** An exported message back in column form (content encoded, tool calls as text) for the row schema. */
function storedForm(message: Json): Json {
  const out: Json = { ...message };
  if (Array.isArray(message.content)) out.content = encodeContent(message.content as Json[]);
  if (Array.isArray(message.tool_calls)) out.tool_calls = pyJson(message.tool_calls, { ensureAscii: true });
  return out;
}

async function readTranscript(
  path: string,
  first: Json,
  rest: AsyncGenerator<{ line: number; value: unknown }>,
): Promise<FileSession> {
  const drift = new DriftCollector("hermes", VALIDATORS);
  const session: SessionRecord = { id: basename(path, ".jsonl"), source: "cli", started_at: 0 };
  const messages: HermesMessage[] = [];
  let tools: Tools = [];
  const take = (record: unknown, line: number) => {
    if (!isObject(record)) throw new InputError(`${path}:${line}: expected a JSON object`);
    const role = String(record.role ?? "");
    drift.check(LEGACY_TRANSCRIPT_VERSION, `transcript-${role}`, record, line);
    assertFileTime(record.timestamp, `${path}:${line}`, "timestamp");
    const seconds = localIsoSeconds(record.timestamp);
    if (role === "session_meta") {
      tools = toolSchemas(record.tools);
      session.source = optStr(record.platform) ?? session.source;
      session.model = optStr(record.model) ?? null;
      session.started_at = seconds ?? session.started_at;
      return;
    }
    const message = withSecondsTimestamp(decodeMessage(record));
    // The transcript names a tool result's tool `name` (OpenAI style); the database calls it `tool_name`.
    if (role === "tool" && !message.tool_name && optStr(record.name)) message.tool_name = optStr(record.name);
    messages.push(message);
  };
  take(first, 1);
  for await (const { line, value } of rest) take(value, line);
  if (!session.started_at) session.started_at = messages.find((m) => m.timestamp)?.timestamp ?? 0;
  return { chain: [session], messages, tools, version: LEGACY_TRANSCRIPT_VERSION, drift, notices: [] };
}
