/** What a library call hands off or converts: a reference to resolve in the stores, or a session. */
import type { Feedback } from "../io/progress.ts";
import type { Session } from "../ir/schema.ts";
import type { SessionStream } from "../ir/stream.ts";
import type { BrokenStore } from "../harnesses/stores.ts";
import type { Harness, Homes } from "../harnesses/types.ts";
import type { Registry } from "../harnesses/registry.ts";
import { openSession } from "./load.ts";
import type { NamedSessions } from "../aliases/named.ts";
import type { ReadLimits } from "../io/jsonl.ts";
import { harnessOf, type HarnessRef } from "./request.ts";

export type SessionSource =
  /** A reference in any of the forms of reference.ts (a path, an id or prefix, a title, `latest`, `codex~2`); `from` limits the search. */
  | { ref: string; from?: HarnessRef }
  /** A session already read (for example with loadSession). */
  | { session: Session };

export interface SourceContext {
  registry: Registry;
  homes: Homes;
  bridgeHome: string;
  onSkipped?: (store: BrokenStore) => void;
  named?: NamedSessions;
  /** The caller's environment, for the `current` reference. */
  env?: NodeJS.ProcessEnv;
  limits?: ReadLimits;
  feedback?: Feedback;
}

/**
 * The session a request names, read from the stores when it is a reference: to be converted, so a large one's
 * live thread is streamed (see HarnessStore.open); with the harness it is in, found here once and passed on.
 */
export async function sourceSession(
  source: SessionSource,
  context: SourceContext,
): Promise<{ session: SessionStream; harness: Harness; skipped: BrokenStore[] }> {
  if ("session" in source) {
    return {
      session: source.session,
      harness: harnessOf(context.registry, source.session.meta.harness),
      skipped: [],
    };
  }
  const loaded = await openSession({
    ...context,
    ref: source.ref,
    ...(source.from ? { from: source.from } : {}),
  });
  return { session: loaded.session, harness: loaded.source, skipped: loaded.skipped };
}
