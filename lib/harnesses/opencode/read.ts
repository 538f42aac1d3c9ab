/**
 * Reading an OpenCode session from its database: `<opencode.db>#<session id>` (as `list` names it), or the
 * database alone when it holds a single conversation; or from a file `opencode export` printed (export-file.ts). Its rows are read on a read-only connection (rows.ts) and
 * decoded (decode.ts); a database whose migration set is not one the reader was checked against is read all the
 * same, and says so as drift.
 */
import { existsSync } from "node:fs";
import type { DatabaseSync } from "node:sqlite";
import type { Session } from "../../ir/schema.ts";
import { InputError } from "../../errors.ts";
import { isSqliteFile, openReadOnly } from "../../store/sqlite.ts";
import { parseLocator } from "../locator.ts";
import { regularFileIfPresent } from "../../io/file-kind.ts";
import { decodeOpenCode, decodeOpenCodeStreamed } from "./decode.ts";
import { indexedSession, storedBytes, storedSession, wholeMessages } from "./rows.ts";
import type { SessionStream } from "../../ir/stream.ts";
import { spillMessages } from "../../ir/spill.ts";
import { DEFAULT_READ_LIMITS } from "../../io/jsonl.ts";
import { storesAtLeast } from "../../store/stored-size.ts";
import type { ReadOptions } from "../types.ts";
import { exportedSession } from "./export-file.ts";
import { assertOpenCodeTables } from "./tables.ts";
import { knownSchema } from "./schema-version.ts";

export function readOpenCodeSession(path: string): Promise<Session> {
  const { file, id } = locatedFile(path);
  if (!regularFileIfPresent(file)) throw new InputError(`${path}: no such session database`);
  // A file that is no database is read as `opencode export` prints a session (what convert writes).
  if (id === undefined && !isSqliteFile(file)) {
    const session = decodeOpenCode(exportedSession(file));
    // The file names the session: it holds no other.
    session.meta.path = file;
    return Promise.resolve(session);
  }
  const db = openReadOnly(file);
  try {
    return Promise.resolve(
      withDrift(db, file, decodeOpenCode(storedSession(db, file, id ?? onlySession(db, file)))),
    );
  } finally {
    db.close();
  }
}

/**
 * The session to convert: held while its rows are small, its live thread streamed from the database once they
 * are large (decode.ts decodeOpenCodeStreamed), each pass on a connection of its own. A file `opencode export`
 * printed is read whole, and held.
 */
export function openOpenCodeSession(path: string, options: ReadOptions = {}): Promise<SessionStream> {
  const { file, id } = locatedFile(path);
  if (id === undefined && !isSqliteFile(file)) return readOpenCodeSession(path);
  const db = openReadOnly(file);
  try {
    const session = id ?? onlySession(db, file);
    assertOpenCodeTables(db, file);
    const limits = options.limits ?? DEFAULT_READ_LIMITS;
    if (!storesAtLeast(file, limits.streamFromBytes, () => storedBytes(db, session))) {
      return Promise.resolve(withDrift(db, file, decodeOpenCode(storedSession(db, file, session))));
    }
    const indexed = indexedSession(db, file, session);
    return Promise.resolve(withDrift(
      db,
      file,
      decodeOpenCodeStreamed({
        indexed,
        pass() {
          const again = openReadOnly(file);
          return { whole: wholeMessages(again, file), close: () => again.close() };
        },
        spill: spillMessages,
      }),
    ));
  } finally {
    db.close();
  }
}

function locatedFile(path: string): { file: string; id?: string } {
  const located = parseLocator(path, existsSync);
  if (!regularFileIfPresent(located.file)) throw new InputError(`${path}: no such session database`);
  return located;
}

/** The session with a migration set no OpenCode the reader was checked against left said first, as drift. */
function withDrift<T extends Pick<Session, "drift" | "meta">>(db: DatabaseSync, file: string, session: T): T {
  const drift = schemaDrift(db, file, session.meta.harnessVersion);
  if (drift) session.drift.unshift(drift);
  return session;
}

/** A bare database path names a session only when the database holds exactly one conversation. */
function onlySession(db: DatabaseSync, file: string): string {
  assertOpenCodeTables(db, file);
  const roots = db.prepare("SELECT id FROM session WHERE parent_id IS NULL LIMIT 2").all() as {
    id: string;
  }[];
  if (roots.length === 1) return roots[0]!.id;
  throw new InputError(
    roots.length
      ? `${file} holds several sessions: name one as ${file}#<id> (see session-bridge list --from opencode)`
      : `${file} holds no sessions`,
  );
}

/** A migration set no OpenCode the reader was checked against left: read anyway, reported as drift. */
function schemaDrift(db: DatabaseSync, file: string, version: string | undefined) {
  try {
    knownSchema(db, file);
    return undefined;
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    return {
      harness: "opencode",
      version: version ?? "?",
      where: "table:migration",
      problem: error.message.slice(file.length + 2),
      count: 1,
      examples: [],
    };
  }
}
