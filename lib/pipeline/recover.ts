/**
 * Recovery as one library call: every handoff a crash interrupted (its intent left behind by a process that is
 * no longer running) is completed, so `undo` sees it, or rolled back (lib/store/recover.ts). `session-bridge
 * recover` runs it on demand; every command that touches a store runs it first when an intent is left, which
 * costs one directory listing otherwise. Nothing here prints.
 */
import { holdingSignals } from "../io/interrupt.ts";
import type { Feedback } from "../io/progress.ts";
import type { LedgerEntry } from "../store/ledger.ts";
import { hasIntents, intentSubject, listIntents, removeTornIntents, stillRunning } from "../store/intent.ts";
import { carryOutRecovery, planRecovery, type RecoveryPlan } from "../store/recover.ts";

export interface RecoverRequest {
  /** session-bridge's own folder: the ledger, its intents and the backups. */
  bridgeHome: string;
  /** Plan only: nothing is changed. */
  dryRun?: boolean;
  /** Where the recovery's long steps report, and a wait for a locked store is said (default: nowhere). */
  feedback?: Feedback;
}

export interface RecoveredOperation {
  /** What was interrupted: a handoff, an undo of handoff `op`, or a `convert -o` or `export` run `op`. */
  kind: "handoff" | "undo" | "convert" | "export";
  op: string;
  source: { harness: string; id: string };
  target: { harness: string; id: string; path: string };
  action: RecoveryPlan["action"];
  removed: string[];
  restored: { path: string; backup: string }[];
  /** For a completed handoff: the ledger entry `undo` now takes it back with. */
  entry?: LedgerEntry;
}

export interface RecoverOutcome {
  dryRun: boolean;
  operations: RecoveredOperation[];
  /** Handoffs still being carried out by a running process (left alone). */
  running: string[];
}

export async function recover(request: RecoverRequest): Promise<RecoverOutcome> {
  const dryRun = request.dryRun ?? false;
  const operations: RecoveredOperation[] = [];
  const running: string[] = [];
  await holdingSignals(async () => {
    if (!dryRun) removeTornIntents(request.bridgeHome);
    for (const intent of listIntents(request.bridgeHome)) {
      if (stillRunning(intent)) {
        running.push(intent.op);
        continue;
      }
      const plan = planRecovery(intent, request.bridgeHome);
      const entry = dryRun ? undefined : await carryOutRecovery(plan, request.bridgeHome, request.feedback);
      const { command, source, target } = intentSubject(intent);
      operations.push({
        kind: command,
        op: intent.op,
        source,
        target,
        action: plan.action,
        removed: plan.remove,
        restored: plan.restore,
        ...(entry ? { entry } : {}),
      });
    }
  });
  return { dryRun, operations, running };
}

/**
 * Recovers first when an interrupted handoff may be left (cheap otherwise: one directory listing); each one
 * recovered is told as a notice.
 */
export async function recoverIfInterrupted(
  bridgeHome: string,
  feedback?: Feedback,
): Promise<RecoveredOperation[]> {
  if (!hasIntents(bridgeHome)) return [];
  const { operations } = await recover({ bridgeHome, feedback });
  for (const o of operations) feedback?.notice?.(recoveredLine(o, false));
  return operations;
}

/** One line saying what recovering an operation did (or would do). */
export function recoveredLine(o: RecoveredOperation, dryRun: boolean): string {
  const hop = `${o.source.harness}:${o.source.id} -> ${o.target.harness}:${o.target.id}`;
  if (o.kind === "convert" || o.kind === "export") {
    const what = `interrupted ${o.kind} of ${o.source.harness}:${o.source.id} to ${o.target.path}`;
    const file = o.action === "complete"
      ? "the file had been written whole and stays"
      : "no file was written";
    return `${dryRun ? "would clean up after" : "cleaned up after"} ${what}: ${file}`;
  }
  if (o.kind === "undo") {
    const what = `interrupted undo of handoff ${o.op} (${hop})`;
    if (o.action === "complete") {
      return `${dryRun ? "would finish" : "finished"} ${what}: it had begun removing the handoff`;
    }
    return `${dryRun ? "would roll back" : "rolled back"} ${what}: it had changed nothing; undo ${o.op} ` +
      `can run again`;
  }
  const what = `interrupted handoff ${o.op} (${hop})`;
  if (o.action === "complete") {
    return `${
      dryRun ? "would complete" : "completed"
    } ${what}: its commit had happened; undo ${o.op} takes it back`;
  }
  return `${dryRun ? "would roll back" : "rolled back"} ${what}: it had not committed`;
}
