/** What `inspect` shows of a session: structure, counts, pending state and drift, as plain data. */
import { countBlocks } from "../ir/summary.ts";
import type { Session } from "../ir/schema.ts";
import type { Harness } from "../harnesses/types.ts";
import type { FitMode, FitPlan } from "../fit/fit.ts";
import { chooseTargetModel, fitToTarget } from "./prepare.ts";

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

export interface FitPreviewRequest {
  /** The target's home, whose configuration may name the model and its window. */
  home?: string;
  env?: NodeJS.ProcessEnv;
  model?: string;
  fit?: FitMode;
  context?: number;
}

/**
 * What the target's model would see of the session if it were handed off now (the handoff's own model choice
 * and fitting, nothing written): shown by `inspect --to` before the user commits to anything. A copy within
 * one harness is never fitted, so it has none.
 */
export async function fitPreview(
  session: Session,
  target: Harness,
  request: FitPreviewRequest,
): Promise<{ model?: string; plan?: FitPlan }> {
  if (session.meta.harness === target.name) return {};
  const choice = await chooseTargetModel(session, target, request, session.meta.cwd);
  const fitting = await fitToTarget(session, target, choice, request);
  return { ...(choice.model ? { model: choice.model } : {}), ...(fitting ? { plan: fitting.plan } : {}) };
}
