/**
 * Renders the IR as a Claude Code transcript. A Claude Code source is copied record by record (only the session
 * id, cwd and links that must change are touched, so untouched records stay byte-identical); any other source
 * is rendered as one parentUuid chain of user/assistant records with the full assistant envelope, each
 * tool_result in the user record right after its tool_use.
 */
import { randomBytes } from "node:crypto";
import type { Block, Message } from "../../ir/schema.ts";
import type { Messages, SessionHead, SessionStream } from "../../ir/stream.ts";
import type { RenderOptions } from "../types.ts";
import type { JsonlLine } from "../../io/jsonl.ts";
import { handshakeTime, RecordClock } from "../../ir/clock.ts";
import { claudePermissionMode } from "./posture.ts";
import { isUuid, newUuid } from "../../ids.ts";
import { isObject } from "../../io/json.ts";
import { INTERRUPTED_RESULT, isHandshake, startsWithHandshake } from "../../handshake/handshake.ts";
import { blocksFromContent, blockToAnthropic } from "./content.ts";
import { ThreadEnd } from "./thread-end.ts";
import type {
  ClaudeAssistantContentBlock,
  ClaudeAssistantRecord,
  ClaudeSystemRecord,
  ClaudeUserContentBlock,
  ClaudeUserRecord,
} from "../../generated/claude-code/2.1.328.ts";
import { CLAUDE_WRITER_VERSION } from "./version.ts";
import { compareVersions } from "../../schemas/compare.ts";
import { UuidLinks } from "../../io/uuid-links.ts";
import { compactionOf } from "../../ir/compacted.ts";
import { compactBoundary, compactSummary } from "./compaction.ts";

type Json = Record<string, unknown>;

/**
 * The session as transcript lines for `targetVersion`. `source` is the records of a Claude Code source (the
 * store reads them): they are copied; without them the IR is rendered. The live thread is iterated once.
 */
export async function* encodeClaude(
  session: SessionStream,
  options: RenderOptions,
  targetVersion: string = CLAUDE_WRITER_VERSION,
  source?: AsyncIterable<JsonlLine>,
): AsyncGenerator<string> {
  const clock = new RecordClock(options.now, session.meta.createdAt);
  const tail: CopyTail = { parent: null };
  const end = new ThreadEnd(session.pending.openToolCalls);
  if (source) {
    yield* copyRecords(source, options, clock, tail, await liveParents(session.messages, end));
    const last = end.lastLiveUid;
    tail.parent = (last && tail.renamed?.get(last)) ?? last ?? tail.parent;
  } else {
    yield* renderMessages(session, { ...options, version: targetVersion }, clock, tail, end);
  }
  const envelope = (parent: string | null) => baseRecord({ ...options, version: targetVersion }, parent);
  const open = end.unanswered();
  if (options.stubOpenCalls && open.length) {
    const uuid = newUuid();
    const content: ClaudeUserContentBlock[] = open.map((c) => ({
      type: "tool_result",
      tool_use_id: c.callId,
      content: INTERRUPTED_RESULT,
      is_error: true,
    }));
    const stub: ClaudeUserRecord = {
      ...envelope(tail.parent),
      type: "user",
      message: { role: "user", content },
      uuid,
      timestamp: clock.next(),
    };
    yield line(stub);
    tail.parent = uuid;
  }
  if (options.handshake) {
    const record = handshakeRecord(
      options.handshake,
      envelope(tail.parent),
      clock.next(handshakeTime(options.now)),
      targetVersion,
    );
    yield line(record);
  }
}

/**
 * Each live message's parent, by uid, for the copy to link its records by (see copyRecords). The records come
 * in file order and the thread in its own (a compaction's kept messages follow the boundary written after them;
 * a queued prompt moves), so no window of the thread would do: every link is read before the first record.
 * That is what the copy holds, as numbers (UuidLinks): for 400,000 messages some 12 MB, where a Map of their
 * ids took 48 MB of heap (80 MB of RSS) and the held thread would be all of its text.
 */
async function liveParents(messages: Messages, end: ThreadEnd): Promise<UuidLinks> {
  const parents = new UuidLinks();
  for await (const m of messages) {
    end.note(m);
    parents.set(m.uid, m.parentUid);
  }
  return parents;
}

/**
 * The first Claude Code that answers a transcript ending in a user record with a synthetic assistant "No
 * response requested." on resume (read in the 2.1.328 binary's loader; 1.0.128 adds nothing and sends no
 * `system` record to the model).
 */
