/**
 * A Hermes conversation into the IR. The live thread is what `hermes --resume` loads: the active rows of the
 * live session, in id order. A compression chain is stitched into this one session: its predecessors' rows,
 * rows compacted in place (`active = 0, compacted = 1`) and rows rewound away (`active = 0, compacted = 0`) are
 * kept apart as threads, so they are reported and never replayed as live history.
 */
import type { DriftEntry, Message, Session, Thread, Usage } from "../../ir/schema.ts";
import {
  type HeldSessionHead,
  joinedMessages,
  type SessionStream,
  streamedMessages,
  type ThreadStream,
} from "../../ir/stream.ts";
import type { MessageSpill } from "../../ir/spill.ts";
import { firstUserTitle } from "../../ir/summary.ts";
import { InputError } from "../../errors.ts";
import { type HermesMessage, isActive, isMetaRow, type SessionRecord } from "./message.ts";
import type { HermesSource } from "./source.ts";
import { providerFamily, toMessage } from "./to-ir.ts";
import { LiveFacts } from "./live-facts.ts";
import { isoTime } from "../../ir/clock.ts";
import { releaseOf } from "./generations.ts";

/** The sessions columns the IR is built from, by the type Hermes writes them with. */
const TEXT_COLUMNS = ["model", "billing_provider", "system_prompt", "source", "title", "cwd"] as const;
const NUMBER_COLUMNS = [
  "started_at",
  "ended_at",
  "input_tokens",
  "output_tokens",
  "cache_read_tokens",
  "cache_write_tokens",
  "actual_cost_usd",
  "estimated_cost_usd",
] as const;

/**
 * A sessions row with a column of the wrong type (an edited export, a damaged database) left out, as if absent:
 * the drift report names it, and nothing downstream meets a list where a model name or a count should be.
 */
function typedColumns(record: SessionRecord): SessionRecord {
  const typed: Record<string, unknown> = { ...record };
  for (const c of TEXT_COLUMNS) if (typed[c] !== undefined && typeof typed[c] !== "string") delete typed[c];
  for (const c of NUMBER_COLUMNS) {
    if (typed[c] !== undefined && (typeof typed[c] !== "number" || !Number.isFinite(typed[c]))) {
      delete typed[c];
    }
  }
  return typed as SessionRecord;
}

const iso = (seconds: unknown): string | undefined =>
  typeof seconds === "number" && seconds > 0 ? isoTime(seconds * 1000) : undefined;

/** A Hermes conversation from its source's rows, as the store loaded them (source.ts), every message held. */
export function decodeHermes(source: HermesSource): Session {
  const messages: Message[] = [];
  const { head } = decodeRows(source, (m) => messages.push(m), heldApart());
  return withThread(head, messages);
}

/**
 * The same session with its live thread streamed: the rows are read once for everything but the live thread's
 * messages (of which only the facts the head needs are kept, see LiveFacts), then read again, and mapped by
 * the same code, each time the thread is iterated. Threads kept apart are written to spill files as they are
 * read (`spill`, a file the store makes: lib/ir/spill.ts), not held: a fitted session's compacted thread is
 * its whole history. The session's `release` closes them.
 */
export function decodeHermesStreamed(source: HermesSource, spill: () => MessageSpill): SessionStream {
  const apart = spilledApart(spill);
  try {
    const { head, context, keys } = decodeRows(source, () => {}, apart);
    const session = withThread(head, streamedMessages(() => liveAgain(source, context, keys)));
    return { ...session, release: apart.release };
  } catch (error) {
    apart.release();
    throw error;
  }
}

/** A session of `head` and its live thread, its keys in the order an IR dump has always shown them. */
function withThread<T extends ThreadStream, M extends SessionStream["messages"]>(
  head: RowsHead<T>,
  messages: M,
): RowsHead<T> & { messages: M } {
  const { meta, ...rest } = head;
  return { meta, messages, ...rest };
}

/** The session but its live thread, its threads held or streamed. */
type RowsHead<T extends ThreadStream> = Omit<HeldSessionHead, "threads"> & { threads: T[] };

/** Where the rows kept apart from the live thread go, each thread's messages linked in the order they come. */
interface KeptApart<T extends ThreadStream> {
  add(id: string, kind: Thread["kind"], message: Message): void;
  threads(): T[];
}

