/**
 * Turns what a user typed as `<session>` into one session: a file path, a full id, a unique id prefix of at
 * least 6 characters, or an exact title. Ambiguity is an error that lists the candidates, never a guess.
 */
import { closeSync, existsSync, openSync, readSync, statSync } from "node:fs";
import { resolve as resolvePath } from "node:path";
import { InputError, RefusedError } from "../errors.ts";
import type { HarnessName } from "../ir/schema.ts";
import type { Harness, Homes, SessionSummary } from "./types.ts";
import { findHarness, type Registry } from "./registry.ts";
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
  if (looksLikePath(ref)) return { ...resolveFile(ref, registry, from), skipped: [] };
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

const looksLikePath = (ref: string) =>
  ref.includes("/") || ref.endsWith(".jsonl") || ref.endsWith(".json") || ref.endsWith(".db") ||
  DB_SESSION.test(ref);

/** One session of a database, as `list` shows it: `<file>.db#<session id>` (Hermes). */
const DB_SESSION = /^(.+\.db)#([^#/]+)$/;

function resolveFile(ref: string, registry: Registry, from?: Harness): Omit<Resolved, "skipped"> {
  const path = resolvePath(ref);
  const inDatabase = existsSync(path) ? undefined : DB_SESSION.exec(path);
  if (inDatabase && existsSync(inDatabase[1]!)) {
    return { harness: from ?? findHarness(registry, "hermes"), path };
  }
  if (!existsSync(path)) throw new InputError(`${ref}: no such file`);
  if (!statSync(path).isFile()) throw new InputError(`${ref}: not a file`);
  return { harness: from ?? findHarness(registry, sniffHarness(path)), path };
}

/**
 * Which harness wrote a file, from its first record: Codex lines wrap a `payload`, Hermes keeps a SQLite
 * database, pretty-printed `session_<id>.json` snapshots, legacy transcripts of role-keyed messages and export
 * lines holding a session's `messages`; Claude Code records carry `type` and `uuid`/`sessionId`.
 */
function sniffHarness(path: string): HarnessName {
  const fd = openSync(path, "r");
  const head = Buffer.alloc(64 * 1024);
  const size = readSync(fd, head, 0, head.length, 0);
  closeSync(fd);
  const text = head.subarray(0, size).toString("utf8");
  if (text.startsWith("SQLite format 3\u0000")) return "hermes";
  // A snapshot is pretty-printed; an export line can be longer than the head, so it is known by its start.
  if (/^\{\s*"session_id"\s*:|^\{"id": "[^"]*", "source": /.test(text)) return "hermes";
  // A Codex session_meta line carries the whole system prompt, so it too can be longer than the head.
  if (/^\{"timestamp":"[^"]*",(?:"ordinal":\d+,)?"type":"session_meta"/.test(text)) return "codex";
  const first = text.split("\n").find((l) => l.trim());
  try {
    const record = JSON.parse(first ?? "") as Record<string, unknown>;
    if ("payload" in record && "type" in record) return "codex";
    if (typeof record.role === "string" || "session_id" in record || Array.isArray(record.messages)) {
      return "hermes";
    }
  } catch {
    // Not JSON at all: let the Claude Code reader produce its clear per-line error.
  }
  return "claude-code";
}
