/**
 * Named conversations: the alias registry LazyBridge keeps in `~/.lazybridge/sessions.json`, read and written
 * with LazyBridge's own rules so both tools share one file, byte for byte.
 *
 *   {"sessions": {<kind>: {<scope>: {<alias>: {"native_id", "model", "effort", "created_at",
 *    "updated_at"}}}}, "version": 1}
 *
 * An entry is keyed by (kind, scope, alias): kind names the harness family (each harness's descriptor says
 * its own: LazyBridge reads the kinds it knows and preserves the others), scope the resolved project folder,
 * alias a human name. Every write is read-modify-write under the in-process and lock-file locks, to a same-folder temp file
 * that is synced and renamed over the registry; reads take no lock. Kinds, scopes and keys this code does not
 * know are kept as they are. A file that is not a registry is never overwritten: it is moved aside to
 * `sessions.json.corrupt` (or `.corrupt-<timestamp>`) with a warning, and the registry starts empty.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, join } from "node:path";
import process from "node:process";
import { InputError, RefusedError } from "../errors.ts";
import { withRegistryLock } from "./lock.ts";
import {
  byCodePoint,
  isPyObject,
  pyBlank,
  pyDump,
  PyJsonError,
  PyNumber,
  type PyObject,
  pyObject,
  pyParse,
  type PyValue,
} from "./python-json.ts";
import { normalizeScope } from "./scope.ts";

/** The variable naming the registry file when no path is given (honoured when non-empty). */
export const SESSIONS_FILE_VARIABLE = "LAZYBRIDGE_SESSIONS_FILE";

/**
 * A harness family the registry names: the harness descriptors say which (lib/harnesses/registry.ts
 * `registryKinds`), and a registry given `kinds` binds only those.
 */
export type RegistryKind = string;

/** How LazyBridge spells a kind: a lower-case word. */
const KIND = /^[a-z][a-z0-9-]{0,63}$/;

const ALIAS = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const FORMAT_VERSION = 1;

/** A value read from the file as plain JSON (hand edits may put anything in `model` or `effort`). */
export type RegistryValue = null | boolean | number | string | RegistryValue[] | {
  [key: string]: RegistryValue;
};

/** One alias, as LazyBridge's `entries()` returns it (the same field names). */
export interface RegistryEntry {
  kind: string;
  scope: string;
  name: string;
  native_id: string;
  model: RegistryValue;
  effort: RegistryValue;
  created_at: RegistryValue;
  updated_at: RegistryValue;
}

/** An entry exactly as stored, every key kept (for putting it back as it was). */
export type StoredEntry = PyObject;

export class AliasNotFoundError extends InputError {
  override name = "AliasNotFoundError";
}

export class AliasExistsError extends RefusedError {
  override name = "AliasExistsError";
}

export interface SessionRegistryOptions {
  /** The registry file; without it, `LAZYBRIDGE_SESSIONS_FILE` from `env`, else `<home>/.lazybridge/sessions.json`. */
  path?: string;
  /** Read on every call, as LazyBridge reads its environment (pass `process.env` to follow it). Default: none. */
  env?: NodeJS.ProcessEnv;
  /** Default: the user's home folder. */
  home?: string;
  /** Relative scopes are taken from here. Default: the process's working folder. */
  cwd?: string;
  /** The time `created_at` and `updated_at` record. Default: now. */
  clock?: () => Date;
  /** How a moved-aside file is reported. Default: a process warning (`process.emitWarning`). */
  warn?: (message: string) => void;
  /** The kinds it binds and looks up (the registered harnesses' kinds). Default: any kind spelled as one. */
  kinds?: readonly string[];
}

export interface BindOptions {
  /** What the conversation last ran with; undefined is stored as null, overwriting an earlier value. */
  model?: string | null;
  effort?: string | null;
}

/** The document: `sessions` checked to hold objects down to every entry's string `native_id`. */
interface Document {
  root: PyObject;
  sessions: PyObject;
}

/** The file is there but is no registry (Python's `_CorruptRegistry`). */
class CorruptRegistry extends Error {}

export class SessionRegistry {
  readonly #options: SessionRegistryOptions;

  constructor(options: SessionRegistryOptions = {}) {
    this.#options = options;
  }