/** Threads kept apart, held. */
function heldApart(): KeptApart<Thread> {
  const apart = new Map<string, Thread>();
  return {
    add(id, kind, message) {
      let thread = apart.get(id);
      if (!thread) apart.set(id, thread = { id, kind, messages: [] });
      message.parentUid = thread.messages.at(-1)?.uid ?? null;
      thread.messages.push(message);
    },
    threads: () => [...apart.values()],
  };
}

/** Threads kept apart, each in a spill file; `release` closes them. */
function spilledApart(spillMessages: () => MessageSpill): KeptApart<ThreadStream> & { release(): void } {
  const apart = new Map<string, { kind: Thread["kind"]; spill: MessageSpill; last: string }>();
  return {
    add(id, kind, message) {
      let thread = apart.get(id);
      message.parentUid = thread?.last ?? null;
      if (!thread) apart.set(id, thread = { kind, spill: spillMessages(), last: message.uid });
      thread.last = message.uid;
      thread.spill.add(message);
    },
    threads: () =>
      [...apart].map(([id, { kind, spill }]) => ({ id, kind, messages: spill.records(spill.count) })),
    release: () => apart.forEach(({ spill }) => spill.close()),
  };
}

/** What mapping a row needs of the session it is read from. */
interface RowContext {
  liveId: string;
  /** Each chain session's model, by id. */
  models: Map<string, string | undefined>;
  provider: ReturnType<typeof providerFamily>;
}

/** A row with where it belongs: its session, its key (the row id; its place in a file source) and liveness. */
interface PlacedRow {
  row: HermesMessage;
  sessionId: string;
  key: number;
  live: boolean;
}

/** The source's rows but the gateway's marker rows, each placed; `messages()` reads them again on each call. */
function* placedRows(source: HermesSource, liveId: string): Generator<PlacedRow> {
  let index = 0;
  for (const row of source.messages()) {
    index++;
    if (isMetaRow(row)) continue;
    const sessionId = typeof row.session_id === "string" ? row.session_id : liveId;
    const key = typeof row.id === "number" ? row.id : index;
    yield { row, sessionId, key, live: isActive(row) && sessionId === liveId };
  }
}

/** A placed row's IR message; none for a role Hermes does not send to the model. */
function messageOf({ row, sessionId, key }: PlacedRow, context: RowContext): Message | undefined {
  return toMessage(row, {
    uid: `${sessionId}:${key}`,
    model: context.models.get(sessionId) ?? undefined,
    provider: context.provider,
  });
}

/**
 * One pass over the rows: the session but its live thread's messages, which are given to `live` in order
 * (linked to the one before) and noted (LiveFacts). Rows kept apart are held in their threads.
 */
function decodeRows<T extends ThreadStream>(
  source: HermesSource,
  live: (m: Message) => void,
  apart: KeptApart<T>,
): { head: RowsHead<T>; context: RowContext; keys: number[] } {
  const chain = source.chain.map(typedColumns);
  const liveRecord = chain.at(-1)!;
  const context: RowContext = {
    liveId: liveRecord.id,
    models: new Map(chain.map((s) => [s.id, s.model ?? liveRecord.model ?? undefined])),
    provider: providerFamily(liveRecord.billing_provider),
  };
  const facts = new LiveFacts();
  const unknownRoles: number[] = [];
  let parentUid: string | null = null;
  let newest = 0;
  for (const placed of placedRows(source, context.liveId)) {
    const message = messageOf(placed, context);
    if (!message) {
      unknownRoles.push(placed.key);
      continue;
    }
    const { row } = placed;
    if (typeof row.timestamp === "number") newest = Math.max(newest, row.timestamp);
    if (placed.live) {
      message.parentUid = parentUid;
      parentUid = message.uid;
      facts.note(message, placed.key);
      live(message);
      continue;
    }
    apart.add(...threadApart(row, placed.sessionId), message);
  }
  const threads = apart.threads();
  const compacted = joinedMessages(threads.filter((t) => t.kind === "compacted"));
  const head: RowsHead<T> = {
    meta: {
      harness: "hermes",
      ...(source.schemaVersion !== undefined ? { harnessVersion: releaseOf(source.schemaVersion) } : {}),
      id: liveRecord.id,
      path: source.path,
      models: [...facts.models],
      ...defined({
        cwd: cwdOf(chain),
        provider: liveRecord.billing_provider ?? undefined,
        systemInstructions: liveRecord.system_prompt ?? undefined,
        createdAt: iso(chain[0]!.started_at),
        updatedAt: iso(newest) ?? iso(liveRecord.ended_at) ?? iso(liveRecord.started_at),
        usage: usageOf(chain),
        source: liveRecord.source ?? undefined,
        costUsd: costOf(chain),
        // A title person gave it, else the first thing they typed: compacted history first (after a
        // compaction the live thread starts with a summary).
        title: [...chain].reverse().find((s) => s.title)?.title ?? firstUserTitle(compacted) ?? facts.title,
      }),
    },
    threads,
    tools: source.tools,
    pending: facts.pending(),
    passthrough: [],
    drift: [...source.drift, ...roleDrift(source, unknownRoles)],
    notices: source.notices,
  };
  return { head, context, keys: facts.keys };
}

