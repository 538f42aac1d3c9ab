/**
 * One Hermes conversation, from wherever it lives: a `state.db` session (named `<db>#<id>`, or a database
 * holding a single conversation), an export line, a snapshot or a legacy transcript. The reader turns it into
 * the IR; a same-harness copy reads its rows again, untouched.
 */
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { InputError } from "../../errors.ts";
import type { DriftEntry, Session } from "../../ir/schema.ts";
import type { SessionHead } from "../../ir/stream.ts";
import { isSqliteFile, openReadOnly } from "../../store/sqlite.ts";
import { storesAtLeast } from "../../store/stored-size.ts";
import type { ReadOptions } from "../types.ts";
import { chainMessages, conversationChain, storedBytes, storeShape } from "./database.ts";
import { type FileSession, readHermesJsonl, readSnapshot } from "./files.ts";
import type { HermesMessage, SessionRecord } from "./message.ts";
import { legacySessionsDir, parseLocator, sessionLocator } from "./profiles.ts";
import { hermesFileComponent } from "./ids.ts";

type Tools = Session["tools"];

/**
 * Where the conversation was read from: stored rows (a database, or a `sessions export` line, which holds
 * them whole) or a file Hermes writes beside them (a JSON snapshot, a legacy gateway transcript), whose
 * messages lack the row columns (timestamps in old snapshots, `tool_name` in old tool results).
 */
export type SourceKind = "rows" | "file";

export interface HermesSource {
  kind: SourceKind;
  /** What `read` was given, normalized: `<db>#<live id>` for databases, else the file. */
  path: string;
  /** The embedded schema set it was checked against. */
  version: string;
  /** `state.db` schema_version, for databases. */
  schemaVersion?: number;
  /** The conversation's sessions rows, root first: compression predecessors, then the live session. */
  chain: SessionRecord[];
  /** All message rows of the chain in Hermes's order, compacted and rewound rows included. */
  messages(): Iterable<HermesMessage>;
  /** For databases: whether the chain's message rows store at least `limit` bytes (they then convert streamed). */
  storesAtLeast?(limit: number): boolean;
  tools: Tools;
  drift: DriftEntry[];
  notices: string[];
}

export async function loadSource(path: string, options: ReadOptions = {}): Promise<HermesSource> {
  const { file, id } = parseLocator(path, existsSync);
  if (!existsSync(file)) throw new InputError(`${path}: no such session file or database`);
  if (id !== undefined || file.endsWith(".db") || isSqliteFile(file)) return databaseSource(file, id);
  const read: FileSession = file.endsWith(".json")
    ? readSnapshot(file)
    : await readHermesJsonl(file, options);
  return {
    kind: read.exported ? "rows" : "file",
    path: file,
    version: read.version,
    chain: read.chain,
    messages: () => read.messages,
    tools: read.tools,
    drift: read.drift.entries(),
    notices: read.notices,
  };
}

function databaseSource(file: string, id: string | undefined): HermesSource {
  const db = openReadOnly(file);
  try {
    const shape = storeShape(db, file);
    const chain = conversationChain(db, file, id ?? onlyConversation(db, file), shape.columns);
    const ids = chain.map((s) => s.id);
    return {
      kind: "rows",
      path: sessionLocator(file, chain.at(-1)!.id),
      version: shape.generation.version,
      ...(shape.schemaVersion !== undefined ? { schemaVersion: shape.schemaVersion } : {}),
      chain,
      *messages() {
        const again = openReadOnly(file);
        try {
          yield* chainMessages(again, file, ids);
        } finally {
          again.close();
        }
      },
      storesAtLeast: (limit) =>
        storesAtLeast(file, limit, () => {
          const again = openReadOnly(file);
          try {
            return storedBytes(again, ids, shape.columns);
          } finally {
            again.close();
          }
        }),
      tools: snapshotTools(dirname(file), chain.at(-1)!.id),
      drift: shape.drift,
      notices: [],
    };
  } finally {
    db.close();
  }
}

/**
 * state.db keeps no tool schemas; the opt-in JSON snapshot beside it (`sessions/session_<id>.json`) holds the
 * catalog the session ran with, so a database session takes it from there when it exists.
 */
function snapshotTools(home: string, id: string): Tools {
  const snapshot = join(legacySessionsDir(home), `session_${hermesFileComponent(id)}.json`);
  if (!existsSync(snapshot)) return [];
  try {
    return readSnapshot(snapshot).tools;
  } catch {
    return [];
  }
}

/** A bare database path names a session only when the database holds exactly one conversation. */
function onlyConversation(db: ReturnType<typeof openReadOnly>, file: string): string {
  const roots = db.prepare("SELECT id FROM sessions WHERE parent_session_id IS NULL LIMIT 2").all() as {
    id: string;
  }[];
  if (roots.length === 1) return roots[0]!.id;
  throw new InputError(
    roots.length
      ? `${file} holds several sessions: name one as ${file}#<id> (see session-bridge list --from hermes)`
      : `${file} holds no sessions`,
  );
}

/** A Hermes source's rows, for a same-harness copy; none for any other source. */
export async function sameHarnessSource(
  session: SessionHead,
  options: ReadOptions,
): Promise<HermesSource | undefined> {
  return session.meta.harness === "hermes" && session.meta.path
    ? await loadSource(session.meta.path, options)
    : undefined;
}