  /** The file this registry reads and writes right now. */
  get path(): string {
    if (this.#options.path !== undefined) return this.#options.path;
    const fromEnv = this.#options.env?.[SESSIONS_FILE_VARIABLE];
    if (fromEnv) return fromEnv;
    return join(this.#options.home ?? homedir(), ".lazybridge", "sessions.json");
  }

  /** The scope key a folder stands for (resolved absolute POSIX path). */
  scopeOf(folder: string): string {
    return normalizeScope(folder, this.#options.cwd);
  }

  /** The native id bound to (kind, scope, alias), or undefined. */
  async resolve(kind: RegistryKind, scope: string, alias: string): Promise<string | undefined> {
    const key = this.#key(kind, scope, alias);
    const entry = await this.stored(key.kind, key.scope, key.alias);
    return entry === undefined ? undefined : entry.native_id as string;
  }

  /** The entry under (kind, scope, alias) exactly as stored, or undefined. */
  async stored(kind: RegistryKind, scope: string, alias: string): Promise<StoredEntry | undefined> {
    const key = this.#key(kind, scope, alias);
    const { sessions } = await this.#load();
    const entry = child(child(child(sessions, key.kind), key.scope), key.alias);
    return entry;
  }

  /** Creates the alias or re-points it at `nativeId`; `created_at` survives a rebind, `updated_at` does not. */
  async bind(
    kind: RegistryKind,
    scope: string,
    alias: string,
    nativeId: string,
    { model = null, effort = null }: BindOptions = {},
  ): Promise<void> {
    const key = this.#key(kind, scope, alias);
    if (typeof nativeId !== "string" || pyBlank(nativeId)) {
      throw new InputError("native_id must be a non-empty string");
    }
    await this.#mutate((sessions) => {
      const byName = ensure(ensure(sessions, key.kind), key.scope);
      const now = this.#now();
      const previous = child(byName, key.alias);
      const entry = pyObject();
      entry.native_id = nativeId;
      entry.model = model;
      entry.effort = effort;
      entry.created_at = previous !== undefined && "created_at" in previous
        ? previous.created_at as PyValue
        : now;
      entry.updated_at = now;
      byName[key.alias] = entry;
      return true;
    });
  }

  /** Renames an alias: AliasNotFoundError when `from` is unknown, AliasExistsError when `to` is taken. */
  async rename(kind: RegistryKind, scope: string, from: string, to: string): Promise<void> {
    const key = this.#key(kind, scope, from);
    checkAlias(to, "new session alias");
    await this.#mutate((sessions) => {
      const byName = child(child(sessions, key.kind), key.scope) ?? pyObject();
      if (!(from in byName)) {
        throw new AliasNotFoundError(
          `no ${key.kind} session alias ${pyRepr(from)} in scope ${pyRepr(key.scope)}`,
        );
      }
      if (from === to) return false;
      if (to in byName) {
        throw new AliasExistsError(
          `${key.kind} session alias ${pyRepr(to)} already exists in scope ${
            pyRepr(key.scope)
          }; forget it first`,
        );
      }
      const entry = byName[from] as PyObject;
      delete byName[from];
      entry.updated_at = this.#now();
      byName[to] = entry;
      return true;
    });
  }

  /** Drops an alias (the conversation itself is untouched); whether it existed. An emptied scope goes too. */
  async forget(kind: RegistryKind, scope: string, alias: string): Promise<boolean> {
    const key = this.#key(kind, scope, alias);
    let removed = false;
    await this.#mutate((sessions) => {
      const byScope = child(sessions, key.kind);
      const byName = child(byScope, key.scope);
      if (byScope === undefined || byName === undefined || !(key.alias in byName)) return false;
      delete byName[key.alias];
      if (Object.keys(byName).length === 0) delete byScope[key.scope];
      removed = true;
      return true;
    });
    return removed;
  }

  /**
   * Puts an entry back exactly as it was (`undefined`: no entry), unless it no longer is what `expected` says
   * (someone re-pointed it meanwhile): for undoing a bind. Whether it changed the file.
   */
  async restore(
    kind: RegistryKind,
    scope: string,
    alias: string,
    previous: StoredEntry | undefined,
    expected: { native_id: string },
  ): Promise<boolean> {
    const key = this.#key(kind, scope, alias);
    let restored = false;
    await this.#mutate((sessions) => {
      const byScope = child(sessions, key.kind);
      const current = child(child(byScope, key.scope), key.alias);
      if (current?.native_id !== expected.native_id) return false;
      if (previous === undefined) {
        const byName = child(byScope, key.scope) as PyObject;
        delete byName[key.alias];
        if (Object.keys(byName).length === 0) delete (byScope as PyObject)[key.scope];
        // The bind being undone made the kind's object too, most likely: an empty one goes with it.
        if (Object.keys(byScope as PyObject).length === 0) delete sessions[key.kind];
      } else ensure(ensure(sessions, key.kind), key.scope)[key.alias] = previous;
      restored = true;
      return true;
    });
    return restored;
  }

  /** Every entry, optionally of one kind or scope, sorted by (kind, scope, name). Unknown kinds included. */
  async entries({ kind, scope }: { kind?: RegistryKind; scope?: string } = {}): Promise<RegistryEntry[]> {
    if (kind !== undefined) this.#checkKind(kind);
    const scopeKey = scope === undefined ? undefined : this.scopeOf(scope);
    const { sessions } = await this.#load();
    const rows: RegistryEntry[] = [];
    for (const [k, byScope] of Object.entries(sessions)) {
      if (kind !== undefined && k !== kind) continue;
      for (const [s, byName] of Object.entries(byScope as PyObject)) {
        if (scopeKey !== undefined && s !== scopeKey) continue;
        for (const [n, value] of Object.entries(byName as PyObject)) {
          const entry = value as PyObject;
          rows.push({
            kind: k,
            scope: s,
            name: n,
            native_id: entry.native_id as string,
            model: plain(entry.model),
            effort: plain(entry.effort),
            created_at: plain(entry.created_at),
            updated_at: plain(entry.updated_at),
          });
        }
      }
    }
    return rows.sort((a, b) => compareTuple([a.kind, a.scope, a.name], [b.kind, b.scope, b.name]));
  }

  /** `datetime.now(UTC).isoformat(timespec="seconds")`. */
  #now(): string {
    return `${(this.#options.clock?.() ?? new Date()).toISOString().slice(0, 19)}+00:00`;
  }

  #key(
    kind: RegistryKind,
    scope: string,
    alias: string,
  ): { kind: RegistryKind; scope: string; alias: string } {
    return { kind: this.#checkKind(kind), scope: this.scopeOf(scope), alias: checkAlias(alias) };
  }

  /** A kind this registry binds: one of its `kinds`, else any spelled as a kind. */
  #checkKind(kind: string): RegistryKind {
    const { kinds } = this.#options;
    if (kinds ? !kinds.includes(kind) : !KIND.test(kind)) {
      const expected = kinds ? `one of ${kinds.join(", ")}` : "a lower-case word";
      throw new InputError(`kind must be ${expected}, got ${pyRepr(kind)}`);
    }
    return kind;
  }

  /** A consistent snapshot, without a lock unless the file must be moved aside. */
  async #load(): Promise<Document> {
    const path = this.path;
    try {
      return read(path);
    } catch (error) {
      if (!(error instanceof CorruptRegistry)) throw error;
    }
    return await withRegistryLock(path, () => this.#readOrQuarantine(path));
  }

  /** Caller holds the lock. Read again: another process may have repaired it meanwhile. */
  #readOrQuarantine(path: string): Document {
    try {
      return read(path);
    } catch (error) {
      if (!(error instanceof CorruptRegistry)) throw error;
      const target = quarantine(path);
      const message =
        `SessionRegistry: ${path} is not a valid registry (${error.message}); moved it to ${target} and starting empty.`;
      (this.#options.warn ?? ((m: string) => process.emitWarning(m, "RuntimeWarning")))(message);
      return emptyDocument();
    }
  }

  /** Read-modify-write under both locks; `change` says whether it changed anything (a no-op never writes). */
  async #mutate(change: (sessions: PyObject) => boolean): Promise<void> {
    const path = this.path;
    await withRegistryLock(path, () => {
      const document = this.#readOrQuarantine(path);
      if (change(document.sessions)) {
        document.root.version = new PyNumber(String(FORMAT_VERSION), FORMAT_VERSION);
        write(path, document.root);
      }
    });
  }
}

