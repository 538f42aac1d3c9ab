/**
 * Turns a `<session>` reference into a session in the IR: resolved across the stores (or one harness with
 * `from`), read, and with what earlier conversions remembered (tool provenance) attached again.
 */
import type { Session } from "../ir/schema.ts";
import type { SessionStream } from "../ir/stream.ts";
import type { Harness } from "../harnesses/types.ts";
import type { Registry } from "../harnesses/registry.ts";
import type { BrokenStore } from "../harnesses/stores.ts";
import { restoreProvenance } from "../tools/provenance.ts";
import { resolveReference } from "./reference.ts";
import { harnessOf, type HarnessRef, readOptionsOf, type StoresRequest } from "./request.ts";

export interface LoadRequest extends StoresRequest {
  /** A reference in any of the forms of reference.ts: a path, an id or prefix, a title, `latest`, `codex~2`. */
  ref: string;
  /** Look in this harness only (its descriptor, or a name or an alias). */
  from?: HarnessRef;
  registry: Registry;
  /** The caller's environment, for `current` (the harness running us names its session there). */
  env?: NodeJS.ProcessEnv;
}

/** A session read to be converted: its live thread may be streamed (see HarnessStore.open). */
export interface Opened extends Omit<Loaded, "session"> {
  session: SessionStream;
}

export interface Loaded {
  session: Session;
  /** The harness the session was read from. */
  source: Harness;
  /** Stores that could not be searched (see LoadRequest.onSkipped). */
  skipped: BrokenStore[];
}

export async function loadSession(request: LoadRequest): Promise<Loaded> {
  return await resolveAndRead(request, (harness, path) => harness.store.read(path, readOptionsOf(request)));
}

/** Like loadSession, for a conversion: a large session's live thread is streamed, not held. */
export async function openSession(request: LoadRequest): Promise<Opened> {
  return await resolveAndRead(request, (harness, path) => harness.store.open(path, readOptionsOf(request)));
}

async function resolveAndRead<S extends SessionStream>(
  request: LoadRequest,
  read: (harness: Harness, path: string) => Promise<S>,
): Promise<{ session: S; source: Harness; skipped: BrokenStore[] }> {
  const { registry } = request;
  const from = request.from === undefined ? undefined : harnessOf(registry, request.from);
  const resolved = await resolveReference({
    ref: request.ref,
    registry,
    homes: request.homes,
    bridgeHome: request.bridgeHome,
    ...(from ? { from } : {}),
    ...(request.named ? { named: request.named } : {}),
    ...(request.env ? { env: request.env } : {}),
  });
  for (const b of resolved.skipped) request.onSkipped?.(b);
  const session = restoreProvenance(request.bridgeHome, await read(resolved.harness, resolved.path));
  return { session, source: resolved.harness, skipped: resolved.skipped };
}