export const FIRST_SYNTHETIC_ANSWER_VERSION = "2.0.0";

/**
 * The handshake, placed so the resumed model reads it as the next thing to act on. A user record at the end
 * would be "answered" at once by that synthetic reply. Claude Code 2.x skips `system` records when it looks
 * for the last message, yet sends a `local_command` one to the model as user text: written that way, the
 * handshake reaches the model after the synthetic reply, in the same message as the person's next prompt
 * (checked live against 2.1.328: tests/claude-handshake-live.test.ts). Older versions get a meta user record.
 */
function handshakeRecord(
  text: string,
  envelope: Envelope,
  timestamp: string,
  targetVersion: string,
): ClaudeUserRecord | ClaudeSystemRecord {
  const uuid = newUuid();
  if (compareVersions(targetVersion, FIRST_SYNTHETIC_ANSWER_VERSION) < 0) {
    return {
      ...envelope,
      type: "user",
      message: { role: "user", content: text },
      isMeta: true,
      uuid,
      timestamp,
    };
  }
  return {
    ...envelope,
    type: "system",
    subtype: "local_command",
    content: text,
    level: "info",
    isMeta: false,
    uuid,
    timestamp,
  };
}

const line = (record: Json | ClaudeUserRecord | ClaudeAssistantRecord | ClaudeSystemRecord): string =>
  JSON.stringify(record);

type Envelope = Pick<
  ClaudeUserRecord,
  "parentUuid" | "isSidechain" | "userType" | "cwd" | "sessionId" | "version"
>;

/** What every record we write names: the session, its cwd, and the Claude Code version it is written for. */
type Stamp = Pick<RenderOptions, "cwd" | "id"> & { version: string };

function baseRecord(options: Stamp, parentUuid: string | null): Envelope {
  return {
    parentUuid,
    isSidechain: false,
    userType: "external",
    cwd: options.cwd,
    sessionId: options.id,
    version: options.version,
  };
}

/**
 * Copies a Claude Code file's records, retargeting `sessionId` and `cwd`. An earlier hop's handshake is dropped and its
 * children re-linked to its parent, so the chain stays whole. With --model (`options.model` is only set for a
 * same-harness copy when asked) the main thread's replies name that model, since Claude Code resumes with the
 * recorded one. Record ids that are not UUIDs (hand-made or foreign files: Claude Code hangs on them) are
 * re-minted, every reference to them following. `parents` relinks messages the reader placed elsewhere on the
 * live thread than their records say (a prompt queued while a tool ran). Lines needing no change are yielded
 * as read.
 */
export async function* copyRecords(
  records: AsyncIterable<JsonlLine>,
  options: Pick<RenderOptions, "id" | "cwd" | "model">,
  clock?: RecordClock,
  tail?: CopyTail,
  parents?: Pick<UuidLinks, "get">,
): AsyncGenerator<string> {
  const relink = new Map<string, string | null>();
  const minted = new ReMinted();
  if (tail) tail.renamed = minted.ids;
  for await (const read of records) {
    const record = read.value as Json;
    if (typeof record.timestamp === "string") clock?.next(record.timestamp);
    if (isHandshakeRecord(record)) {
      relink.set(record.uuid as string, linked(relink, record.parentUuid));
      continue;
    }
    // The reader may have linked a message elsewhere (a queued prompt put back on the live thread).
    const live = typeof record.uuid === "string" ? parents?.get(record.uuid) : undefined;
    const parent = linked(relink, live !== undefined ? live : record.parentUuid);
    const changes: Json = {};
    if (typeof record.sessionId === "string" && record.sessionId !== options.id) {
      changes.sessionId = options.id;
    }
    if (typeof record.cwd === "string" && record.cwd !== options.cwd) changes.cwd = options.cwd;
    Object.assign(changes, relocatedEnvironment(record, options.cwd));
    if (record.parentUuid !== undefined && parent !== record.parentUuid) changes.parentUuid = parent;
    const message = record.message as Json | undefined;
    if (
      options.model && record.type === "assistant" && record.isSidechain !== true && message &&
      typeof message.model === "string" && message.model !== "<synthetic>" && message.model !== options.model
    ) {
      changes.message = { ...message, model: options.model };
    }
    Object.assign(changes, minted.changes({ ...record, ...changes }));
    const uuid = (changes.uuid ?? record.uuid) as unknown;
    if (tail && typeof uuid === "string" && record.isSidechain !== true) tail.parent = uuid;
    yield Object.keys(changes).length ? line({ ...record, ...changes }) : read.text();
  }
}