/** The registry text LazyBridge writes for this document (sorted keys, 2-space indent, ASCII, newline). */
export function registryText(root: PyObject): string {
  return `${pyDump(root)}\n`;
}

function emptyDocument(): Document {
  const root = pyObject();
  root.version = new PyNumber(String(FORMAT_VERSION), FORMAT_VERSION);
  root.sessions = pyObject();
  return { root, sessions: root.sessions };
}

function read(path: string): Document {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return emptyDocument();
    throw error;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // LazyBridge's read raises here on every call; moved aside, both tools work again.
    throw new CorruptRegistry("not UTF-8 text");
  }
  // Python reads text with universal newlines.
  text = text.replace(/\r\n?/g, "\n");
  if (pyBlank(text)) return emptyDocument();
  let root: PyValue;
  try {
    root = pyParse(text);
  } catch (error) {
    if (error instanceof PyJsonError) throw new CorruptRegistry(error.message);
    throw error;
  }
  if (!validShape(root)) throw new CorruptRegistry("unexpected document shape");
  return { root, sessions: root.sessions as PyObject };
}

/** LazyBridge's `_valid_shape`: objects all the way down, every entry with a string `native_id`. */
function validShape(root: PyValue): root is PyObject {
  if (!isPyObject(root) || !isPyObject(root.sessions)) return false;
  for (const byScope of Object.values(root.sessions)) {
    if (!isPyObject(byScope)) return false;
    for (const byName of Object.values(byScope)) {
      if (!isPyObject(byName)) return false;
      for (const entry of Object.values(byName)) {
        if (!isPyObject(entry) || typeof entry.native_id !== "string") return false;
      }
    }
  }
  return true;
}

