/**
 * The `<session>` grammar: every way a person or an agent names a session, in one table. The forms are tried
 * in order and the first that claims the text resolves it, so every command and every library call that takes
 * a reference (load, convert, export, handoff) accepts a form as soon as it is in REFERENCE_FORMS. A form that
 * names a session by a word (`latest`) wins over a session titled with that word: the words are reserved.
 * Ambiguity is an error that lists the candidates, never a guess.
 */
import { InputError, RefusedError } from "../errors.ts";
import type { Harness, Homes, SessionSummary } from "../harnesses/types.ts";
import { newestFirst } from "./newest.ts";
import { findHarness, type Registry } from "../harnesses/registry.ts";
import { type BrokenStore, brokenStoreLine, listStores, storeLocations } from "../harnesses/stores.ts";
import { looksLikePath, matchStored, MIN_PREFIX, type Resolved, resolveFile } from "../harnesses/resolve.ts";
import { aliasOfReference, type NamedSessions, uniqueBinding } from "../aliases/named.ts";

export type { Resolved } from "../harnesses/resolve.ts";

export interface ReferenceRequest {
  /** What was typed. */
  ref: string;
  registry: Registry;
  homes: Homes;
  /** session-bridge's own folder (for forms that keep names of their own). */
  bridgeHome: string;
  /** Look in this harness only (`--from`). */
  from?: Harness;
  /** The alias registry and folder `@NAME` is looked up in; without it `@NAME` is refused. */
  named?: NamedSessions;
  /** The caller's environment: `current` reads the running harness's variables in it (absent: refused). */
  env?: NodeJS.ProcessEnv;
}

export interface ReferenceForm {
  /** How help writes the form: `latest`, `<harness>~N`. */
  syntax: string;
  /** What it names, as help says it. */
  means: string;
  /** Whether `ref` is written in this form (the first form in the table that claims it resolves it). */
  claims(ref: string, registry: Registry): boolean;
  resolve(request: ReferenceRequest): Promise<Resolved>;
}

/** A file, as a path (`./s.jsonl`, `~/.codex/sessions/...`) or `<state.db>#<id>` for one of a file's sessions. */
const FILE: ReferenceForm = {
  syntax: "PATH",
  means: "a session file (DB#ID: one session of a file that holds many)",
  claims: (ref, registry) => looksLikePath(ref, registry),
  resolve: ({ ref, registry, from }) => Promise.resolve({ ...resolveFile(ref, registry, from), skipped: [] }),
};

/** `current`: the session of the harness running this command (lib/pipeline/current.ts says how it is found). */
const CURRENT: ReferenceForm = {
  syntax: "current",
  means: "the session of the harness running this command (an agent's own)",
  claims: (ref) => ref === "current",
  async resolve({ registry, homes, from, env }) {
    if (!env) throw new InputError('"current" needs the caller\'s environment (the library takes it as env)');
    const { currentSession } = await import("./current.ts");
    const found = await currentSession({ registry, homes, env, ...(from ? { from } : {}) });
    return { harness: found.harness, path: found.session.path, skipped: [] };
  },
};

/** `latest`, `latest~N`, `<harness>~N`: the N-th newest (1 = the newest), as `list` orders them. */
const NEWEST = /^([a-z][a-z0-9-]*)~([0-9]+)$/i;

const RECENT: ReferenceForm = {
  syntax: "latest, latest~N, H~N",
  means: "the newest (with --from H: that harness's), the N-th newest, H's N-th newest",
  claims: (ref, registry) => {
    if (ref === "latest") return true;
    const word = NEWEST.exec(ref)?.[1]?.toLowerCase();
    return word === "latest" || (word !== undefined && harnessNamed(registry, word) !== undefined);
  },
  async resolve({ ref, registry, homes, from }) {
    const [, word = "latest", count = "1"] = NEWEST.exec(ref) ?? [];
    const named = word.toLowerCase() === "latest" ? undefined : findHarness(registry, word);
    if (named && from && named !== from) {
      throw new InputError(`${JSON.stringify(ref)} names ${named.name}, but --from says ${from.name}`);
    }
    const n = Number(count);
    if (!Number.isSafeInteger(n) || n < 1) {
      throw new InputError(`${JSON.stringify(ref)}: N counts from 1 (the newest is ${word}~1)`);
    }
    const harnesses = named ? [named] : from ? [from] : registry.harnesses;
    const { sessions, broken } = await listStores(harnesses, homes);
    const row = newestFirst(sessions)[n - 1];
    if (!row) {
      const have = sessions.length ? `there are only ${sessions.length}` : "there are none";
      throw notFound(
        `no ${n === 1 ? "newest" : `${n}th newest`} session (${JSON.stringify(ref)}): ${have}`,
        harnesses,
        homes,
        broken,
      );
    }
    return stored(row, registry, broken);
  },
};

