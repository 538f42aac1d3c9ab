/**
 * Reading a Gemini CLI session from its store: the log (or a legacy whole-session `.json`) and its subagents'
 * logs beside it (`chats/<session id>/*.jsonl`), read into the codec (decode.ts), and the project path the
 * store's layout gives it. A later line can replace any earlier message, and a checkpoint the whole list, so no
 * message is final before the last line: a small log is held whole, a large one indexed and its live thread
 * read again by the places the index found (streamed.ts). A legacy `.json` is one document: it is held.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import type { Session } from "../../ir/schema.ts";
import type { SessionStream } from "../../ir/stream.ts";
import { DEFAULT_READ_LIMITS, openRecords, readJsonl, type ReadLimits, streams } from "../../io/jsonl.ts";
import { spillMessages } from "../../ir/spill.ts";
import type { ReadOptions } from "../types.ts";
import { InputError } from "../../errors.ts";
import { reclaimMemory } from "../../runtime.ts";
import { nestsDeeperThan, tooDeep } from "../../io/json.ts";
import { assertRegularFile } from "../../io/file-kind.ts";
import { titleFromFirstUserText } from "../../ir/summary.ts";
import { decodeGemini, decodeGeminiDocument, type SessionLines } from "./decode.ts";
import { decodeGeminiStreamed } from "./streamed.ts";
import { projectPathOf, projectsBySlug, storeOfSession, subagentFiles } from "./locate.ts";

export async function readGeminiSession(path: string, options: ReadOptions = {}): Promise<Session> {
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  const session = path.endsWith(".json")
    ? await decodeGeminiDocument(
      path,
      parsedDocument(path, limits),
      statSync(path).size,
      subagentsOf(path, limits),
    )
    : await decodeGemini(logLines(path, limits), subagentsOf(path, limits));
  withStoreFacts(path, session);
  session.meta.title ??= titleFromFirstUserText(session);
  return session;
}

/** The session to convert: held while it is small (or a legacy `.json`), its live thread streamed once large. */
export async function openGeminiSession(path: string, options: ReadOptions = {}): Promise<SessionStream> {
  if (!existsSync(path)) throw new InputError(`${path}: no such session file`);
  const limits = options.limits ?? DEFAULT_READ_LIMITS;
  if (path.endsWith(".json") || !streams(statSync(path).size, limits)) {
    return await readGeminiSession(path, options);
  }
  const streamed = await decodeGeminiStreamed(
    { ...logLines(path, limits), open: () => openRecords(path, options.feedback), spill: spillMessages },
    subagentsOf(path, limits),
  );
  // The index of every line the log wrote, a few dozen megabytes of a large log, is garbage now: collected
  // before the conversion's passes pile their own garbage on it.
  reclaimMemory();
  const { session } = streamed;
  withStoreFacts(path, session);
  session.meta.title ??= streamed.firstUserTitle;
  return session;
}

const subagentsOf = (path: string, limits: ReadLimits) => (id: string) =>
  subagentFiles(path, id).map((p) => logLines(p, limits));

/** The project path the store's layout gives the session, when its log does not name one. */
function withStoreFacts(path: string, session: SessionStream) {
  const store = storeOfSession(path);
  const cwd = store ? projectPathOf(path, projectsBySlug(store)) : undefined;
  if (cwd) session.meta.cwd ??= cwd;
}

function logLines(path: string, { maxRecordBytes }: ReadLimits): SessionLines {
  const tail = {};
  return { path, lines: readJsonl(path, tail, { maxRecordBytes }), tail };
}

/** A legacy session file's one JSON document; one that does not parse is bad input naming the file. */
function parsedDocument(path: string, { maxRecordBytes }: ReadLimits): unknown {
  assertRegularFile(path);
  if (statSync(path).size > maxRecordBytes) {
    throw new InputError(
      `${path}: a session document longer than the record limit (${maxRecordBytes} bytes)`,
    );
  }
  const text = readFileSync(path, "utf8");
  // JSON.parse takes nesting far deeper than the writers and JSON.stringify after it can recurse through.
  if (nestsDeeperThan(text)) throw new InputError(`${path}: ${tooDeep}`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InputError(`${path}: not a JSON document (${(error as Error).message})`);
  }
}