let tempCounter = 0;

function write(path: string, root: PyObject): void {
  const temp = join(dirname(path), `.${basename(path)}.${process.pid}.${++tempCounter}.tmp`);
  try {
    const fd = openSync(temp, "w");
    try {
      writeSync(fd, registryText(root));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** Moves the file aside to `<name>.corrupt`, or `<name>.corrupt-<UTC yyyymmddTHHMMSSffffffZ>` when that exists. */
function quarantine(path: string): string {
  let target = `${path}.corrupt`;
  if (existsSync(target)) target = `${path}.corrupt-${compactStamp()}`;
  renameSync(path, target);
  return target;
}

/** Python's `strftime('%Y%m%dT%H%M%S%fZ')` in UTC; the microseconds below the millisecond from the monotonic clock. */
function compactStamp(): string {
  const now = new Date();
  const micros = String(Math.floor((performance.now() * 1000) % 1000)).padStart(3, "0");
  return `${now.toISOString().slice(0, 19).replace(/[-:]/g, "")}${
    String(now.getUTCMilliseconds()).padStart(3, "0")
  }${micros}Z`;
}

/** Whether `name` is a valid alias: a letter, then letters, digits, `_`, `.` or `-`, at most 64 characters. */
export function isAlias(name: string): boolean {
  return ALIAS.test(name);
}

function checkAlias(name: string, what = "session alias"): string {
  if (typeof name !== "string" || !ALIAS.test(name)) {
    throw new InputError(
      `invalid ${what} ${pyRepr(name)}: must start with a letter and contain only letters, digits, ` +
        "'_', '.' or '-' (max 64 characters)",
    );
  }
  return name;
}

function child(parent: PyObject | undefined, key: string): PyObject | undefined {
  const value = parent?.[key];
  return isPyObject(value) ? value : undefined;
}

function ensure(parent: PyObject, key: string): PyObject {
  const existing = child(parent, key);
  if (existing !== undefined) return existing;
  const created = pyObject();
  parent[key] = created;
  return created;
}

function plain(value: PyValue | undefined): RegistryValue {
  if (value === undefined || value === null) return null;
  if (value instanceof PyNumber) return value.value;
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

/** Python's tuple order: element by element, strings by code point. */
function compareTuple(a: string[], b: string[]): number {
  for (let i = 0; i < a.length; i++) {
    const d = byCodePoint(a[i] as string, b[i] as string);
    if (d !== 0) return d;
  }
  return 0;
}

/** A string quoted for a message the way LazyBridge's (Python's repr) quotes it, close enough to read alike. */
function pyRepr(s: string): string {
  return `'${s.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
}

let defaultRegistry: SessionRegistry | undefined;

/**
 * The process-wide registry engines use when given none, created on first use: LazyBridge's
 * `default_session_registry()`, whose file is `LAZYBRIDGE_SESSIONS_FILE` when set and non-empty, read again on
 * every call, else `~/.lazybridge/sessions.json`. The one place the library reads the process's environment
 * (tests/explicit-context.test.ts): code written against LazyBridge's default expects the variable to count,
 * and both tools must land in the same file.
 */
export function defaultSessionRegistry(): SessionRegistry {
  defaultRegistry ??= new SessionRegistry({ env: process.env });
  return defaultRegistry;
}

/** Installs `registry` as the default (undefined: created again on first use); returns the previous one. */
export function setDefaultSessionRegistry(
  registry: SessionRegistry | undefined,
): SessionRegistry | undefined {
  const previous = defaultRegistry;
  defaultRegistry = registry;
  return previous;
}
