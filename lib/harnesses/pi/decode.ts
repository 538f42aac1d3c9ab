/**
 * A Pi session into the IR, pure: the file's lines in, a session out. The entries are built into Pi's tree
 * (tree.ts); the live thread is what the model sees on resume: the live branch, from its last compaction's
 * summary on (messages.ts), with Pi's own repair before sending (`transformMessages` in pi-ai 0.73.1): a
 * response that failed or was aborted is never sent again. A call without a result is an open call wherever
 * it stands, as every reader gives one: what Pi sends for it on resume, an error result "No result provided",
 * is its descriptor's `unansweredCalls`, which the loss report names.
 * History a compaction summarized and branches off the live one are threads of their own.
 */
import type { Message, Session, Thread } from "../../ir/schema.ts";
import type { JsonlLine, JsonlTail } from "../../io/jsonl.ts";
import { InputError } from "../../errors.ts";
import { assertRecordTime, isoTime } from "../../ir/clock.ts";
import { DriftCollector } from "../../schemas/drift.ts";
import { VALIDATORS } from "../../generated/validators/pi.ts";
import { PendingTracker } from "../../ir/pending.ts";
import { emptySession, notePassthrough } from "../../ir/session.ts";
import { modelsOf, titleFromFirstUserText, titleLine, totalUsage } from "../../ir/summary.ts";
import { isObject, type Json, optStr } from "../../io/json.ts";
import { branches, contextOf, type LineRecord, livePath, piEntries, type PiEntry } from "./tree.ts";
import { agentMessage, entryMessage, isAbandonedResponse, MESSAGE_ENTRIES, origin } from "./messages.ts";
import { ListFacts } from "./facts.ts";

const HARNESS = "pi";

/** A session file's lines as the store reads them, with the file they come from. */
export interface SessionLines {
  path: string;
  lines: AsyncIterable<JsonlLine>;
  /** Filled in once `lines` is exhausted: a last line a live writer had not finished. */
  tail: JsonlTail;
}

export async function decodePi(log: SessionLines): Promise<Session> {
  const { path } = log;
  const drift = new DriftCollector(HARNESS, VALIDATORS);
  let header: Json | undefined;
  const records: LineRecord[] = [];
  for await (const { line, offset, length, value } of log.lines) {
    if (!header) {
      if (!isObject(value) || value.type !== "session" || typeof value.id !== "string") {
        throw new InputError(`${path}:${line}: no session header with an id: not a Pi session`);
      }
      header = value;
      drift.check(undefined, "session", value, line);
      continue;
    }
    const type = isObject(value) && typeof value.type === "string" ? value.type : "(none)";
    drift.check(undefined, type, value, line);
    if (isObject(value)) assertRecordTime(value.timestamp, `${path}:${line}`, "timestamp");
    records.push({ line, offset, length, value });
  }
  if (!header) throw new InputError(`${path}: empty file: not a Pi session`);

  const version = typeof header.version === "number" ? header.version : 1;
  const entries = piEntries(records, version);
  const session = emptySession({ harness: HARNESS, id: header.id as string, path, models: [] });
  const { path: live, looped } = livePath(entries);
  if (looped) {
    session.notices.push(`${path}: the entries' parent links loop; the live branch is cut where they do`);
  }
  const { context, compacted } = contextOf(live);
  session.messages = liveThread(path, context, session);
  if (compacted.length) {
    session.threads.push({
      id: "compacted",
      kind: "compacted",
      messages: threadMessages(path, compacted, undefined),
    });
  }
  const onPath = new Set(live);
  const byId = new Map(entries.map((e) => [e.id, e]));
  for (const group of branches(entries, onPath)) {
    const first = group[0]!;
    const from = first.parentId === null ? undefined : byId.get(first.parentId);
    const messages = threadMessages(path, group, from?.uid);
    if (messages.length) {
      session.threads.push(
        { id: `branch-${first.uid}`, kind: "abandoned-branch", messages } satisfies Thread,
      );
    }
  }

  const facts = new ListFacts();
  let cost = 0;
  for (const entry of entries) {
    facts.add(entry.value);
    const message = agentMessage(entry.value);
    const total = message && isObject(message.usage) && isObject(message.usage.cost)
      ? message.usage.cost.total
      : 0;
    if (typeof total === "number" && Number.isFinite(total) && total > 0) cost += total;
    if (!MESSAGE_ENTRIES.has(entry.type)) {
      notePassthrough(session.passthrough, entry.type || "(none)", () => origin(path, entry));
    }
  }
  session.drift.push(...drift.entries());
  if (log.tail.truncatedLine) {
    session.notices.push(
      `${path}:${log.tail.truncatedLine}: incomplete last line (a live writer was mid-append); it was skipped`,
    );
  }

  const meta = session.meta;
  meta.models = modelsOf(session.messages);
  const cwd = optStr(header.cwd);
  if (cwd) meta.cwd = cwd;
  const createdAt = optStr(header.timestamp);
  if (createdAt) meta.createdAt = createdAt;
  const updatedAt = facts.lastActivity !== undefined ? isoTime(facts.lastActivity) : createdAt;
  if (updatedAt) meta.updatedAt = updatedAt;
  const provider = resumeProvider(live);
  if (provider) meta.provider = provider;
  const title = facts.name ? titleLine(facts.name) : titleFromFirstUserText(session);
  if (title) meta.title = title;
  const usage = totalUsage(session.messages);
  if (usage) meta.usage = usage;
  if (cost > 0) meta.costUsd = cost;
  return session;
}

