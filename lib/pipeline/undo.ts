/**
 * Taking a handoff back, as one library call over the undo ledger (lib/store/undo.ts): pick the operation
 * (one by id or 6+ character prefix, or the newest when asked for by `last`), plan what to remove and restore,
 * and unless it is a dry run carry that out and apply the backup retention rule. A dry run says what the real
 * undo would do, a refusal included. Nothing here prints.
 */
import type { Feedback } from "../io/progress.ts";
import { restoreAliases, type RestoredAlias } from "../aliases/follow.ts";
import { InputError, RefusedError } from "../errors.ts";
import { holdingSignals } from "../io/interrupt.ts";
import { type LedgerEntry, operationHistory, pendingOperations } from "../store/ledger.ts";
import { withOperationLock } from "../store/operation-lock.ts";
import { applyRetention, type PrunePlan } from "../store/prune.ts";
import { carryOutUndo, planUndo, type UndoPlan, undoRefusal } from "../store/undo.ts";
import { recoverIfInterrupted } from "./recover.ts";
import type { Registry } from "../harnesses/registry.ts";

const MIN_PREFIX = 6;

export interface UndoRequest {
  /** An operation id or a 6+ character prefix of one. */
  op?: string;
  /** Undo the newest pending handoff instead of a named one (never a default: it may not be the one meant). */
  last?: boolean;
  /** Plan only: nothing is changed. */
  dryRun?: boolean;
  /** Also undo files and rows changed since the handoff (a copy is saved first). */
  force?: boolean;
  now?: Date;
  /** session-bridge's own folder: the undo ledger and backups. */
  bridgeHome: string;
  /**
   * This call's entry has recovered what a crash interrupted in `bridgeHome` already (the CLI does, once per
   * command, before any store is read), so the undo does not look again. Absent, it recovers first.
   */
  recovered?: boolean;
  /** Where the undo's long steps report, and a wait for a lock is said (default: nowhere). */
  feedback?: Feedback;
  /**
   * Why a database the undo writes may not be written now (its harness's sole writer runs: see
   * StoreAccess.soleWriter), by the harness the handoff went to; absent, nothing is asked.
   */
  soleWriter?: (harness: string, database: string) => Promise<string | undefined>;
}

export interface UndoOutcome {
  dryRun: boolean;
  entry: LedgerEntry;
  plan: UndoPlan;
  /** Names the handoff had bound, put back as they were (and why one could not be). */
  aliases?: { restored: RestoredAlias[]; warnings: string[] };
  /** Why the undo is refused (something changed since the handoff); only a dry run returns one. */
  refusal?: string;
  /** Copies saved before removing (databases, changed files). */
  backups: string[];
  /** What the retention rule removed afterwards. */
  pruned?: PrunePlan;
  /** What could not be recorded after the undo was carried out (it stands). */
  warnings: string[];
}

/** Handoffs that can still be undone, oldest first. */
export function undoable(bridgeHome: string): LedgerEntry[] {
  return pendingOperations(bridgeHome);
}

export async function undo(request: UndoRequest): Promise<UndoOutcome> {
  const { op: ref, bridgeHome } = request;
  if (ref !== undefined && request.last) {
    throw new InputError("name an operation or ask for the last, not both");
  }
  if (ref === undefined && !request.last) {
    throw new InputError("name the operation to undo, or ask for the last");
  }
  if (ref !== undefined && ref.length < MIN_PREFIX) {
    throw new InputError(`operation id prefix must have at least ${MIN_PREFIX} characters`);
  }
  const dryRun = request.dryRun ?? false;
  // A handoff a crash interrupted is finished first, so the newest handoff is really the newest.
  if (!dryRun && !request.recovered) await recoverIfInterrupted(bridgeHome, request.feedback);
  const chosen = chosenOperation(bridgeHome, ref);
  // Undos of one operation run one at a time, from their first read: planned while another carries it out,
  // an undo would see its half-done work as changes, or remove what that one already removed.
  return await withOperationLock(bridgeHome, chosen, async () => {
    // Read again under the lock: the undo this one waited for may have taken it back.
    const entry = pendingOperations(bridgeHome).find((e) => e.op === chosen);
    if (!entry) throw alreadyUndone(chosen);
    return await undoEntry(entry, request, dryRun);
  }, request.feedback);
}

/** The operation `ref` names (a prefix of its id), or the newest pending one when there is no `ref`. */
function chosenOperation(bridgeHome: string, ref: string | undefined): string {
  const pending = pendingOperations(bridgeHome);
  const entry = ref === undefined ? pending.at(-1) : pending.find((e) => e.op.startsWith(ref));
  if (entry) return entry.op;
  if (ref === undefined) throw new RefusedError("nothing to undo");
  const undone = operationHistory(bridgeHome).find((e) => e.op.startsWith(ref) && e.undone);
  throw undone ? alreadyUndone(undone.op) : new RefusedError(`no pending operation ${JSON.stringify(ref)}`);
}

const alreadyUndone = (op: string) => new RefusedError(`operation ${op} is already undone`);

/** Plans the undo of `entry` and, unless it is a dry run, carries it out (the caller holds its lock). */
async function undoEntry(entry: LedgerEntry, request: UndoRequest, dryRun: boolean): Promise<UndoOutcome> {
  const { bridgeHome } = request;
  const plan = await planUndo(entry);
  const force = request.force ?? false;
  const now = request.now ?? new Date();
  // A program that must be its store's one writer is running: no --force passes it by.
  const owner = await ownerRefusal(plan, request);
  if (owner && !dryRun) throw new RefusedError(owner);
  const refusal = owner ?? undoRefusal(plan, force);
  const { backups, warnings } = dryRun
    ? { backups: [], warnings: [] }
    : await holdingSignals(() => carryOutUndo(plan, force, now, bridgeHome, request.feedback));
  const pruned = dryRun ? undefined : applyRetention(bridgeHome, now);
  // The names the handoff bound go back to what they named before it.
  const aliases = dryRun ? undefined : await restoreAliases(bridgeHome, entry.op);
  return {
    dryRun,
    entry,
    plan,
    ...(aliases && (aliases.restored.length || aliases.warnings.length) ? { aliases } : {}),
    ...(dryRun && refusal ? { refusal } : {}),
    backups,
    ...(pruned ? { pruned } : {}),
    warnings,
  };
}

/** UndoRequest.soleWriter asked of the registered harnesses, each with the environment the command runs in. */
export function soleWritersOf(
  registry: Registry,
  env: NodeJS.ProcessEnv,
): (harness: string, database: string) => Promise<string | undefined> {
  return async (harness, database) =>
    await registry.harnesses.find((h) => h.name === harness)?.store.soleWriter(database, env);
}

/** The first database the undo would write whose harness's sole writer is running, as that harness says it. */
async function ownerRefusal(plan: UndoPlan, request: UndoRequest): Promise<string | undefined> {
  if (!request.soleWriter) return undefined;
  for (const database of new Set(plan.rows.map((row) => row.database))) {
    const refusal = await request.soleWriter(plan.entry.target.harness, database);
    if (refusal) return refusal;
  }
  return undefined;
}
