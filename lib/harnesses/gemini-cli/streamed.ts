/**
 * A large Gemini CLI log with its live thread streamed, decoded by the same code as the held read (decode.ts
 * `ThreadBuilder`, replay.ts `LogReplay`). A later line can replace any earlier message, and a checkpoint the
 * whole list, so no message is final before the last line:
 *
 *   index   every line once, replayed holding only places: per message of the final list (and of each
 *           history a compression or rewind set apart), the line that last defined it, its place in that
 *           line when a checkpoint's list holds it, and its own last line (what a checkpoint's copy leaves
 *           out is read from there). The threads set apart are then built from their records read again and
 *           spilled to one file (lib/ir/spill.ts), each a run of it: a fitted session's compacted thread is
 *           its whole history. One pass over the live thread takes the head's facts.
 *   live    each time the live thread is iterated: its records read again by their place, built anew.
 *
 * A record that is not what the index found at its place is the file changed: bad input naming it. Lines
 * appended after the index are not read (nothing past the places it found is). Subagents' logs (small, beside
 * the session) are held, as is a legacy whole-session `.json` (one JSON document: read.ts holds it).
 */
import type { Message, Origin, Usage } from "../../ir/schema.ts";
import type { RecordReader } from "../../io/jsonl.ts";
import type { MessageSpill } from "../../ir/spill.ts";
import { InputError } from "../../errors.ts";
import { type SessionStream, streamedMessages } from "../../ir/stream.ts";
import { addUsage, firstUserTitle } from "../../ir/summary.ts";
import {
  finish,
  HARNESS,
  replayLines,
  type SessionLines,
  sessionOf,
  type SubagentLogs,
  ThreadBuilder,
} from "./decode.ts";
import { type LoggedMessage, LogReplay, restored } from "./replay.ts";

/** Where a streamed log is read again, and where its threads set apart are kept, by the store. */
export interface StreamedLog extends SessionLines {
  /** The log's records, read by their place. */
  open(): RecordReader;
  spill(): MessageSpill;
}

/** A session with its live thread streamed, and the title its first prompt gives (see titleFromFirstUserText). */
export interface StreamedGemini {
  session: SessionStream;
  firstUserTitle?: string;
}

/** The session with its live thread streamed (see the module's comment); its `release` closes the spill. */
export async function decodeGeminiStreamed(
  log: StreamedLog,
  subagents: SubagentLogs,
): Promise<StreamedGemini> {
  const { path } = log;
  const facts = await replayLines(log, new LogReplay(path, HARNESS, true));
  const { replayed } = facts;
  // What the live thread's passes take of the index: its own places and the compression's ids.
  const { messages: placed, compression } = replayed;
  const session: SessionStream = sessionOf(path, facts);
  const changed = changedError(path);
  const spill = log.spill();
  session.release = closer(spill);
  let title: string | undefined;
  try {
    const reader = recordsOf(log.open(), changed);
    try {
      const setApart = [
        ...replayed.compacted.map((history, i) => [`compacted-${i + 1}`, "compacted", history] as const),
        ...replayed.rewound.map((branch, i) => [`rewound-${i + 1}`, "abandoned-branch", branch] as const),
      ];
      for (const [id, kind, logged] of setApart) {
        const thread = new ThreadBuilder(path, []);
        const start = spill.count;
        for (const m of logged) {
          for (const built of thread.add(reader.restored(m))) {
            if (kind === "compacted") title ??= firstUserTitle([built]);
            spill.add(built);
          }
          await reader.pause();
        }
        session.threads.push({ id, kind, messages: spill.records(spill.count - start, start) });
      }
      const thread = new ThreadBuilder(path, session.notices, compression);
      const live = new LiveFacts();
      for (const m of placed) {
        for (const built of thread.add(reader.restored(m))) {
          title ??= firstUserTitle([built]);
          live.add(built);
        }
        await reader.pause();
      }
      session.pending = thread.pending.pending([]);
      await finish(session, facts, subagents, live.facts());
    } finally {
      reader.close();
    }
  } catch (error) {
    session.release();
    throw error;
  }
  session.messages = liveThread(path, log.open, placed, compression);
  return { session, ...(title === undefined ? {} : { firstUserTitle: title }) };
}

/*
 * The closures the session keeps are made out here, of what they use: one made inside decodeGeminiStreamed
 * shares its scope (JavaScriptCore keeps an async function's locals in one environment), which holds the log,
 * whose finished first read (`lines`) still reaches the replay, so the index of every message the log wrote
 * (64 MB of a 400 MB log) stayed alive through every pass of the conversion.
 */

/** The error a record not found where the index placed it is. */
const changedError = (path: string) => () =>
  new InputError(`${path}: the log changed while it was read; read it again`);

/** The spill's release. */
const closer = (spill: MessageSpill) => () => spill.close();

/** The live thread, its records read again by their places on every pass and built anew. */
function liveThread(
  path: string,
  open: StreamedLog["open"],
  placed: readonly LoggedMessage[],
  compression: ReadonlySet<string>,
): SessionStream["messages"] {
  const changed = changedError(path);
  return streamedMessages(async function* () {
    const reader = recordsOf(open(), changed);
    try {
      // The live thread's notices were taken by the index.
      const thread = new ThreadBuilder(path, [], compression);
      for (const m of placed) {
        yield* thread.add(reader.restored(m));
        await reader.pause();
      }
    } finally {
      reader.close();
    }
  });
}

/** What the head takes from the live thread, message by message (as decode.ts takes it from the held list). */
class LiveFacts {
  private readonly models = new Set<string>();
  private updatedAt?: string;
  private usage?: Usage;

  add(m: Message) {
    if (m.model) this.models.add(m.model);
    if (m.timestamp && (!this.updatedAt || m.timestamp > this.updatedAt)) this.updatedAt = m.timestamp;
    if (m.usage) this.usage = this.usage ? addUsage(this.usage, m.usage) : m.usage;
  }

  facts() {
    return { models: [...this.models], updatedAt: this.updatedAt, usage: this.usage };
  }
}

/**
 * Placed messages read again: a checkpoint's line, which holds many of them in a row, parsed once for all of
 * them.
 */
function recordsOf(records: RecordReader, changed: () => Error) {
  let cached: { offset: number; value: unknown } | undefined;
  const read = (place: Origin) => {
    const { offset, length } = place;
    if (!place.type.startsWith("checkpoint:")) return records.at(offset, length);
    if (cached?.offset !== offset) cached = { offset, value: records.at(offset, length) };
    return cached.value;
  };
  return {
    restored: (m: LoggedMessage) => restored(m, read, changed),
    pause: () => records.pause(),
    close: () => records.close(),
  };
}