/** A full id, a unique id prefix, or an exact title, searched across the stores (or `--from`'s). */
const STORED: ReferenceForm = {
  syntax: "ID, PREFIX, TITLE",
  means: `a full id, a unique id prefix (${MIN_PREFIX}+ characters), an exact title`,
  claims: () => true,
  async resolve({ ref, registry, homes, from }) {
    const harnesses = from ? [from] : registry.harnesses;
    const { sessions, broken } = await listStores(harnesses, homes);
    const matches = matchStored(ref, sessions);
    if (matches.length === 1) return stored(matches[0]!, registry, matches[0]!.id === ref ? [] : broken);
    if (matches.length) throw ambiguous(ref, matches, sessions);
    const prefixOf = sessions.filter((s) => s.id.startsWith(ref)).length;
    if (prefixOf) {
      throw new InputError(
        `id prefix ${JSON.stringify(ref)} is too short: use at least ${MIN_PREFIX} characters ` +
          `(${prefixOf} session${prefixOf === 1 ? "" : "s"} start${prefixOf === 1 ? "s" : ""} with it; ` +
          "session-bridge list shows each one's shortest)",
      );
    }
    throw notFound(`no session matches ${JSON.stringify(ref)}`, harnesses, homes, broken);
  },
};

/**
 * `@NAME`: the conversation an alias names in the current folder's scope (LazyBridge's registry), found in the
 * harness whose registry kind it is bound under. Bound under two kinds, it is ambiguous unless `--from` chooses.
 */
const NAMED: ReferenceForm = {
  syntax: "@NAME",
  means: "the conversation named NAME in this folder (session-bridge alias, LazyBridge)",
  claims: (ref) => ref.startsWith("@"),
  async resolve(request) {
    const name = aliasOfReference(request.ref);
    if (!request.named) throw new InputError(`${JSON.stringify(request.ref)}: no alias registry was given`);
    const { registry, from } = request;
    const binding = await uniqueBinding(request.named, name, from ? [from] : registry.harnesses);
    try {
      return await STORED.resolve({ ...request, ref: binding.entry.native_id, from: binding.harness });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      throw new InputError(
        `@${name} names ${binding.harness.name} session ${binding.entry.native_id}, which is not there: ` +
          error.message,
      );
    }
  },
};

/** Every form, in the order they are tried: the catch-all search of ids and titles comes last. */
export const REFERENCE_FORMS: readonly ReferenceForm[] = [FILE, CURRENT, NAMED, RECENT, STORED];

/** The session `ref` names, by the first form that claims it. */
export function resolveReference(request: ReferenceRequest): Promise<Resolved> {
  if (!request.ref) throw new InputError("missing <session>");
  const form = REFERENCE_FORMS.find((f) => f.claims(request.ref, request.registry));
  return form!.resolve(request);
}

const harnessNamed = (registry: Registry, word: string) =>
  registry.harnesses.find((h) => h.name === word || h.aliases.includes(word));

function stored(row: SessionSummary, registry: Registry, skipped: BrokenStore[]): Resolved {
  return { harness: findHarness(registry, row.harness), path: row.path, skipped };
}

/**
 * Nothing found: where it looked, and, when a store could not be read, that the answer might be there (then
 * a refusal, exit 1, rather than bad input).
 */
function notFound(
  message: string,
  harnesses: readonly Harness[],
  homes: Homes,
  broken: BrokenStore[],
): Error {
  if (broken.length) {
    return new RefusedError(`${message}; not searched: ${broken.map(brokenStoreLine).join("; ")}`);
  }
  return new InputError(
    `${message} (looked in ${storeLocations(harnesses, homes)}; try: session-bridge list)`,
  );
}

const SHOWN = 8;

/** Several sessions match: each named, with the shortest prefix that names it alone among `all`. */
function ambiguous(
  ref: string,
  matches: readonly SessionSummary[],
  all: readonly SessionSummary[],
): InputError {
  const shown = matches.slice(0, SHOWN);
  const listed = shown.map((m) => `${m.harness}:${m.id}${m.title ? ` "${m.title}"` : ""}`);
  const more = matches.length > SHOWN ? ` and ${matches.length - SHOWN} more` : "";
  const prefixes = shortestUniquePrefixes(all.map((s) => s.id));
  const distinct = [...new Set(shown.map((m) => prefixes.get(m.id)!))];
  const hint = distinct.length === shown.length
    ? `name one by its shortest prefix: ${distinct.join(", ")}`
    : "the same id is in more than one store: add --from H";
  return new InputError(`${JSON.stringify(ref)} is ambiguous: ${listed.join(", ")}${more} (${hint})`);
}

/**
 * Each id's shortest prefix that still names it alone among `ids` and is long enough to be taken as a prefix
 * (Codex ids are time-ordered UUIDs: sessions started within a minute share their first 8 characters). An id
 * that is itself the start of another id, or shorter than the minimum, is shown whole.
 */
export function shortestUniquePrefixes(ids: readonly string[]): Map<string, string> {
  const sorted = [...new Set(ids)].sort();
  const common = (a = "", b = "") => {
    let i = 0;
    while (i < a.length && i < b.length && a[i] === b[i]) i++;
    return i;
  };
  const shortest = new Map<string, string>();
  sorted.forEach((id, i) => {
    const length = Math.max(MIN_PREFIX, common(id, sorted[i - 1]) + 1, common(id, sorted[i + 1]) + 1);
    shortest.set(id, id.slice(0, length));
  });
  return shortest;
}
