/**
 * A Gemini CLI session into the IR, pure: the log's lines (and its subagents' logs) in, a session out. The log
 * is replayed first as the CLI replays it on resume (replay.ts), so the live thread is the message list the CLI
 * itself would load; what a rewind dropped is kept apart as an abandoned branch, and each subagent's own log
 * (`chats/<parent id>/<subagent id>.jsonl`) is a subagent thread, linked to the parent's `invoke_agent` call by
 * the call's `agentId`.
 *
 * A finished tool call is recorded twice: its `toolCalls` entry holds the result, and a user message right
 * after holds the same functionResponse (a checkpoint adds a third copy, `<id>_response`). The result is read
 * once, from the first copy met; the later ones answer nothing new.
 */
import type { Block, Message, Session, Thread, ToolResultBlock, Usage } from "../../ir/schema.ts";
import type { SessionStream } from "../../ir/stream.ts";
import type { JsonlLine, JsonlTail } from "../../io/jsonl.ts";
import { InputError } from "../../errors.ts";
import { assertRecordTime } from "../../ir/clock.ts";
import { DriftCollector } from "../../schemas/drift.ts";
import { VALIDATORS } from "../../generated/validators/gemini-cli.ts";
import { PendingTracker } from "../../ir/pending.ts";
import { emptySession, notePassthrough } from "../../ir/session.ts";
import { lastMessageTime, modelsOf, totalUsage } from "../../ir/summary.ts";
import { startsWithHandshake } from "../../handshake/handshake.ts";
import { isObject, type Json, optStr } from "../../io/json.ts";
import { type LoggedMessage, LogReplay, type ReplayedLog } from "./replay.ts";
import {
  callBlock,
  contentText,
  CONTEXT_START,
  functionResponse,
  partBlock,
  partsOf,
  partText,
  resultBlock,
  SNAPSHOT_START,
  thoughtBlocks,
  toolCallResults,
  usageOf,
} from "./parts.ts";

export const HARNESS = "gemini-cli";

/**
 * The version whose schema describes a legacy whole-session `.json`: the newest checked to write one (later
 * versions write a JSONL log and only read a `.json`, copying it to `.jsonl` on resume). Neither form names
 * the version that wrote it, so a log is checked against the newest version's schemas.
 */
const LEGACY_WRITER = "0.36.0";

/** The info message the CLI records when the user cancels a turn (Esc). */
const CANCELLED = "Request cancelled.";

/** A session log's lines as the store reads them, with the file they come from. */
export interface SessionLines {
  path: string;
  lines: AsyncIterable<JsonlLine>;
  /** Filled in once `lines` is exhausted: a last line a live writer had not finished. */
  tail: JsonlTail;
}

/** What reading one log gives besides its replay. */
export interface LogFacts {
  replayed: ReplayedLog;
  drift: DriftCollector;
  passthrough: Session["passthrough"];
  notices: string[];
}

/** The logs of a session's subagents, given its id (the folder they are kept in is named by it). */
export type SubagentLogs = (sessionId: string) => readonly SessionLines[];

const noSubagents: SubagentLogs = () => [];

/** A session from its log and its subagents' logs. */
export async function decodeGemini(
  log: SessionLines,
  subagents: SubagentLogs = noSubagents,
): Promise<Session> {
  const facts = await replayLines(log);
  return await assemble(log.path, facts, subagents);
}

/** A legacy whole-session `.json` file (its parsed document), and its subagents' logs. */
export async function decodeGeminiDocument(
  path: string,
  document: unknown,
  bytes: number,
  subagents: SubagentLogs = noSubagents,
): Promise<Session> {
  if (!isObject(document)) throw new InputError(`${path}: not a Gemini CLI session (not a JSON object)`);
  const drift = new DriftCollector(HARNESS, VALIDATORS);
  drift.check(LEGACY_WRITER, "session", document, 1);
  const replay = new LogReplay(path, HARNESS);
  replay.addWhole(document, { harness: HARNESS, path, offset: 0, length: bytes, type: "session" });
  return await assemble(path, { replayed: replay.result(), drift, passthrough: [], notices: [] }, subagents);
}

/** A log's lines replayed (by `replay`: an indexing one holds only places), checked for drift. */
export async function replayLines(
  log: SessionLines,
  replay = new LogReplay(log.path, HARNESS),
): Promise<LogFacts> {
  const drift = new DriftCollector(HARNESS, VALIDATORS);
  const passthrough: Session["passthrough"] = [];
  for await (const line of log.lines) {
    const kind = replay.add(line);
    // A line none of the CLI's tests claims is skipped by it too; drift names it.
    drift.check(undefined, kind ?? "(unrecognized)", line.value, line.line);
    if (kind === "message" && isObject(line.value)) {
      assertRecordTime(line.value.timestamp, `${log.path}:${line.line}`, "timestamp");
    } else {
      notePassthrough(
        passthrough,
        kind ? (kind === "set" ? "$set" : kind === "rewind" ? "$rewindTo" : kind) : "unrecognized",
        () => ({
          harness: HARNESS,
          path: log.path,
          offset: line.offset,
          length: line.length,
          type: kind ?? "unrecognized",
        }),
      );
    }
  }
  const notices = log.tail.truncatedLine
    ? [
      `${log.path}:${log.tail.truncatedLine}: incomplete last line (a live writer was mid-append); it was skipped`,
    ]
    : [];
  return { replayed: replay.result(), drift, passthrough, notices };
}

