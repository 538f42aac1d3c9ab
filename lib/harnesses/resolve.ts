/**
 * The harness-level steps of resolving a `<session>` (the grammar itself is lib/pipeline/reference.ts): which
 * file and harness a path names, and which listed sessions an id, an id prefix or a title matches.
 */
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { InputError } from "../errors.ts";
import type { FileHead, Harness, SessionSummary } from "./types.ts";
import { harnessList, type Registry } from "./registry.ts";
import { isObject } from "../io/json.ts";
import { regularFileIfPresent } from "../io/file-kind.ts";
import type { BrokenStore } from "./stores.ts";
import { openReadOnly } from "../store/sqlite.ts";

/** The fewest characters an id prefix needs: shorter ones would match by accident. */
export const MIN_PREFIX = 6;

export interface Resolved {
  harness: Harness;
  path: string;
  /**
   * Stores that could not be searched when the answer might have been different with them: the reference
   * was a prefix or a title, which an unreadable store could have made ambiguous. (A full id is unique.)
   */
  skipped: BrokenStore[];
}

/** The listed sessions `ref` names: its exact id, else the ids it is a prefix of (6+ characters), else its title. */
export function matchStored(ref: string, rows: readonly SessionSummary[]): SessionSummary[] {
  const exact = rows.filter((r) => r.id === ref);
  if (exact.length) return exact;
  if (ref.length >= MIN_PREFIX) {
    const prefixed = rows.filter((r) => r.id.startsWith(ref));
    if (prefixed.length) return prefixed;
  }
  return rows.filter((r) => r.title === ref);
}

/** A reference names a file: it has a `/`, ends as a registered harness's files do, or names a session in one. */
export function looksLikePath(ref: string, registry: Registry): boolean {
  const inFile = IN_FILE.exec(ref);
  return ref.includes("/") || registry.harnesses.some((h) => endsAs(ref, h.files.extensions)) ||
    (!!inFile && holders(registry, inFile[1]!).length > 0);
}

/** One session of a file that holds many, as `list` shows it: `<file>#<session id>` (a Hermes state.db). */
const IN_FILE = /^(.+)#([^#/]+)$/;

const endsAs = (path: string, extensions: readonly string[] | undefined) =>
  !!extensions?.some((e) => path.endsWith(e));

/** The harnesses whose files like this one hold many sessions. */
const holders = (registry: Registry, file: string) =>
  registry.harnesses.filter((h) => endsAs(file, h.files.sessionsInFile));

export function resolveFile(ref: string, registry: Registry, from?: Harness): Omit<Resolved, "skipped"> {
  const path = resolvePath(ref);
  const inFile = existsSync(path) ? undefined : IN_FILE.exec(path);
  const candidates = inFile && regularFileIfPresent(inFile[1]!) ? holders(registry, inFile[1]!) : [];
  if (candidates.length) {
    const head = readHead(inFile![1]!);
    return {
      harness: from ?? databaseOwner(candidates, inFile![1]!, head) ??
        candidates.find((h) => h.files.recognizes(head)) ?? candidates[0]!,
      path,
    };
  }
  if (!regularFileIfPresent(path)) throw new InputError(`${ref}: no such file`);
  const head = readHead(path);
  return {
    harness: from ?? databaseOwner(registry.harnesses, path, head) ?? recognize(registry, head),
    path,
  };
}

/**
 * The harness whose tables a SQLite database holds, if one's do. A database that cannot be opened belongs to
 * none here: the harness its head names then reads it, and says what is wrong with it.
 */
function databaseOwner(harnesses: readonly Harness[], path: string, head: FileHead): Harness | undefined {
  const keeping = harnesses.filter((h) => h.files.tables?.length);
  if (!keeping.length || !head.text.startsWith(SQLITE_HEADER)) return undefined;
  let names: Set<string>;
  try {
    const db = openReadOnly(path);
    try {
      names = new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
        name: string;
      }[]).map((r) => r.name));
    } finally {
      db.close();
    }
  } catch {
    return undefined;
  }
  return keeping.find((h) => h.files.tables!.every((t) => names.has(t)));
}

const SQLITE_HEADER = "SQLite format 3\u0000";

/**
 * Which harness wrote a file, by its head: the first harness whose descriptor recognizes it, else the one
 * that takes what nobody recognizes (Claude Code: its reader gives the clear per-line error).
 */
function recognize(registry: Registry, head: FileHead): Harness {
  const found = registry.harnesses.find((h) => h.files.recognizes(head)) ??
    registry.harnesses.find((h) => h.files.fallback);
  if (!found) throw new InputError(`no harness recognizes this file (expected ${harnessList(registry)})`);
  return found;
}

const HEAD_BYTES = 64 * 1024;

function readHead(path: string): FileHead {
  const fd = openSync(path, "r");
  const buffer = Buffer.alloc(HEAD_BYTES);
  let size: number;
  try {
    size = readSync(fd, buffer, 0, buffer.length, 0);
  } finally {
    closeSync(fd);
  }
  const text = buffer.subarray(0, size).toString("utf8");
  const line = text.split("\n").find((l) => l.trim());
  try {
    const value: unknown = JSON.parse(line ?? "");
    return isObject(value) ? { text, first: value } : { text };
  } catch {
    return { text };
  }
}