/**
 * An `environment` attachment (2.1.x) holds the working directory twice: in its snapshot, which Claude Code
 * compares with where it runs, and in the text it replays to the model as recorded (`rendered`). A copy into
 * another directory says the new one in both, or the resumed model is told of two working directories.
 */
function relocatedEnvironment(record: Json, cwd: string): Json | undefined {
  const attachment = record.attachment;
  if (record.type !== "attachment" || !isObject(attachment) || attachment.type !== "environment") return;
  const snapshot = attachment.snapshot;
  if (!isObject(snapshot) || typeof snapshot.workingDirectory !== "string") return;
  if (snapshot.workingDirectory === cwd) return;
  const said = (dir: string) => `Primary working directory: ${dir}\n`;
  const [before, after] = [said(snapshot.workingDirectory), said(cwd)];
  const changes: Json = { attachment: { ...attachment, snapshot: { ...snapshot, workingDirectory: cwd } } };
  if (Array.isArray(record.rendered)) {
    changes.rendered = record.rendered.map((part) =>
      isObject(part) && typeof part.content === "string"
        ? { ...part, content: part.content.replaceAll(before, after) }
        : part
    );
  }
  return changes;
}

/** Where a copy ended: the newest main-thread record, and the ids it re-minted (old id to new). */
interface CopyTail {
  parent: string | null;
  renamed?: ReadonlyMap<string, string>;
}

/** The record fields that hold a record uuid of the same file (2.1.x also points at them from metadata). */
const UUID_FIELDS = ["uuid", "parentUuid", "logicalParentUuid", "leafUuid", "sourceToolAssistantUUID"];
const SEGMENT_FIELDS = ["headUuid", "tailUuid", "anchorUuid"];

/** One fresh UUID per id that is not one, the same wherever the id appears. */
class ReMinted {
  readonly ids = new Map<string, string>();

  private of(id: unknown): string | undefined {
    if (typeof id !== "string" || isUuid(id)) return undefined;
    let fresh = this.ids.get(id);
    if (fresh === undefined) this.ids.set(id, fresh = newUuid());
    return fresh;
  }

  /** The fields of `record` to replace (none when every id in it is a UUID already). */
  changes(record: Json): Json {
    const changes: Json = {};
    for (const field of UUID_FIELDS) {
      const fresh = this.of(record[field]);
      if (fresh !== undefined) changes[field] = fresh;
    }
    const metadata = isObject(record.compactMetadata) ? record.compactMetadata : undefined;
    const segment = metadata && isObject(metadata.preservedSegment) ? metadata.preservedSegment : undefined;
    if (metadata && segment && SEGMENT_FIELDS.some((f) => this.of(segment[f]) !== undefined)) {
      const mapped = Object.fromEntries(SEGMENT_FIELDS.map((f) => [f, this.of(segment[f]) ?? segment[f]]));
      changes.compactMetadata = { ...metadata, preservedSegment: { ...segment, ...mapped } };
    }
    return changes;
  }
}

function linked(relink: Map<string, string | null>, parent: unknown): string | null {
  if (typeof parent !== "string") return null;
  return relink.has(parent) ? relink.get(parent)! : parent;
}

/** Our own handshake record: a `local_command` system record or a meta user record, starting with the marker. */
export function isHandshakeRecord(record: Json): boolean {
  if (record.type === "system") {
    return record.subtype === "local_command" && typeof record.content === "string" &&
      startsWithHandshake(record.content);
  }
  if (record.type !== "user" || record.isMeta !== true) return false;
  const content = (record.message as Json | undefined)?.content;
  return blocksFromContent(content).some((b) => b.type === "text" && startsWithHandshake(b.text));
}

/**
 * Foreign sources: consecutive messages that Claude would send as one API message (assistant blocks; user
 * text and tool results) are grouped, tool results first as the API requires.
 */