async function assemble(path: string, facts: LogFacts, subagents: SubagentLogs): Promise<Session> {
  const session: Session = sessionOf(path, facts);
  const built = buildThread(path, facts.replayed.messages, session.notices, facts.replayed.compression);
  session.messages = built.messages;
  session.pending = built.pending.pending([]);
  session.threads = [
    ...facts.replayed.compacted.map((history, i): Thread => ({
      id: `compacted-${i + 1}`,
      kind: "compacted",
      messages: buildThread(path, history, []).messages,
    })),
    ...facts.replayed.rewound.map((branch, i): Thread => ({
      id: `rewound-${i + 1}`,
      kind: "abandoned-branch",
      messages: buildThread(path, branch, []).messages,
    })),
  ];
  const { messages } = session;
  await finish(session, facts, subagents, {
    models: modelsOf(messages),
    updatedAt: lastMessageTime(messages),
    usage: totalUsage(messages),
  });
  return session;
}

/** The session a replayed log is, before its threads: one without a session id and project is not one. */
export function sessionOf(path: string, facts: LogFacts): Session {
  const { metadata } = facts.replayed;
  const id = optStr(metadata.sessionId);
  if (!id || typeof metadata.projectHash !== "string") {
    throw new InputError(
      `${path}: no metadata line with sessionId and projectHash: not a Gemini CLI session`,
    );
  }
  return emptySession({ harness: HARNESS, id, path, models: [] });
}

/** What the head takes from the live thread. */
export interface LiveFacts {
  models: string[];
  updatedAt?: string;
  usage?: Usage;
}

/** The session's subagent threads, what the log says besides its messages, and its meta. */
export async function finish(
  session: SessionStream,
  facts: LogFacts,
  subagents: SubagentLogs,
  live: LiveFacts,
): Promise<void> {
  const { metadata } = facts.replayed;
  for (const sub of subagents(session.meta.id)) session.threads.push(await subagentThread(sub, session));
  session.passthrough = facts.passthrough;
  session.drift.push(...facts.drift.entries());
  session.notices.push(...facts.notices);
  const meta = session.meta;
  meta.models = live.models;
  meta.cwd = firstDirectory(metadata);
  meta.title = optStr(metadata.summary);
  meta.provider = "google";
  meta.createdAt = facts.replayed.started ?? optStr(metadata.startTime);
  // The newest message, not a later `$set` (a summary) bumping lastUpdated.
  meta.updatedAt = live.updatedAt ?? optStr(metadata.lastUpdated);
  meta.usage = live.usage;
  for (const key of ["cwd", "title", "createdAt", "updatedAt", "usage"] as const) {
    if (meta[key] === undefined) delete meta[key];
  }
}

/** A subagent's own log as a thread; its messages carry the subagent's id (the parent call's `agentId`). */
async function subagentThread(sub: SessionLines, parent: SessionStream): Promise<Thread> {
  const facts = await replayLines(sub);
  const agentId = optStr(facts.replayed.metadata.sessionId);
  const messages = buildThread(sub.path, facts.replayed.messages, parent.notices).messages;
  parent.drift.push(...facts.drift.entries());
  parent.notices.push(...facts.notices);
  return {
    id: agentId ?? sub.path,
    kind: "subagent",
    messages: agentId ? messages.map((m) => ({ ...m, agentId })) : messages,
  };
}

/** A subagent's metadata names its workspace directories; a main session names none (its folder's slug does). */
function firstDirectory(metadata: Json): string | undefined {
  return Array.isArray(metadata.directories) ? optStr(metadata.directories[0]) : undefined;
}

/** The replayed records as IR messages, in order, each the parent of the next. */
function buildThread(
  path: string,
  logged: Iterable<LoggedMessage>,
  notices: string[],
  compression: ReadonlySet<string> = new Set(),
) {
  const thread = new ThreadBuilder(path, notices, compression);
  const messages: Message[] = [];
  for (const m of logged) messages.push(...thread.add(m));
  return { messages, pending: thread.pending };
}

/**
 * A thread built record by record (what the held read and every streamed pass share): each record's messages,
 * linked after the ones before them, with the calls left pending.
 */
export class ThreadBuilder {
  readonly pending = new PendingTracker();
  private readonly answered = new Set<string>();
  private last: string | null = null;
  private count = 0;

  constructor(
    private readonly path: string,
    private readonly notices: string[],
    private readonly compression: ReadonlySet<string> = new Set(),
  ) {}

