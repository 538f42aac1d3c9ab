/**
 * Hermes's file form of a session is what `hermes sessions export` writes: one line per session, the
 * `sessions` row with its active `messages` (every column, content decoded, `tool_calls` parsed), Python-style
 * JSON. A Hermes source held as rows (a database, an export line) is exported as it is stored (a compression
 * chain in `export_session_lineage` form: the live row, its `segments` and `lineage_session_ids`); a foreign
 * one as the rows a handoff would write.
 */
import type { SessionHead, SessionStream } from "../../ir/stream.ts";
import { isoTime, RecordClock } from "../../ir/clock.ts";
import { RefusedError } from "../../errors.ts";
import { linePart, type Rendered } from "../../io/rendered.ts";
import type { RenderOptions } from "../types.ts";
import { isActive } from "./message.ts";
import { pyJson } from "./pyjson.ts";
import { type ExportedMessage, hermesTitle } from "./rows.ts";
import { FLOAT_COLUMNS } from "./generations.ts";
import { configuredModel } from "./config.ts";
import { type HermesSource, sameHarnessSource } from "./source.ts";
import { activeHome, configPath } from "./profiles.ts";
import { handshakeRow, OpenCallStubs, targetRows } from "./target.ts";

type Json = Record<string, unknown>;

/**
 * The export line is one line holding every message, and its row (message_count first) comes before them, so
 * it is written in parts (lib/io/rendered.ts): the row's head, each message as it is serialized, the row's
 * tail. What the row takes from the messages is known before the first is written: a held thread alone is
 * made into rows once and they are kept (they share the thread's text); a streamed one, or one with threads
 * beside it (a fitted session's is its whole history, read from a file), is read twice, once to count and
 * once to write, and nothing of it is kept.
 */
export async function* renderHermes(
  session: SessionStream,
  options: RenderOptions,
): AsyncGenerator<Rendered> {
  const source = await sameHarnessSource(session, options);
  // Stored rows are exported as they are; a snapshot or transcript becomes the rows Hermes would store.
  if (source?.kind === "rows") {
    yield* exportedAsStored(source, session, options);
    return;
  }
  // The model the user's Hermes routes to, when its store is known; else the one the source used last.
  const configured = options.home
    ? configuredModel(configPath(activeHome(options.home).dir)).model
    : undefined;
  const settings = { model: options.model ?? configured ?? session.meta.models.at(-1) ?? null };
  const rows = () => targetRows(session, options, settings, source);
  if (Array.isArray(session.messages) && session.threads.every((t) => t.messages.length === 0)) {
    const made = rows();
    const held: ExportedMessage[] = [];
    for await (const m of made.messages) held.push(m);
    yield* sessionLine({ ...made.session() }, serialized(held));
    return;
  }
  const counted = rows();
  await drain(counted.messages);
  const row = { ...counted.session() };
  const written = rows();
  yield* sessionLine(row, serialized(written.messages));
  unchanged(session, row, { ...written.session() });
}

/** Each row's JSON, made as it is written. */
async function* serialized(
  rows: Iterable<ExportedMessage> | AsyncIterable<ExportedMessage>,
): AsyncGenerator<string> {
  for await (const m of rows) yield messageJson(m);
}

const messageJson = (m: ExportedMessage): string =>
  pyJson(m, { ensureAscii: false, floats: FLOAT_COLUMNS.messages });

async function drain(items: Iterable<unknown> | AsyncIterable<unknown>): Promise<void> {
  for await (const _ of items);
}

/**
 * A line written from a second read must say what that read held: a source that changed between the reads
 * (a live session appended to) would give a row that miscounts its messages, so nothing is published.
 */
function unchanged(session: SessionHead, counted: unknown, written: unknown): void {
  if (JSON.stringify(counted) === JSON.stringify(written)) return;
  const which = session.meta.path ?? session.meta.id;
  throw new RefusedError(`${which}: the session changed while it was written; run the command again`);
}

const rowJson = (row: Json, append: [string, string][]): string =>
  pyJson(row, { ensureAscii: false, floats: FLOAT_COLUMNS.sessions, append });

/** The line of one session: its row, with its messages as the row's last key. */
function sessionLine(row: Json, messages: AsyncIterable<string>): AsyncGenerator<Rendered> {
  return filledLine(rowJson(row, [["messages", LIST_MARK]]), [messages]);
}

/** A segment of a compression chain, its messages serialized: the lineage line lists each twice. */
interface Segment {
  row: Json;
  messages: string[];
}

/**
 * `export_session_lineage`'s shape: the live row, its count over all segments, every segment's messages, then
 * `segments` (each row with its own messages) and `lineage_session_ids`.
 */
function lineageLine(segments: Segment[]): AsyncGenerator<Rendered> {
  const live = segments.at(-1)!;
  const all = segments.flatMap((s) => s.messages);
  const template = rowJson({ ...live.row, message_count: all.length }, [
    ["messages", LIST_MARK],
    ["segments", `[${segments.map((s) => rowJson(s.row, [["messages", LIST_MARK]])).join(", ")}]`],
    ["lineage_session_ids", pyJson(segments.map((s) => s.row.id), { ensureAscii: false })],
  ]);
  return filledLine(template, [all, ...segments.map((s) => s.messages)]);
}

/**
 * Where a list of serialized values goes in a line's JSON. Serialized JSON holds no raw NUL (a string's NUL is
 * written `\u0000`), so nothing else in the line can read as the mark.
 */
