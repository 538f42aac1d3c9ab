/** What `inspect` shows of a session: structure, counts, pending state and drift, as plain data. */
import { countBlocks } from "../ir/summary.ts";
import type { Session } from "../ir/schema.ts";

export type Inspection = ReturnType<typeof inspection>;

export function inspection(session: Session) {
  const { meta } = session;
  return {
    harness: meta.harness,
    version: meta.harnessVersion ?? null,
    id: meta.id,
    path: meta.path ?? null,
    cwd: meta.cwd ?? null,
    title: meta.title ?? null,
    models: meta.models,
    gitBranch: meta.gitBranch ?? null,
    permissionMode: meta.permissionMode ?? null,
    createdAt: meta.createdAt ?? null,
    updatedAt: meta.updatedAt ?? null,
    source: meta.source ?? null,
    usage: meta.usage ?? null,
    costUsd: meta.costUsd ?? null,
    ...countBlocks(session.messages),
    tools: session.tools.length,
    systemInstructions: session.meta.systemInstructions?.length ?? 0,
    threads: session.threads.map((t) => ({ id: t.id, kind: t.kind, messages: t.messages.length })),
    pending: session.pending,
    drift: session.drift,
    notices: session.notices,
  };
}