  /** The messages one replayed record gives. */
  add({ record, origin, line }: LoggedMessage): Message[] {
    const { compression, answered } = this;
    const out: Message[] = [];
    const push = (m: Message) => {
      m.parentUid = this.last;
      this.last = m.uid;
      this.count++;
      out.push(m);
      this.pending.add(m);
    };
    const uid = record.id as string;
    const timestamp = optStr(record.timestamp);
    const base = { uid, parentUid: null, origin, ...(timestamp ? { timestamp } : {}) };
    switch (record.type) {
      case "user":
        // A compression's snapshot is the summary of the history it replaced, whatever its words.
        userMessages(record, base, answered)
          .map((m): Message => (compression.has(uid) && m.role === "user" ? { ...m, kind: "summary" } : m))
          .forEach(push);
        break;
      case "gemini":
        // Its acknowledgement of the snapshot is the CLI's own words, not an answer of the model's.
        geminiMessages(record, base, answered)
          .map((m): Message => (compression.has(uid) ? { ...m, kind: "context" } : m))
          .forEach(push);
        break;
      case "info":
        // The user cancelled the turn under way: a call it left unanswered was interrupted.
        if (contentText(record.content).trim() === CANCELLED) this.pending.abortAt(this.count);
        break;
      case "error":
      case "warning":
        this.notices.push(
          `${this.path}:${line}: Gemini CLI recorded ${record.type === "error" ? "an error" : "a warning"}`,
        );
        break;
      default:
        push({
          ...base,
          role: "assistant",
          kind: "turn",
          blocks: [{ type: "raw", harness: HARNESS, kind: String(record.type ?? "message"), value: record }],
        });
    }
    return out;
  }
}

type Base = Pick<Message, "uid" | "parentUid" | "origin" | "timestamp">;

/**
 * A user record: the person's words, the harness's context, a compression's snapshot, and the function
 * responses it carries. Told apart part by part: `/chat resume` records the loaded first prompt in one message
 * with the session context before it.
 */
function userMessages(record: Json, base: Base, answered: Set<string>): Message[] {
  const results: ToolResultBlock[] = [];
  const groups: { kind: Message["kind"]; blocks: Block[] }[] = [];
  for (const part of partsOf(record.content)) {
    const response = functionResponse(part);
    if (!response) {
      const block = partBlock(part);
      const kind = userPartKind(part);
      const last = groups.at(-1);
      if (!block) continue;
      if (last?.kind === kind) last.blocks.push(block);
      else groups.push({ kind, blocks: [block] });
      continue;
    }
    const result = resultBlock(response);
    if (answered.has(result.callId)) continue;
    answered.add(result.callId);
    results.push(result);
  }
  const out: Message[] = [];
  if (results.length) out.push({ ...base, role: "tool", kind: "turn", blocks: results });
  for (const { kind, blocks } of groups) {
    const n = out.length;
    const uid = n === 0 ? base.uid : n === 1 ? `${base.uid}_text` : `${base.uid}_text${n}`;
    out.push({ ...base, uid, role: "user", kind, blocks });
  }
  return out;
}

/** What a user part is: the CLI's context, the snapshot a compression put in place of the history, or words. */
function userPartKind(part: unknown): Message["kind"] {
  const text = partText(part) ?? "";
  // The CLI's own context, or an earlier hop's handshake (the user's words had the marker neutralized).
  if (CONTEXT_START.test(text) || startsWithHandshake(text)) return "context";
  return SNAPSHOT_START.test(text) ? "summary" : "turn";
}

/** A gemini record: its thoughts, text and calls, then the results its finished calls hold. */
function geminiMessages(record: Json, base: Base, answered: Set<string>): Message[] {
  const content = partsOf(record.content);
  // A checkpoint's copy holds its thoughts and calls as parts; the recorded one beside the content.
  const thoughtsInContent = content.some((p) => isObject(p) && p.thought === true);
  const blocks: Block[] = thoughtsInContent ? [] : thoughtBlocks(record);
  const calls = Array.isArray(record.toolCalls) ? record.toolCalls.filter(isObject) : [];
  const callBlocks = calls.map(callBlock);
  // Compared as read (the API's ids): the part and the recorded call both carry the `<tool>__` prefix.
  const callIds = new Set(callBlocks.map((b) => b.id));
  for (const part of content) {
    const block = partBlock(part);
    if (block && !(block.type === "tool_call" && callIds.has(block.id))) blocks.push(block);
  }
  blocks.push(...callBlocks);
  const model = optStr(record.model);
  const usage = usageOf(record.tokens);
  const out: Message[] = [];
  if (blocks.length) {
    out.push({
      ...base,
      role: "assistant",
      kind: "turn",
      blocks,
      ...(model ? { model } : {}),
      ...(usage ? { usage } : {}),
    });
  }
  const results = calls.flatMap(toolCallResults).filter((r) => !answered.has(r.callId));
  for (const r of results) answered.add(r.callId);
  if (results.length) {
    out.push({ ...base, uid: `${base.uid}_response`, role: "tool", kind: "turn", blocks: results });
  }
  return out;
}