/**
 * The live thread read again: the same rows as the first pass, mapped the same way. Rows Hermes appended
 * since are not part of the session that was read and are left out; a row removed or set aside since (a
 * compaction, a rewind, a deletion) makes the session read no longer the stored one, which is bad input.
 */
async function* liveAgain(
  source: HermesSource,
  context: RowContext,
  keys: number[],
): AsyncGenerator<Message> {
  let at = 0;
  let parentUid: string | null = null;
  for (const placed of placedRows(source, context.liveId)) {
    if (!placed.live) continue;
    const message = messageOf(placed, context);
    if (!message) continue;
    if (at === keys.length && placed.key > (keys.at(-1) ?? -Infinity)) return;
    if (placed.key !== keys[at]) throw changed(source, placed.key);
    at++;
    message.parentUid = parentUid;
    parentUid = message.uid;
    yield message;
  }
  if (at < keys.length) throw changed(source, keys[at]!);
}

function changed(source: HermesSource, key: number): InputError {
  return new InputError(
    `${source.path}: the session's rows changed while it was read (at row ${key}); convert it again`,
  );
}

/** Where a row that is not live belongs: its predecessor session, or what compaction or a rewind set aside. */
function threadApart(row: HermesMessage, sessionId: string): [string, Thread["kind"]] {
  return isActive(row)
    ? [sessionId, "compacted"]
    : row.compacted === 1
    ? [`${sessionId}:compacted`, "compacted"]
    : [`${sessionId}:rewound`, "abandoned-branch"];
}

function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The `cwd` column, or (before it existed) the working directory line of the stored system prompt. */
function cwdOf(chain: SessionRecord[]): string | undefined {
  for (const s of [...chain].reverse()) {
    if (s.cwd) return s.cwd;
    const line = /^Current working directory: (.+)$/m.exec(s.system_prompt ?? "");
    if (line) return line[1]!.trim();
  }
  return undefined;
}

function usageOf(chain: SessionRecord[]): Usage | undefined {
  if (!chain.some((s) => typeof s.input_tokens === "number")) return undefined;
  const sum = (key: "input_tokens" | "output_tokens" | "cache_read_tokens" | "cache_write_tokens") =>
    chain.reduce((n, s) => n + (s[key] ?? 0), 0);
  return {
    inputTokens: sum("input_tokens"),
    outputTokens: sum("output_tokens"),
    cacheReadTokens: sum("cache_read_tokens"),
    cacheWriteTokens: sum("cache_write_tokens"),
  };
}

/** The recorded cost: actual where the provider reported one, else Hermes's estimate. */
function costOf(chain: SessionRecord[]): number | undefined {
  const costs = chain.map((s) => s.actual_cost_usd ?? s.estimated_cost_usd).filter((c) =>
    typeof c === "number"
  );
  return costs.length ? costs.reduce((a, b) => a + b, 0) : undefined;
}

function roleDrift(source: HermesSource, rows: number[]): DriftEntry[] {
  if (!rows.length) return [];
  return [{
    harness: "hermes",
    version: source.version,
    where: "record:messages-row",
    problem: "unknown role (not sent to the model, not carried)",
    count: rows.length,
    examples: rows.slice(0, 3),
  }];
}
