/**
 * Turns what a user typed as `<session>` into one session: a file path, a full id, a unique id prefix of at
 * least 6 characters, or an exact title. Ambiguity is an error that lists the candidates, never a guess.
 */
import { closeSync, existsSync, openSync, readSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { InputError, RefusedError } from "../errors.ts";
import type { FileHead, Harness, Homes, SessionSummary } from "./types.ts";
import { findHarness, harnessList, type Registry } from "./registry.ts";
import { isObject } from "../io/json.ts";
import { regularFileIfPresent } from "../io/file-kind.ts";
import { type BrokenStore, brokenStoreLine, listStores } from "./stores.ts";

const MIN_PREFIX = 6;
const SHOWN = 8;

export interface Resolved {
  harness: Harness;
  path: string;
  /**
   * Stores that could not be searched when the answer might have been different with them: the reference
   * was a prefix or a title, which an unreadable store could have made ambiguous. (A full id is unique.)
   */
  skipped: BrokenStore[];
}

export async function resolveSession(
  ref: string,
  registry: Registry,
  homes: Homes,
  from?: Harness,
): Promise<Resolved> {
  if (!ref) throw new InputError("missing <session>");
  if (looksLikePath(ref, registry)) return { ...resolveFile(ref, registry, from), skipped: [] };
  const candidates = from ? [from] : registry.harnesses;
  const { sessions, broken } = await listStores(candidates, homes);
  const matches = pickMatches(ref, sessions);
  if (matches.length === 1) {
    const exact = matches[0]!.id === ref;
    const found = findHarness(registry, matches[0]!.harness);
    return { harness: found, path: matches[0]!.path, skipped: exact ? [] : broken };
  }
  if (!matches.length) {
    // Not found may only mean it is in a store we could not read: say so, with the store's own error.
    const unsearched = broken.length ? `; not searched: ${broken.map(brokenStoreLine).join("; ")}` : "";
    const message = `no session matches ${JSON.stringify(ref)}${from ? ` in ${from.name}` : ""}${unsearched}`;
    throw broken.length ? new RefusedError(message) : new InputError(`${message} (try: session-bridge list)`);
  }
  const shown = matches.slice(0, SHOWN).map((m) => `${m.harness}:${m.id}${m.title ? ` "${m.title}"` : ""}`);
  const more = matches.length > SHOWN ? ` and ${matches.length - SHOWN} more` : "";
  throw new InputError(
    `${JSON.stringify(ref)} is ambiguous: ${shown.join(", ")}${more} (use a longer id or --from)`,
  );
}

function pickMatches(ref: string, rows: SessionSummary[]): SessionSummary[] {
  const exact = rows.filter((r) => r.id === ref);
  if (exact.length) return exact;
  if (ref.length >= MIN_PREFIX) {
    const prefixed = rows.filter((r) => r.id.startsWith(ref));
    if (prefixed.length) return prefixed;
  }
  return rows.filter((r) => r.title === ref);
}

/** A reference names a file: it has a `/`, ends as a registered harness's files do, or names a session in one. */
function looksLikePath(ref: string, registry: Registry): boolean {
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

function resolveFile(ref: string, registry: Registry, from?: Harness): Omit<Resolved, "skipped"> {
  const path = resolvePath(ref);
  const inFile = existsSync(path) ? undefined : IN_FILE.exec(path);
  const candidates = inFile && regularFileIfPresent(inFile[1]!) ? holders(registry, inFile[1]!) : [];
  if (candidates.length) {
    const head = readHead(inFile![1]!);
    return { harness: from ?? candidates.find((h) => h.files.recognizes(head)) ?? candidates[0]!, path };
  }
  if (!regularFileIfPresent(path)) throw new InputError(`${ref}: no such file`);
  return { harness: from ?? recognize(registry, readHead(path)), path };
}

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