/**
 * The provider Pi resumes on: the last model_change on the live branch, or the last assistant message's
 * (`buildSessionContext`).
 */
function resumeProvider(path: readonly PiEntry[]): string | undefined {
  let provider: string | undefined;
  for (const entry of path) {
    if (entry.type === "model_change") provider = optStr(entry.value.provider);
    const message = agentMessage(entry.value);
    if (entry.type === "message" && message?.role === "assistant") provider = optStr(message.provider);
  }
  return provider;
}

/** The model's context as IR messages, without the responses Pi does not send again. */
function liveThread(path: string, context: readonly PiEntry[], session: Session): Message[] {
  const out: Message[] = [];
  const tracker = new PendingTracker();
  const push = (m: Message) => {
    m.parentUid = out.at(-1)?.uid ?? null;
    out.push(m);
    tracker.add(m);
  };
  for (const entry of context) {
    const timestamp = optStr(entry.value.timestamp);
    const message = entry.type === "message" ? agentMessage(entry.value) : undefined;
    if (message?.role === "assistant" && isAbandonedResponse(message)) {
      tracker.abortAt(out.length);
      if (Array.isArray(message.content) && message.content.length) {
        session.notices.push(
          `${path}:${entry.line}: a response Pi recorded as ${message.stopReason} is left out, as Pi leaves it ` +
            "out of what it sends",
        );
      }
      continue;
    }
    const m = entryMessage(entry.type, entry.value, base(path, entry, timestamp));
    if (m) push(m);
  }
  session.pending = tracker.pending([]);
  return out;
}

/** Entries kept apart from the live thread, as messages each following the one before. */
function threadMessages(path: string, entries: readonly PiEntry[], from: string | undefined): Message[] {
  const out: Message[] = [];
  for (const entry of entries) {
    const m = entryMessage(entry.type, entry.value, base(path, entry, optStr(entry.value.timestamp)));
    if (!m || !m.blocks.length) continue;
    m.parentUid = out.at(-1)?.uid ?? from ?? null;
    out.push(m);
  }
  return out;
}

function base(path: string, entry: PiEntry, timestamp: string | undefined) {
  return {
    uid: entry.uid,
    parentUid: null,
    origin: origin(path, entry),
    ...(timestamp ? { timestamp } : {}),
  };
}