async function* renderMessages(
  session: SessionStream,
  options: RenderOptions & Stamp,
  clock: RecordClock,
  tail: { parent: string | null },
  end: ThreadEnd,
): AsyncGenerator<string> {
  let group: Message[] = [];
  const flush = function* (): Generator<string> {
    if (!group.length) return;
    const records = groupRecords(group, session, options, tail.parent, clock);
    group = [];
    for (const record of records) {
      tail.parent = record.uuid;
      yield line(record);
    }
  };
  const add = function* (m: Message): Generator<string> {
    if (m.kind === "context" || isHandshake(m)) return;
    if (group.length && claudeRole(group[0]!) !== claudeRole(m)) yield* flush();
    group.push(m);
  };
  // A compacted source keeps its history on disk, before Claude Code's own compaction (compaction.ts).
  const compaction = await compactionOf(session);
  let at = 0;
  for await (const m of session.messages) {
    end.note(m);
    if (compaction && at === 0) {
      for (const h of compaction.history) yield* add(h);
      yield* flush();
      const boundary = compactBoundary(
        compaction.history,
        tail.parent,
        baseRecord(options, null),
        clock.next(),
      );
      yield line(boundary);
      tail.parent = boundary.uuid;
    }
    if (compaction && at++ === compaction.summaryAt) {
      yield* flush();
      const summary = compactSummary(m, baseRecord(options, tail.parent), clock.next(m.timestamp));
      yield line(summary);
      tail.parent = summary.uuid;
      continue;
    }
    yield* add(m);
  }
  yield* flush();
}

const claudeRole = (m: Message): "user" | "assistant" => (m.role === "assistant" ? "assistant" : "user");

/**
 * One API message as Claude Code 2.x records it (checked against the real binary's transcripts by
 * tests/claude-golden.test.ts): a user message in one record, its typed words as a plain string; an assistant
 * message as one record per content block, chained, sharing the message id and the message's stop reason.
 */
function groupRecords(
  group: Message[],
  session: SessionHead,
  options: RenderOptions & Stamp,
  parent: string | null,
  clock: RecordClock,
): (ClaudeUserRecord | ClaudeAssistantRecord)[] {
  const role = claudeRole(group[0]!);
  const blocks = group.flatMap((m) => m.blocks.flatMap(toClaudeBlock));
  if (!blocks.length) return [];
  const timestamp = clock.next(group[0]!.timestamp);
  if (role === "user") {
    const ordered = [
      ...blocks.filter((b) => b.type === "tool_result"),
      ...blocks.filter((b) => b.type !== "tool_result"),
    ];
    const only = ordered.length === 1 ? ordered[0] : undefined;
    const content = only?.type === "text"
      ? only.text
      : ordered.map(blockToAnthropic) as ClaudeUserContentBlock[];
    return [{
      ...baseRecord(options, parent),
      type: "user",
      message: { role: "user", content },
      uuid: newUuid(),
      timestamp,
      ...(options.posture ? { permissionMode: claudePermissionMode(options.posture) } : {}),
    }];
  }
  const usage = group.find((m) => m.usage)?.usage;
  const envelope = {
    id: `msg_${randomBytes(12).toString("hex")}`,
    type: "message" as const,
    role: "assistant" as const,
    // The model chosen for the target (lib/pipeline/model.ts): Claude resumes with the recorded one, and a
    // foreign id (another vendor's, or a router's `anthropic/...`) is not one Anthropic's API knows.
    model: options.model ?? group.find((m) => m.model)?.model ?? session.meta.models.at(-1) ?? "unknown",
    stop_reason: blocks.some((b) => b.type === "tool_call") ? "tool_use" as const : "end_turn" as const,
    stop_sequence: null,
    usage: {
      input_tokens: usage?.inputTokens ?? 0,
      output_tokens: usage?.outputTokens ?? 0,
      cache_creation_input_tokens: usage?.cacheWriteTokens ?? 0,
      cache_read_input_tokens: usage?.cacheReadTokens ?? 0,
    },
  };
  let previous = parent;
  return blocks.map((block): ClaudeAssistantRecord => {
    const uuid = newUuid();
    const record: ClaudeAssistantRecord = {
      ...baseRecord(options, previous),
      type: "assistant",
      message: { ...envelope, content: [blockToAnthropic(block)] as ClaudeAssistantContentBlock[] },
      uuid,
      timestamp,
    };
    previous = uuid;
    return record;
  });
}

/**
 * What of a foreign block Claude can hold. Reasoning keeps a thinking block only with an Anthropic signature;
 * otherwise its text is carried as plain text (a foreign or blank signature would make the API refuse every
 * later turn). Raw items of other harnesses are not carried (the report names them).
 */
function toClaudeBlock(block: Block): Block[] {
  if (block.type === "reasoning") {
    if (block.provider === "anthropic" && block.signature) return [block];
    return block.text.trim() ? [{ type: "text", text: `[reasoning] ${block.text}` }] : [];
  }
  if (block.type === "raw") return block.harness === "claude-code" ? [block] : [];
  if (block.type === "text" && !block.text) return [];
  return [block];
}