const LIST_MARK = "\u0000list\u0000";

/**
 * `template` in parts, each mark in it replaced by the next list as a JSON array, a value at a time: the line
 * is never held whole, and every cut lies between JSON values (see lib/io/rendered.ts).
 */
async function* filledLine(
  template: string,
  lists: (Iterable<string> | AsyncIterable<string>)[],
): AsyncGenerator<Rendered> {
  const [head, ...after] = template.split(LIST_MARK);
  let text = head!;
  for (const [i, list] of lists.entries()) {
    yield linePart(`${text}[`);
    let first = true;
    for await (const json of list) {
      yield linePart(first ? json : `, ${json}`);
      first = false;
    }
    text = `]${after[i]}`;
  }
  yield text;
}

/** One pass over the stored rows, as `storedRows` makes them. */
interface StoredPass {
  /** The exported rows in the order they stand, each with its segment's place in the chain. Iterable once. */
  rows: Generator<{ segment: number; row: ExportedMessage }>;
  /** What the pass found, once `rows` has been read. */
  tally: StoredTally;
}

interface StoredTally {
  /** The highest id stored: rows that have none (stubs, the handshake) are numbered after it. */
  lastId: number;
  /** Rows exported, and those of them made here (stubs, the handshake), not stored. */
  rows: number;
  added: number;
}

/**
 * The source's own rows, only the id, cwd and title changed when asked, plus stubs and the handshake. The row
 * comes first and says how many messages follow and the new rows' ids follow the highest stored one, so the
 * source's rows are read twice: once to count, once to write. One session streams, a message at a time; a
 * compression chain's segments are held serialized, because the lineage line lists every message twice.
 */
async function* exportedAsStored(
  source: HermesSource,
  session: SessionHead,
  options: RenderOptions,
): AsyncGenerator<Rendered> {
  const counted = storedRows(source, session, options, 0);
  await drain(counted.rows);
  const { tally } = counted;
  const rows: Json[] = source.chain.map((row) => ({ ...row }));
  const live = rows.at(-1)!;
  if (options.id !== source.chain.at(-1)!.id) live.id = options.id;
  if (options.cwd && "cwd" in live) live.cwd = options.cwd;
  const title = hermesTitle(options.title);
  if (title) live.title = title;
  if (tally.added && typeof live.message_count === "number") live.message_count += tally.added;
  const written = storedRows(source, session, options, tally.lastId);
  if (rows.length === 1) {
    yield* sessionLine(live, serialized(rowsOf(written)));
  } else {
    const segments: Segment[] = rows.map((row) => ({ row, messages: [] }));
    for (const { segment, row } of written.rows) segments[segment]!.messages.push(messageJson(row));
    yield* lineageLine(segments);
  }
  unchanged(session, tally, written.tally);
}

function* rowsOf(pass: StoredPass): Generator<ExportedMessage> {
  for (const placed of pass.rows) yield placed.row;
}

/**
 * A pass over the source's active rows: each predecessor's in its segment, the live segment's renamed, with
 * the stubs and the handshake among them. Live rows without an id take the ids after `lastId`, in the order
 * they stand.
 */
function storedRows(
  source: HermesSource,
  session: SessionHead,
  options: RenderOptions,
  lastId: number,
): StoredPass {
  const tally: StoredTally = { lastId: 0, rows: 0, added: 0 };
  const liveId = source.chain.at(-1)!.id;
  const live = source.chain.length - 1;
  const segments = new Map(source.chain.map((row, i) => [row.id, i]));
  function* rows(): Generator<{ segment: number; row: ExportedMessage }> {
    const clock = new RecordClock(options.now, session.meta.createdAt);
    const stubs = options.stubOpenCalls
      ? new OpenCallStubs(session.pending.openToolCalls, options.id)
      : undefined;
    let next = lastId;
    /** The columns the stored rows have: rows added here take only those (an older generation has fewer). */
    let columns: string[] | undefined;
    const placed = (row: ExportedMessage, added: boolean) => {
      tally.rows++;
      if (!row.id) row.id = ++next;
      if (!added) return { segment: live, row };
      tally.added++;
      return { segment: live, row: columns ? pick(row, columns) : row };
    };
    for (const m of source.messages()) {
      if (typeof m.timestamp === "number") clock.next(isoTime(m.timestamp * 1000));
      if (typeof m.id === "number") tally.lastId = Math.max(tally.lastId, m.id);
      if (!isActive(m)) continue;
      const segment = segments.get(typeof m.session_id === "string" ? m.session_id : liveId) ?? live;
      const row = { ...m } as unknown as ExportedMessage;
      if (segment !== live) {
        tally.rows++;
        yield { segment, row };
        continue;
      }
      if (options.id !== liveId) row.session_id = options.id;
      columns ??= Object.keys(row);
      for (const stub of stubs?.next(row) ?? []) yield placed(stub, true);
      yield placed(row, false);
    }
    const handshake = handshakeRow(options, clock);
    for (const row of [...(stubs?.end() ?? []), ...(handshake ? [handshake] : [])]) yield placed(row, true);
  }
  return { rows: rows(), tally };
}

function pick(row: ExportedMessage, columns: string[]): ExportedMessage {
  const kept = Object.fromEntries(Object.entries(row).filter(([k]) => columns.includes(k) || k === "id"));
  return kept as unknown as ExportedMessage;
}
