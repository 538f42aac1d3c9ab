/**
 * SQLite access for live harness stores (Codex `state_N.sqlite`, Hermes `state.db`), which a running harness
 * may hold open in WAL mode. Planning opens read-only: a read-only connection never checkpoints, so the other
 * process's `-wal` file is left exactly as it was. Writes go through one short `BEGIN IMMEDIATE` transaction
 * with a busy timeout and retries, after an online backup.
 */
import { backup, DatabaseSync, type StatementSync } from "node:sqlite";
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statfsSync,
  statSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { DiskFullError, InputError, messageOf, RefusedError } from "../errors.ts";
import { refuseLinkedFile } from "../io/links.ts";
import { regularFileIfPresent } from "../io/file-kind.ts";
import { checkpoint, yieldAndCheckpoint } from "../io/interrupt.ts";
import { crashPoint } from "../io/crash-points.ts";
import { type Feedback, startProgress } from "../io/progress.ts";
import { backupTarget, recordCopy } from "./backup.ts";

const HEADER = "SQLite format 3\u0000";
const BUSY_TIMEOUT_MS = 5000;

export type Row = Record<string, unknown>;

export interface ColumnInfo {
  name: string;
  type: string;
  notnull: boolean;
  defaultValue: unknown;
  primaryKey: boolean;
}

/** Whether an existing file starts with the SQLite header; a FIFO, device or directory is refused unopened. */
export function isSqliteFile(path: string): boolean {
  if (!regularFileIfPresent(path)) throw new InputError(`${path}: no such file`);
  const fd = openSync(path, "r");
  const head = Buffer.alloc(HEADER.length);
  const read = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  return read === HEADER.length && head.toString("latin1") === HEADER;
}

/** Refuses anything that is not a SQLite database before SQLite itself gets to complain (or create it). */
export function assertSqliteFile(path: string): void {
  if (!regularFileIfPresent(path)) throw new InputError(`${path}: no such database`);
  if (!isSqliteFile(path)) throw new InputError(`${path}: not a SQLite database`);
}

/**
 * SQLite's own failures name no file ("database disk image is malformed", "no such column: x") and a value
 * beyond 2^53 fails in the runtime ("Value is too large ..."). Every statement on a store database goes
 * through here, so each such failure becomes one line naming the database: a damaged or foreign database is
 * bad input, a full disk says so. A lock passes through as it is: callers wait for it or refuse.
 */
export function storeFailure(database: string, error: unknown): unknown {
  if (error instanceof InputError || error instanceof RefusedError || error instanceof DiskFullError) {
    return error;
  }
  if (isBusy(error)) return error;
  const { code, errcode } = error as { code?: unknown; errcode?: unknown };
  // SQLite's own text can span lines (a damaged schema quotes its SQL): every failure is one line. Each run of
  // whitespace holding a line break becomes a space, tried once per run (the look-behind): linear in the text.
  const message = messageOf(error).replace(/(?<!\s)[^\S\n]*\n\s*/g, " ");
  if (code === "ERR_OUT_OF_RANGE" && /too large/i.test(message)) {
    // The number the message ends with, tried once per run of digits (the look-behind), not from each digit.
    const value = /(-?(?<!\d)\d+)\s*$/.exec(message)?.[1];
    return new InputError(
      `${database}: holds an integer beyond 2^53${value ? ` (${value})` : ""}, which cannot be read exactly`,
    );
  }
  if (code !== "ERR_SQLITE_ERROR") return error;
  const primary = typeof errcode === "number" ? errcode & 0xff : undefined;
  if (primary === SQLITE_FULL || /database or disk is full/i.test(message)) {
    return new DiskFullError(database);
  }
  // A full disk fails some writes as I/O errors, not SQLITE_FULL: growing the `-shm` index of a WAL database
  // (SQLITE_IOERR_SHMSIZE), truncating or syncing. With next to no room left, that is what it is.
  if (primary === SQLITE_IOERR && nearlyFull(database)) return new DiskFullError(database);
  if (primary === SQLITE_CORRUPT || /malformed/i.test(message)) {
    return new InputError(`${database}: the database is damaged (${message})`);
  }
  if (primary === SQLITE_NOTADB || /not a database/i.test(message)) {
    return new InputError(`${database}: ${message}`);
  }
  if (/^no such (column|table)/i.test(message)) {
    return new InputError(`${database}: not the shape this harness keeps (${message})`);
  }
  return new RefusedError(`${database}: ${message}`, { cause: error });
}

const SQLITE_IOERR = 10;
const SQLITE_CORRUPT = 11;
const SQLITE_FULL = 13;
const SQLITE_NOTADB = 26;

/** Less room left beside `path` than a WAL database's next step may take (its `-shm` grows by 32 KiB). */
function nearlyFull(path: string): boolean {
  try {
    const { bavail, bsize } = statfsSync(dirname(path));
    return bavail * bsize < NEARLY_FULL;
  } catch {
    return false;
  }
}

const NEARLY_FULL = 1024 * 1024;

function naming<T>(database: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw storeFailure(database, error);
  }
}

/** A statement whose rows (read all at once, one at a time, or written) fail naming the database. */
function namingStatement(database: string, statement: StatementSync): StatementSync {
  return new Proxy(statement, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== "function") return value;
      if (key === "iterate") {
        return (...args: unknown[]) => {
          const rows = naming(
            database,
            () => (value as (...a: unknown[]) => Iterator<unknown>).apply(target, args),
          );
          return {
            [Symbol.iterator]() {
              return this;
            },
            next: () => naming(database, () => rows.next()),
            return: (v?: unknown) => rows.return?.(v) ?? { done: true, value: v },
          };
        };
      }
      return (...args: unknown[]) =>
        naming(database, () => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

/**
 * A connection to a harness's store database: every statement on it fails naming the database. It may read a
 * private snapshot of that database (`file`), removed when the connection closes.
 */
class StoreDatabase extends DatabaseSync {
  constructor(
    private readonly database: string,
    options: { readOnly?: boolean } = {},
    file: string | URL = database,
    private readonly snapshotDir?: string,
  ) {
    super(file, options);
  }

  override prepare(sql: string): StatementSync {
    return namingStatement(this.database, naming(this.database, () => super.prepare(sql)));
  }

  override exec(sql: string): void {
    naming(this.database, () => super.exec(sql));
  }

  override close(): void {
    try {
      super.close();
    } finally {
      if (this.snapshotDir) rmSync(this.snapshotDir, { recursive: true, force: true });
    }
  }
}

/**
 * A read-only connection to a store database, as it stands. A read-only connection may still have to write
 * beside the database: past a crashed writer's journal, or to open a WAL database's `-wal` and `-shm`, which a
 * store in a folder this user may not write cannot have made for it; each is read another way (below).
 */
export function openReadOnly(path: string): DatabaseSync {
  assertSqliteFile(path);
  // A WAL database with no `-wal` beside it is held by no connection (a harness's own leaves one while it runs)
  // and is all in its one file: read as it is, so a plan that only reads leaves no `-wal` or `-shm` behind in
  // the harness's home, which a read-only connection cannot remove once it made them.
  if (!existsSync(walOf(path)) && walModeHeader(path)) return openImmutable(path);
  try {
    return openChecked(path, path);
  } catch (error) {
    if (blockedByHotJournal(path, error)) return openRecoveredSnapshot(path, HOT_JOURNAL);
    if (!walOutOfReach(path, error)) throw error;
    return hasFrames(walOf(path)) ? openRecoveredSnapshot(path, UNCHECKPOINTED_WAL) : openImmutable(path);
  }
}

/** A read-only connection to `file` whose schema was read once (failures name `path`, the store database). */
function openChecked(path: string, file: string | URL, snapshotDir?: string): DatabaseSync {
  const db = new StoreDatabase(path, { readOnly: true }, file, snapshotDir);
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  assertReadableSchema(db, path);
  return db;
}

const journalOf = (path: string) => `${path}-journal`;
const walOf = (path: string) => `${path}-wal`;
const shmOf = (path: string) => `${path}-shm`;

/** SQLite's primary result code behind a failure, through the errors that name the database (their cause). */
function sqliteCode(error: unknown): number | undefined {
  for (let e = error; e instanceof Error; e = e.cause) {
    const { errcode } = e as { errcode?: unknown };
    if (typeof errcode === "number") return errcode & 0xff;
  }
  return undefined;
}

const SQLITE_READONLY = 8;
const SQLITE_CANTOPEN = 14;

/**
 * A WAL database (header bytes 18-19 are 2) is read through its `-wal` and `-shm`, which a reader creates when
 * they are not there (and uses read-only when they are). In a folder this user may not write, a missing one
 * cannot be made: with no `-wal`, "attempt to write a readonly database"; with a `-wal` but no `-shm`, "unable
 * to open database file".
 */
function walOutOfReach(path: string, error: unknown): boolean {
  const code = sqliteCode(error);
  if (code !== SQLITE_READONLY && code !== SQLITE_CANTOPEN) return false;
  if (existsSync(walOf(path)) && existsSync(shmOf(path))) return false;
  return walModeHeader(path);
}

function walModeHeader(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const versions = Buffer.alloc(2);
    return readSync(fd, versions, 0, 2, 18) === 2 && versions[0] === 2 && versions[1] === 2;
  } finally {
    closeSync(fd);
  }
}

/** The size of the file at `path`, 0 when there is none. */
const fileBytes = (path: string): number => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

/** Whether a `-wal` is there and holds anything (writes the database file does not have yet). */
const hasFrames = (wal: string): boolean => fileBytes(wal) > 0;

/** The bytes of database `path` and of its `-wal` beside it, where its newest writes may still be. */
export const databaseBytes = (path: string): number => fileBytes(path) + fileBytes(walOf(path));

/**
 * A WAL database with no `-wal` (idle, or in a folder that cannot hold one) is all in its one file: opened as immutable
 * (a URI parameter), SQLite reads that file as it is, with no `-wal`, `-shm` or lock to make. Exact here, since
 * a writer would have left its `-wal` beside it; it would read a write made meanwhile only in part, as any
 * copy taken then would.
 */
function openImmutable(path: string): DatabaseSync {
  const uri = pathToFileURL(path);
  uri.searchParams.set("immutable", "1");
  return openChecked(path, uri);
}

/**
 * A writer that crashed mid-transaction in a rollback-journal (DELETE mode) database leaves a hot `-journal`
 * beside it. The next connection must roll it back before reading, which a read-only connection may not do:
 * it fails with "attempt to write a readonly database", however readable the data is.
 */
function blockedByHotJournal(path: string, error: unknown): boolean {
  return /readonly database/i.test(messageOf(error)) && regularFileIfPresent(journalOf(path)) &&
    statSync(journalOf(path)).size > 0;
}

/** A file beside a database that a read-only connection must write to use, and what it holds. */
interface Companion {
  of: (path: string) => string;
  /** Why the private copy was needed, for the line when even the copy cannot be read. */
  unreadable: (path: string) => string;
}

const HOT_JOURNAL: Companion = {
  of: journalOf,
  unreadable: (path) =>
    `a writer that stopped mid-transaction left ${journalOf(path)}, and its database cannot be read even ` +
    `after rolling that back in a private copy`,
};

const UNCHECKPOINTED_WAL: Companion = {
  of: walOf,
  unreadable: (path) =>
    `${walOf(path)} holds writes not in the database yet, its folder cannot hold the -shm needed to read ` +
    `them, and they cannot be read in a private copy either`,
};

/**
 * Reads past what a read-only connection cannot use in place, without touching the store: the database and
 * then its companion are copied to a private folder, where SQLite finishes with them as the harness will on
 * its next start (rolls a crashed writer's journal back; takes a `-wal`'s writes in), and the copy is read. The
 * store, and the companion its harness needs, stay exactly as they were.
 */
function openRecoveredSnapshot(path: string, companion: Companion): DatabaseSync {
  const dir = mkdtempSync(join(tmpdir(), "session-bridge-snapshot-"));
  const copy = join(dir, "snapshot.db");
  try {
    copyFileSync(path, copy);
    copyFileSync(companion.of(path), companion.of(copy));
    const recovering = new DatabaseSync(copy);
    try {
      recovering.prepare("SELECT count(*) FROM sqlite_master").get();
    } finally {
      recovering.close();
    }
    return openChecked(path, copy, dir);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw new InputError(`${path}: ${companion.unreadable(path)} (${messageOf(error)})`);
  }
}

/**
 * Reads the schema once, so a damaged database fails here with its path in the message instead of later
 * with SQLite's bare "file is not a database" or "malformed" from some query.
 */
function assertReadableSchema(db: DatabaseSync, path: string): void {
  try {
    db.prepare("SELECT count(*) FROM sqlite_master").get();
  } catch (error) {
    db.close();
    // A lock, or a full disk (a WAL database's index could not be made): not the database's fault.
    if (isBusy(error) || error instanceof InputError || error instanceof RefusedError) throw error;
    const message = messageOf(error);
    throw new InputError(message.startsWith(`${path}: `) ? message : `${path}: ${message}`, { cause: error });
  }
}

/**
 * A connection that writes a harness's database, never through a link (lib/io/links.ts): the database and the
 * files SQLite keeps beside it are checked just before it opens them. SQLite itself follows links (node:sqlite
 * cannot ask it not to), so the database is checked again once open: a link swapped in between is refused
 * before anything is written.
 */
export function openForWrite(path: string): DatabaseSync {
  const files = [path, `${path}-wal`, `${path}-shm`, journalOf(path)];
  files.forEach(refuseLinkedFile);
  assertSqliteFile(path);
  const db = new StoreDatabase(path);
  try {
    refuseLinkedFile(path);
  } catch (error) {
    db.close();
    throw error;
  }
  db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return db;
}

export function tableColumns(db: DatabaseSync, table: string): ColumnInfo[] {
  const rows = db.prepare(`PRAGMA table_info(${quoteIdent(table)})`).all() as Row[];
  return rows.map((r) => ({
    name: String(r.name),
    type: String(r.type ?? ""),
    notnull: r.notnull === 1,
    defaultValue: r.dflt_value,
    primaryKey: Number(r.pk) > 0,
  }));
}

export function hasTable(db: DatabaseSync, table: string): boolean {
  return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type IN ('table','view') AND name = ?").get(table);
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/**
 * Insert statements already prepared on a connection, by table and column names: a handoff inserts tens of
 * thousands of rows of a few shapes, and preparing each again costs about as much as the insert itself.
 */
const inserts = new WeakMap<DatabaseSync, Map<string, StatementSync>>();

/** The insert of `names` into `target`, a table as SQL names it (quoted, and qualified when need be). */
function insertStatement(db: DatabaseSync, target: string, names: readonly string[]): StatementSync {
  let statements = inserts.get(db);
  if (!statements) inserts.set(db, statements = new Map());
  const key = `${target}\u0000${names.join("\u0000")}`;
  let found = statements.get(key);
  if (!found) {
    found = db.prepare(
      `INSERT INTO ${target} (${names.map(quoteIdent).join(", ")}) VALUES (${
        names.map(() => "?").join(", ")
      })`,
    );
    statements.set(key, found);
  }
  return found;
}

/** Inserts one row by column name, so only columns this schema generation has are named. */
export function insertRow(db: DatabaseSync, table: string, row: Row): void {
  const names = Object.keys(row);
  insertStatement(db, quoteIdent(table), names).run(...names.map((n) => sqlValue(row[n])));
}

/** Rows staged in temp tables for one table (see stageRows), not in it yet. */
export interface StagedRows {
  table: string;
  /** How many rows were staged. */
  count: number;
  /** One temp table per run of rows naming the same columns, in order. */
  runs: { temp: string; names: readonly string[] }[];
}

/**
 * One row to stage: its values in the order of its column names. Rows of one shape may share one `names`
 * array, which makes telling that they do one comparison (a long session stages tens of thousands of rows
 * of a few shapes); values are stored as sqlValue makes them.
 */
export interface StagedRow {
  names: readonly string[];
  values: readonly unknown[];
}

const sameNames = (a: readonly string[], b: readonly string[]): boolean =>
  a === b || (a.length === b.length && a.every((name, i) => name === b[i]));

/**
 * The connection's temp database, where rows are staged, spills to a temp file beyond its cache. At SQLite's
 * 4 KiB pages the rows of a 70 MB session were some 11,000 writes to that file and as many reads back as
 * the rows move; 64 KiB pages (SQLite's largest) make them a sixteenth. The cache is then set in KiB (2 MB, as
 * for any database): on a connection that has read its store, the temp database's is otherwise left at its
 * default, which grew with the pages, and a 70 MB handoff into Hermes peaked 30 MB higher. The page size takes
 * effect only while the temp database is unused on the connection; neither touches the store.
 */
const STAGING_PRAGMAS = "PRAGMA temp.page_size = 65536; PRAGMA temp.cache_size = -2000";

/**
 * Stages `rows` for `table` in temp tables of this connection, in the order given, as they arrive: SQLite holds
 * them (spilling to a temp file), not the caller, so a long session is never held in memory. Staging touches
 * only the temp database, so it runs in a transaction of its own that takes no lock on the store; moveStaged
 * (lib/store/row-batches.ts) then inserts them under the write lock. `onRow` is told how many rows were staged
 * so far. A failure (or a Ctrl-C) mid-way leaves nothing staged. Once per table on a connection: the temp
 * tables stay until it closes, which discards them at no cost (dropping one rewrites its pages, under the
 * write lock).
 */
export async function stageRows(
  db: DatabaseSync,
  table: string,
  rows: Iterable<StagedRow> | AsyncIterable<StagedRow>,
  onRow?: (staged: number) => void,
): Promise<StagedRows> {
  return (await stageTables(db, [table], rows, () => table, onRow))[table]!;
}

/**
 * Rows of several tables staged in one pass, as stageRows stages one's: each row for table `tableOf(row)`, one
 * of `tables`. What a writer making a table's rows alongside another's needs so as not to hold either's until
 * the other's are staged.
 */
export async function stageTables<T extends string, R extends StagedRow>(
  db: DatabaseSync,
  tables: readonly T[],
  rows: Iterable<R> | AsyncIterable<R>,
  tableOf: (row: R) => T,
  onRow?: (staged: number) => void,
): Promise<Record<T, StagedRows>> {
  // Each table's rows and current run: its column names and its insert, fetched once per run (a long session
  // stages tens of thousands of rows of one shape).
  const tableRuns = new Map(
    tables.map((table) => [table, {
      staged: { table, count: 0, runs: [] } as StagedRows,
      names: [] as readonly string[],
      insert: undefined as StageRow | undefined,
    }]),
  );
  let count = 0;
  readyStaging(db);
  db.exec("BEGIN");
  try {
    for await (const row of rows) {
      const run = tableRuns.get(tableOf(row))!;
      const { staged } = run;
      if (!run.insert || !sameNames(row.names, run.names)) {
        const temp = `temp.${quoteIdent(`session_bridge_staged_${staged.table}_${staged.runs.length}`)}`;
        run.names = row.names;
        staged.runs.push({ temp, names: row.names });
        run.insert = stagingTable(db, temp, row.names);
      }
      run.insert(row.values);
      staged.count++;
      // Counted apart from the call: `onRow?.(++count)` skips its argument, the count too, with no listener.
      count++;
      onRow?.(count);
    }
    db.exec("COMMIT");
  } catch (error) {
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
  return Object.fromEntries([...tableRuns].map(([table, run]) => [table, run.staged])) as Record<
    T,
    StagedRows
  >;
}

/** Rows of one shape: their column names, and each row's values in that order (as sqlValue stores them). */
export interface RowRun {
  names: readonly string[];
  rows: (readonly unknown[])[];
}

/** Rows as runs of one shape each, in order (rows of one shape share their `names` array: see StagedRow). */
export function rowRuns(rows: readonly StagedRow[]): RowRun[] {
  const runs: RowRun[] = [];
  for (const { names, values } of rows) {
    const last = runs.at(-1);
    if (last && last.names === names) last.rows.push(values);
    else runs.push({ names, rows: [values] });
  }
  return runs;
}

/** Stages one row's values (as sqlValue stores them) into a temp table made by stagingTable. */
export type StageRow = (values: readonly unknown[]) => void;

/**
 * Readies the connection's temp database for staging (STAGING_PRAGMAS): before its first temp table, as the
 * page size takes effect only then.
 */
export function readyStaging(db: DatabaseSync): void {
  db.exec(STAGING_PRAGMAS);
}

/** Makes the temp table `temp` (qualified, quoted) of columns `names`, and returns how to stage a row into it. */
export function stagingTable(db: DatabaseSync, temp: string, names: readonly string[]): StageRow {
  db.exec(`CREATE TEMP TABLE ${temp} (${names.map(quoteIdent).join(", ")})`);
  const insert = insertStatement(db, temp, names);
  return (values) => {
    insert.run(...values.map(sqlValue));
  };
}

type SqlValue = string | number | bigint | null | Uint8Array;

function sqlValue(value: unknown): SqlValue {
  if (value === undefined || value === null) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (
    typeof value === "string" || typeof value === "number" || typeof value === "bigint" ||
    value instanceof Uint8Array
  ) return value;
  return JSON.stringify(value);
}

/**
 * An online backup (SQLite's backup API: a consistent snapshot even while another process writes) into
 * `dir`, returning its path. The backup is recorded with the database it copies, for the retention rule.
 */
export async function onlineBackup(
  db: DatabaseSync,
  dir: string,
  name: string,
  feedback?: Feedback,
): Promise<string> {
  const target = backupTarget(dir, name);
  try {
    const step = startProgress(feedback, `backing up ${db.location() ?? name}`, "pages");
    try {
      await backup(db, target, {
        progress: ({ totalPages, remainingPages }) => step.advance(totalPages - remainingPages, totalPages),
      });
    } finally {
      step.finish();
    }
  } catch (error) {
    // A backup cut short (a full disk) is no backup: nothing of it stays.
    rmSync(target, { force: true });
    throw storeFailure(target, error);
  }
  recordCopy(target, db.location() ?? name);
  crashPoint("backup-taken");
  checkpoint();
  return target;
}

export const isBusy = (error: unknown): boolean =>
  /SQLITE_BUSY|database is locked/i.test(String((error as Error)?.message ?? error));

/** Why a write gave up waiting for another process's lock on `database`. */
export function lockedMessage(database: string): string {
  return `${database} stayed locked by another process; try again (nothing was changed)`;
}

/** How long one attempt at the write lock blocks inside SQLite, and how long all attempts together may take. */
const LOCK_ATTEMPT_MS = 250;
const LOCK_WAIT_MS = 30_000;

/**
 * Runs `work` inside one `BEGIN IMMEDIATE` transaction: the write lock is taken up front, so a harness that
 * holds the database open makes us wait, never fail half-way. The wait is many short attempts with the event
 * loop free in between, so a Ctrl-C while waiting stops the write at once. Any error rolls back.
 */
export async function immediateTransaction<T>(
  db: DatabaseSync,
  work: () => T | Promise<T>,
  feedback?: Feedback,
): Promise<T> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  db.exec(`PRAGMA busy_timeout = ${LOCK_ATTEMPT_MS}`);
  try {
    for (let attempt = 0;; attempt++) {
      await yieldAndCheckpoint();
      try {
        db.exec("BEGIN IMMEDIATE");
        break;
      } catch (error) {
        if (!isBusy(error)) throw error;
        if (attempt === 0) {
          feedback?.notice?.(
            `${db.location() ?? "the database"} is locked by another process: waiting up to ${
              LOCK_WAIT_MS / 1000
            } s (Ctrl-C stops and changes nothing)`,
          );
        }
        if (Date.now() > deadline) {
          throw new RefusedError(lockedMessage(db.location() ?? "the database"));
        }
      }
    }
  } finally {
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  }
  try {
    const result = await work();
    db.exec("COMMIT");
    crashPoint("rows-committed");
    return result;
  } catch (error) {
    // SQLite has already rolled back after some failures (a full disk, an I/O error): a second ROLLBACK would
    // fail with "no transaction is active" and hide what really went wrong.
    if (db.isTransaction) db.exec("ROLLBACK");
    throw error;
  }
}
